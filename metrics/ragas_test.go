package metrics_test

import (
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metrics"
)

func TestRagasScore(t *testing.T) {
	for _, c := range []struct {
		name          string
		f, cp, cr, ar metrics.Value
		want          float64
	}{
		// The seed's worked example: (30 + 20 + 24.981) / 0.8 = 93.72625.
		{"SeedExample", v(100), null, v(100), v(83.27), 93.73},
		{"AllParts", v(100), v(50), v(50), v(0), 50},
		{"AllParts2", v(90), v(80), v(70), v(60), 75}, // 27+16+14+18
		{"OnlyAnswerRelevance", null, null, null, v(83.27), 83.27},
		{"ZeroIsNotNull", v(0), null, null, null, 0},
		{"ContextPartsOnly", null, v(100), v(50), null, 75},
	} {
		t.Run(c.name, func(t *testing.T) {
			ExactValue(t, "ragas_score", metrics.RagasScore(c.f, c.cp, c.cr, c.ar), c.want)
		})
	}
	t.Run("AllNull", func(t *testing.T) {
		got := metrics.RagasScore(null, null, null, null)
		if !got.IsNull() || got.Reason == "" {
			t.Errorf("ragas_score = %v, want null with a reason", got)
		}
	})
}

func TestContextPrecision(t *testing.T) {
	for _, c := range []struct {
		name      string
		verdicts  []bool
		mean, atK float64
	}{
		{"HandExample", []bool{true, false, true}, 66.67, 83.33}, // (1/1 + 2/3)/2
		{"RelevantSecond", []bool{false, true}, 50, 50},          // (1/2)/1
		{"AllRelevant", []bool{true, true, true}, 100, 100},
		{"NoneRelevant", []bool{false, false}, 0, 0},
		{"LastOfThree", []bool{false, false, true}, 33.33, 33.33}, // (1/3)/1
		{"FirstOfFour", []bool{true, false, false, false}, 25, 100},
		{"LastTwo", []bool{false, true, true}, 66.67, 58.33}, // (1/2 + 2/3)/2
		{"Single", []bool{true}, 100, 100},
	} {
		t.Run(c.name, func(t *testing.T) {
			ExactValue(t, "mean", metrics.ContextPrecision(c.verdicts), c.mean)
			ExactValue(t, "at_k", metrics.ContextPrecisionAtK(c.verdicts), c.atK)
		})
	}
	t.Run("NoContexts", func(t *testing.T) {
		NullValue(t, "mean", metrics.ContextPrecision(nil), "no contexts")
		NullValue(t, "at_k", metrics.ContextPrecisionAtK([]bool{}), "no contexts")
	})
}

func TestSemanticSimilarity(t *testing.T) {
	for _, c := range []struct {
		name string
		a, b []float32
		want float64
	}{
		{"Identical", []float32{0.6, 0.8}, []float32{0.6, 0.8}, 100},
		{"ThreeFifths", []float32{1, 0}, []float32{3, 4}, 60},
		{"Diagonal", []float32{1, 1}, []float32{1, 0}, 70.71}, // cos 0.70710678
		{"Orthogonal", []float32{1, 0}, []float32{0, 1}, 0},
		{"NegativeIsZero", []float32{1, 0}, []float32{-1, 0}, 0},
		{"SlightlyNegative", []float32{1, 0}, []float32{-1, 10}, 0},
		{"ZeroVector", []float32{0, 0}, []float32{1, 0}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := metrics.SemanticSimilarity(c.a, c.b)
			if err != nil {
				t.Fatal(err)
			}
			ExactValue(t, "semantic_similarity", got, c.want)
		})
	}
	t.Run("EINVALID", func(t *testing.T) {
		_, err := metrics.SemanticSimilarity([]float32{1, 0}, []float32{1, 0, 0})
		MustCode(t, err, kgeval.EINVALID)
	})
}
