package metrics_test

import (
	"math"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metrics"
)

func TestGrade(t *testing.T) {
	for _, c := range []struct {
		score float64
		want  string
	}{
		{100, "A"}, {80, "A"}, {79.99, "B"},
		{60, "B"}, {59.99, "C"},
		{40, "C"}, {39.99, "D"},
		{20, "D"}, {19.99, "E"},
		{0, "E"}, {math.NaN(), "E"},
	} {
		if got := metrics.Grade(c.score); got != c.want {
			t.Errorf("Grade(%v) = %s, want %s", c.score, got, c.want)
		}
	}
}

func TestFactualAccuracy(t *testing.T) {
	for _, c := range []struct {
		name             string
		corr, comp, cons float64
		score            float64
		grade            string
	}{
		{"Perfect", 10, 10, 10, 100, "A"},
		{"AtA", 8, 8, 8, 80, "A"},
		{"JustBelowA", 8, 7, 9, 79, "B"}, // 40 + 21 + 18
		{"CorrectnessOnly", 10, 0, 0, 50, "C"},
		{"CompletenessOnly", 0, 10, 0, 30, "D"},
		{"ConsistencyOnlyAtD", 0, 0, 10, 20, "D"},
		{"JustBelowD", 2, 2, 1.995, 19.99, "E"}, // 10 + 6 + 3.99
		{"Zero", 0, 0, 0, 0, "E"},
		{"Fractions", 7.5, 6.25, 9.9, 76.05, "B"}, // 37.5 + 18.75 + 19.8
		// 5·7.999 + 3·8 + 2·8 = 79.995, which rounds to 80.00: the grade
		// follows the rounded score.
		{"RoundsUpToA", 7.999, 8, 8, 80, "A"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := metrics.FactualAccuracy(c.corr, c.comp, c.cons)
			if err != nil {
				t.Fatal(err)
			}
			if g.Score != c.score || g.Grade != c.grade {
				t.Errorf("score %v grade %s, want %v %s", g.Score, g.Grade, c.score, c.grade)
			}
			if g.Correctness != c.corr || g.Completeness != c.comp || g.Consistency != c.cons {
				t.Errorf("sub-scores not kept: %+v", g)
			}
		})
	}
	for _, c := range []struct {
		name             string
		corr, comp, cons float64
	}{
		{"Negative", -1, 5, 5},
		{"Above10", 5, 10.5, 5},
		{"Percent", 5, 5, 80},
		{"NaN", 5, 5, math.NaN()},
	} {
		t.Run("EINVALID/"+c.name, func(t *testing.T) {
			_, err := metrics.FactualAccuracy(c.corr, c.comp, c.cons)
			MustCode(t, err, kgeval.EINVALID)
		})
	}
}
