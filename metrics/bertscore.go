package metrics

import (
	"context"
	"fmt"
	"math"

	"github.com/kgeval/kgeval"
)

// BERTResult is bert_score_f1 (SPEC §7) with the precision and recall it
// comes from. Precision, Recall and F1 are on BERTScore's own scale (cosines,
// 1 for identical token vectors); Score is the metric, max(0, F1) × 100
// rounded to 2 decimals, or null with a reason.
type BERTResult struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	Score     Value   `json:"score"`
}

// BERTScore computes bert_score_f1 of the candidate text (the answer)
// against the reference text with m's contextual token vectors; texts longer
// than m's max_seq_length are truncated by m. A nil m — an embedding provider
// without token vectors — gives a null Score.
func BERTScore(ctx context.Context, m kgeval.TokenEmbedder, candidate, reference string) (BERTResult, error) {
	if m == nil {
		return BERTResult{Score: Null("the embedding provider gives no token vectors")}, nil
	}
	te, err := m.EmbedTokens(ctx, []string{candidate, reference})
	if err != nil {
		return BERTResult{}, fmt.Errorf("bert score token vectors: %w", err)
	}
	if len(te) != 2 {
		return BERTResult{}, kgeval.Errorf(kgeval.EINTERNAL, "bert score: %d token embeddings for 2 texts", len(te))
	}
	return BERTScoreVectors(te[0].Vectors, te[1].Vectors)
}

// BERTScoreVectors computes BERTScore by greedy matching of candidate token
// vectors against reference token vectors (formulas in the package comment).
// The vectors are L2-normalised here; special tokens must already be left
// out. Score is null when either side has no vectors. Errors: EINVALID when
// vectors differ in length.
func BERTScoreVectors(candidate, reference [][]float32) (BERTResult, error) {
	switch {
	case len(candidate) == 0:
		return BERTResult{Score: Null("the answer has no tokens")}, nil
	case len(reference) == 0:
		return BERTResult{Score: Null("the reference has no tokens")}, nil
	}
	dim := len(candidate[0])
	for _, side := range [...]struct {
		name string
		vs   [][]float32
	}{{"candidate", candidate}, {"reference", reference}} {
		for i, v := range side.vs {
			if len(v) != dim {
				return BERTResult{}, kgeval.Errorf(kgeval.EINVALID, "%s token vector %d has %d dimensions, want %d", side.name, i, len(v), dim)
			}
		}
	}
	// bestC[i] = max_j cos(x_i, y_j), bestR[j] = max_i cos(x_i, y_j).
	bestC := make([]float64, len(candidate))
	bestR := make([]float64, len(reference))
	for i := range bestC {
		bestC[i] = math.Inf(-1)
	}
	for j := range bestR {
		bestR[j] = math.Inf(-1)
	}
	for i, x := range candidate {
		for j, y := range reference {
			c := Cosine(x, y)
			bestC[i] = max(bestC[i], c)
			bestR[j] = max(bestR[j], c)
		}
	}
	r := BERTResult{Precision: mean(bestC), Recall: mean(bestR)}
	if s := r.Precision + r.Recall; s != 0 {
		r.F1 = 2 * r.Precision * r.Recall / s
	}
	r.Score = Of(Round2(100 * max(0, r.F1)))
	return r, nil
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
