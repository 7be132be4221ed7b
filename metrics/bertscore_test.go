package metrics_test

import (
	"context"
	"errors"
	"github.com/kgeval/kgeval/configs/configstest"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metrics"
	"github.com/kgeval/kgeval/minilm"
)

var _ kgeval.TokenEmbedder = (*minilm.Model)(nil)

func TestBERTScoreVectors(t *testing.T) {
	for _, c := range []struct {
		name      string
		cand, ref [][]float32
		p, r, f1  float64
		score     float64
	}{
		// Candidate token 2 matches nothing: P = (1+0)/2, R = 1.
		{"ExtraCandidateToken", [][]float32{{1, 0}, {0, 1}}, [][]float32{{1, 0}}, 0.5, 1, 2.0 / 3, 66.67},
		// cos(x, y1) = 3/5, cos(x, y2) = 0: P = 0.6, R = (0.6+0)/2.
		{"Fractions", [][]float32{{1, 0}}, [][]float32{{3, 4}, {0, 2}}, 0.6, 0.3, 2 * 0.6 * 0.3 / 0.9, 40},
		// Same directions, other lengths and order: vectors are normalised.
		{"SameTokensReordered", [][]float32{{2, 0}, {0, 3}}, [][]float32{{0, 1}, {5, 0}}, 1, 1, 1, 100},
		{"Orthogonal", [][]float32{{1, 0}}, [][]float32{{0, 1}}, 0, 0, 0, 0},
		// F1 = 2·1/(-2) = -1; the metric is clamped at 0.
		{"Opposite", [][]float32{{1, 0}}, [][]float32{{-1, 0}}, -1, -1, -1, 0},
		// Greedy: both candidate tokens take the one reference token.
		{"ManyToOne", [][]float32{{1, 0}, {1, 0}}, [][]float32{{1, 0}, {0, 1}}, 1, 0.5, 2.0 / 3, 66.67},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := metrics.BERTScoreVectors(c.cand, c.ref)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(r.Precision-c.p) > tol || math.Abs(r.Recall-c.r) > tol || math.Abs(r.F1-c.f1) > tol {
				t.Errorf("P %v R %v F1 %v, want %v %v %v", r.Precision, r.Recall, r.F1, c.p, c.r, c.f1)
			}
			ExactValue(t, "bert_score_f1", r.Score, c.score)
		})
	}
	t.Run("NoCandidateTokens", func(t *testing.T) {
		r, err := metrics.BERTScoreVectors(nil, [][]float32{{1}})
		if err != nil {
			t.Fatal(err)
		}
		NullValue(t, "bert_score_f1", r.Score, "the answer has no tokens")
	})
	t.Run("NoReferenceTokens", func(t *testing.T) {
		r, err := metrics.BERTScoreVectors([][]float32{{1}}, [][]float32{})
		if err != nil {
			t.Fatal(err)
		}
		NullValue(t, "bert_score_f1", r.Score, "the reference has no tokens")
	})
	t.Run("EINVALID", func(t *testing.T) {
		_, err := metrics.BERTScoreVectors([][]float32{{1, 0}}, [][]float32{{1, 0}, {1, 0, 0}})
		MustCode(t, err, kgeval.EINVALID)
	})
}

// failingEmbedder fails every call, as an unloadable model would.
type failingEmbedder struct{}

func (failingEmbedder) EmbedTokens(context.Context, []string) ([]kgeval.TokenEmbedding, error) {
	return nil, kgeval.Errorf(kgeval.EUNAVAILABLE, "model not loaded")
}

func TestBERTScore_NoTokenVectors(t *testing.T) {
	r, err := metrics.BERTScore(context.Background(), nil, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	NullValue(t, "bert_score_f1", r.Score, "the embedding provider gives no token vectors")
}

func TestBERTScore_EmbedderError(t *testing.T) {
	_, err := metrics.BERTScore(context.Background(), failingEmbedder{}, "a", "b")
	MustCode(t, err, kgeval.EUNAVAILABLE)
}

var (
	modelOnce sync.Once
	model     *minilm.Model
	modelErr  error
)

// MustModel loads all-MiniLM-L6-v2 from configstest.EncoderDir(t) once. It skips
// the test only when the model files are absent; a model that is present
// but does not load fails it.
func MustModel(tb testing.TB) *minilm.Model {
	tb.Helper()
	dir := configstest.EncoderDir(tb)
	for _, f := range []string{"config.json", "model.safetensors"} {
		if _, err := os.Stat(filepath.Join(dir, f)); errors.Is(err, os.ErrNotExist) {
			tb.Skipf("model files absent from %s (run scripts/fetch-minilm.sh or make models)", dir)
		}
	}
	modelOnce.Do(func() { model, modelErr = minilm.Load(dir) })
	if modelErr != nil {
		tb.Fatalf("load %s: %v", dir, modelErr)
	}
	return model
}

func TestBERTScore_MiniLM(t *testing.T) {
	m := MustModel(t)
	const (
		sentence   = "The Eiffel Tower is located in Paris."
		paraphrase = "The Eiffel Tower stands in the city of Paris."
		unrelated  = "Photosynthesis converts light into chemical energy."
	)
	t.Run("SpecialTokensLeftOut", func(t *testing.T) {
		te, err := m.EmbedTokens(context.Background(), []string{sentence})
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(te[0].Tokens, "[CLS]") || slices.Contains(te[0].Tokens, "[SEP]") || len(te[0].Tokens) != len(te[0].Vectors) {
			t.Fatalf("tokens %q with %d vectors", te[0].Tokens, len(te[0].Vectors))
		}
	})
	t.Run("Identical", func(t *testing.T) {
		r, err := metrics.BERTScore(context.Background(), m, sentence, sentence)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.F1-1) > 1e-6 || math.Abs(r.Precision-1) > 1e-6 || math.Abs(r.Recall-1) > 1e-6 {
			t.Errorf("P %v R %v F1 %v, want 1", r.Precision, r.Recall, r.F1)
		}
		ExactValue(t, "bert_score_f1", r.Score, 100)
	})
	t.Run("ParaphraseAboveUnrelated", func(t *testing.T) {
		para, err := metrics.BERTScore(context.Background(), m, paraphrase, sentence)
		if err != nil {
			t.Fatal(err)
		}
		unrel, err := metrics.BERTScore(context.Background(), m, unrelated, sentence)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("F1 paraphrase %.4f, unrelated %.4f", para.F1, unrel.F1)
		if !(para.F1 > unrel.F1) || para.F1 >= 1 {
			t.Errorf("F1 paraphrase %v, unrelated %v", para.F1, unrel.F1)
		}
	})
	t.Run("EmptyAnswer", func(t *testing.T) {
		r, err := metrics.BERTScore(context.Background(), m, "", sentence)
		if err != nil {
			t.Fatal(err)
		}
		NullValue(t, "bert_score_f1", r.Score, "the answer has no tokens")
	})
}
