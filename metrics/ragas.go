package metrics

import (
	"github.com/kgeval/kgeval"
)

// RagasScore combines ragas_faithfulness f, ragas_context_precision cp,
// ragas_context_recall cr and ragas_answer_relevance ar (each 0–100) into
// ragas_score (SPEC §7): 0.30 F + 0.20 CP + 0.20 CR + 0.30 AR over the non-null
// parts, divided by the sum of their weights, rounded to 2 decimals. It is null
// only when all four parts are null.
func RagasScore(f, cp, cr, ar Value) Value {
	parts := [...]struct {
		v Value
		w float64
	}{{f, 0.30}, {cp, 0.20}, {cr, 0.20}, {ar, 0.30}}
	var sum, weights float64
	for _, p := range parts {
		if x, ok := p.v.Float(); ok {
			sum += float64(p.w * x) // rounded, not fused (as on amd64)
			weights += p.w
		}
	}
	if weights == 0 {
		return Null("faithfulness, context precision, context recall and answer relevance are all null")
	}
	return Of(Round2(sum / weights))
}

// ContextPrecision is ragas_context_precision (SPEC §7): the share of
// passages judged relevant, × 100, rounded to 2 decimals. verdicts holds one
// verdict per passage in rank order. Null when there are no passages.
func ContextPrecision(verdicts []bool) Value {
	if len(verdicts) == 0 {
		return Null("no contexts")
	}
	relevant := 0
	for _, v := range verdicts {
		if v {
			relevant++
		}
	}
	return Of(Round2(100 * float64(relevant) / float64(len(verdicts))))
}

// ContextPrecisionAtK is ragas_context_precision_at_k (SPEC §7), RAGAS's
// rank-aware context precision: the mean of precision@k over the ranks k
// that hold a relevant passage, × 100, rounded to 2 decimals. It is 0 when no
// passage is relevant and null when there are no passages.
func ContextPrecisionAtK(verdicts []bool) Value {
	if len(verdicts) == 0 {
		return Null("no contexts")
	}
	var sum float64
	relevant := 0
	for k, v := range verdicts {
		if v {
			relevant++
			sum += float64(relevant) / float64(k+1)
		}
	}
	if relevant == 0 {
		return Of(0)
	}
	return Of(Round2(100 * sum / float64(relevant)))
}

// SemanticSimilarity is semantic_similarity (SPEC §7): cos(answer, reference)
// × 100, negative cosines as 0, rounded to 2 decimals. The vectors need not be
// normalised. Errors: EINVALID when their lengths differ.
func SemanticSimilarity(answer, reference []float32) (Value, error) {
	if len(answer) != len(reference) {
		return Value{}, kgeval.Errorf(kgeval.EINVALID, "answer vector has %d dimensions, reference vector %d", len(answer), len(reference))
	}
	return Of(Round2(100 * max(0, Cosine(answer, reference)))), nil
}
