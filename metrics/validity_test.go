package metrics_test

import (
	"testing"

	"github.com/kgeval/kgeval/metrics"
)

func TestValidityOf(t *testing.T) {
	cases := []struct {
		name string
		typ  string
		dir  metrics.Direction
	}{
		{"faithfulness.multihop", metrics.TypeFaithfulness, metrics.HigherIsBetter},
		{"faithfulness.community_coverage", metrics.TypeFaithfulness, metrics.HigherIsBetter},
		{"faithfulness.contradiction", metrics.TypeFaithfulness, metrics.LowerIsBetter},
		{"faithfulness.support", metrics.TypeFaithfulness, metrics.HigherIsBetter},
		{"answer_relevancy.slot_coverage", metrics.TypeRelevance, metrics.HigherIsBetter},
		{"answer_relevancy.contradiction", metrics.TypeRelevance, metrics.LowerIsBetter},
		{"factual_correctness.f1", metrics.TypeReference, metrics.HigherIsBetter},
		{"factual_correctness.recall", metrics.TypeReference, metrics.HigherIsBetter},
		{"context_relevancy.multihop", metrics.TypeNoAnswer, metrics.HigherIsBetter},
		{"ts_groundedness_minimax", metrics.TypeFaithfulness, metrics.HigherIsBetter},
		{"ts_answer_relevancy_avg", metrics.TypeRelevance, metrics.HigherIsBetter},
		{"ts_context_relevancy_weighted", metrics.TypeNoAnswer, metrics.HigherIsBetter},
		{"ts_completeness_avg", metrics.TypeOther, metrics.HigherIsBetter},
		{"llm_faithfulness", metrics.TypeFaithfulness, metrics.HigherIsBetter},
		{"faithfulness_validation", metrics.TypeFaithfulness, metrics.HigherIsBetter},
		{"ragas_faithfulness", metrics.TypeFaithfulness, metrics.HigherIsBetter},
		{"ragas_answer_relevance", metrics.TypeRelevance, metrics.HigherIsBetter},
		{"llm_response_relevancy", metrics.TypeNoAnswer, metrics.HigherIsBetter},
		{"semantic_similarity", metrics.TypeReference, metrics.HigherIsBetter},
		{"ragas_score", metrics.TypeOther, metrics.HigherIsBetter},
		{"grounding.multihop", metrics.TypeUnclassified, metrics.HigherIsBetter},
		{"grounding.contradiction", metrics.TypeUnclassified, metrics.LowerIsBetter},
		{"ts_groundedness", metrics.TypeUnclassified, metrics.HigherIsBetter}, // a base name, not a variable
	}
	for _, c := range cases {
		got := metrics.ValidityOf(c.name)
		if got.Type != c.typ || got.Direction != c.dir {
			t.Errorf("ValidityOf(%s) = %s, %s; want %s, %s", c.name, got.Type, got.Direction, c.typ, c.dir)
		}
	}
}

// TestValidityTable_Complete fails when a metric kgeval computes has no
// validity type: a new metric needs a ValidityTable entry.
func TestValidityTable_Complete(t *testing.T) {
	names, _ := metrics.Expand([]string{"all"})
	var vars []string
	for _, n := range names {
		if metrics.Family(n) == "kg" {
			for _, pair := range []string{"context_relevancy", "faithfulness", "factual_correctness", "answer_relevancy"} {
				vars = append(vars, pair+"."+n)
			}
			continue
		}
		vars = append(vars, n)
	}
	for _, n := range vars {
		if c := metrics.ValidityOf(n); c.Type == metrics.TypeUnclassified {
			t.Errorf("%s has no entry in metrics.ValidityTable", n)
		}
	}
}
