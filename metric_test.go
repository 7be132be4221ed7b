package kgeval_test

import (
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
)

func TestValidityOf(t *testing.T) {
	cases := []struct {
		name string
		typ  string
		dir  kgeval.Direction
	}{
		{"faithfulness.multihop", kgeval.TypeFaithfulness, kgeval.HigherIsBetter},
		{"faithfulness.community_coverage", kgeval.TypeFaithfulness, kgeval.HigherIsBetter},
		{"faithfulness.contradiction", kgeval.TypeFaithfulness, kgeval.LowerIsBetter},
		{"faithfulness.support", kgeval.TypeFaithfulness, kgeval.HigherIsBetter},
		{"answer_relevancy.slot_coverage", kgeval.TypeRelevance, kgeval.HigherIsBetter},
		{"answer_relevancy.contradiction", kgeval.TypeRelevance, kgeval.LowerIsBetter},
		{"factual_correctness.f1", kgeval.TypeReference, kgeval.HigherIsBetter},
		{"factual_correctness.recall", kgeval.TypeReference, kgeval.HigherIsBetter},
		{"context_relevancy.multihop", kgeval.TypeNoAnswer, kgeval.HigherIsBetter},
		{"ts_groundedness_minimax", kgeval.TypeFaithfulness, kgeval.HigherIsBetter},
		{"ts_answer_relevancy_avg", kgeval.TypeRelevance, kgeval.HigherIsBetter},
		{"ts_context_relevancy_weighted", kgeval.TypeNoAnswer, kgeval.HigherIsBetter},
		{"ts_completeness_avg", kgeval.TypeOther, kgeval.HigherIsBetter},
		{"llm_faithfulness", kgeval.TypeFaithfulness, kgeval.HigherIsBetter},
		{"faithfulness_validation", kgeval.TypeFaithfulness, kgeval.HigherIsBetter},
		{"ragas_faithfulness", kgeval.TypeFaithfulness, kgeval.HigherIsBetter},
		{"ragas_answer_relevance", kgeval.TypeRelevance, kgeval.HigherIsBetter},
		{"llm_response_relevancy", kgeval.TypeNoAnswer, kgeval.HigherIsBetter},
		{"semantic_similarity", kgeval.TypeReference, kgeval.HigherIsBetter},
		{"ragas_score", kgeval.TypeOther, kgeval.HigherIsBetter},
		{"grounding.multihop", kgeval.TypeUnclassified, kgeval.HigherIsBetter},
		{"grounding.contradiction", kgeval.TypeUnclassified, kgeval.LowerIsBetter},
		{"ts_groundedness", kgeval.TypeUnclassified, kgeval.HigherIsBetter}, // a base name, not a variable
	}
	for _, c := range cases {
		got := kgeval.ValidityOf(c.name)
		if got.Type != c.typ || got.Direction != c.dir {
			t.Errorf("ValidityOf(%s) = %s, %s; want %s, %s", c.name, got.Type, got.Direction, c.typ, c.dir)
		}
	}
}

// TestValidityOf_Complete fails when a metric kgeval computes has no
// validity type: a new metric needs a Type in the registry.
func TestValidityOf_Complete(t *testing.T) {
	names, _ := kgeval.ExpandMetrics([]string{"all"})
	var vars []string
	for _, n := range names {
		if kgeval.MetricFamily(n) == "kg" {
			for _, pair := range []string{"context_relevancy", "faithfulness", "factual_correctness", "answer_relevancy"} {
				vars = append(vars, pair+"."+n)
			}
			continue
		}
		vars = append(vars, n)
	}
	for _, n := range vars {
		if c := kgeval.ValidityOf(n); c.Type == kgeval.TypeUnclassified {
			t.Errorf("%s has no validity type in the registry", n)
		}
	}
}

// oldClass and oldValidityTable are the validity table as it was before it
// became part of the registry, kept to show that ValidityOf gives every
// name the same class.
type oldClass struct {
	Pattern   string
	Type      string
	Direction kgeval.Direction
	Note      string
}

var oldValidityTable = []oldClass{
	// Sub-metrics of a pair: direction only.
	{Pattern: "*.contradiction", Direction: kgeval.LowerIsBetter, Note: "share of input facts the context contradicts"},
	{Pattern: "*.contradiction_text", Direction: kgeval.LowerIsBetter, Note: "share of input facts the context triplets or sentences contradict"},
	{Pattern: "*.contradiction_verified", Direction: kgeval.LowerIsBetter, Note: "share of input facts contradicted, the model deciding what the graph left open"},
	{Pattern: "*.support_text", Direction: kgeval.HigherIsBetter},
	{Pattern: "*.slot_coverage_text", Direction: kgeval.HigherIsBetter},
	{Pattern: "*.support_verified", Direction: kgeval.HigherIsBetter},
	{Pattern: "*.multihop", Direction: kgeval.HigherIsBetter},
	{Pattern: "*.community_overlap", Direction: kgeval.HigherIsBetter},
	{Pattern: "*.community_coverage", Direction: kgeval.HigherIsBetter},
	{Pattern: "*.support", Direction: kgeval.HigherIsBetter},
	{Pattern: "*.recall", Direction: kgeval.HigherIsBetter},
	{Pattern: "*.f1", Direction: kgeval.HigherIsBetter},
	{Pattern: "*.slot_coverage", Direction: kgeval.HigherIsBetter},
	{Pattern: "*.claim_contradiction", Direction: kgeval.LowerIsBetter, Note: "share of claims with a value their evidence states otherwise"},

	// The pairs (configs/kgeval.yaml).
	{Pattern: "faithfulness.*", Type: kgeval.TypeFaithfulness, Note: "answer against contexts"},
	{Pattern: "answer_relevancy.*", Type: kgeval.TypeRelevance, Note: "question against answer"},
	{Pattern: "factual_correctness.*", Type: kgeval.TypeReference, Note: "answer against reference"},
	{Pattern: "context_relevancy.*", Type: kgeval.TypeNoAnswer, Note: "question against contexts"},

	// Triplet similarity (SPEC §5).
	{Pattern: "ts_groundedness_*", Type: kgeval.TypeFaithfulness, Note: "answer triplets matched in the contexts"},
	{Pattern: "ts_answer_relevancy_*", Type: kgeval.TypeRelevance, Note: "question triplets matched in the answer"},
	{Pattern: "ts_context_relevancy_*", Type: kgeval.TypeNoAnswer, Note: "question triplets matched in the contexts"},
	{Pattern: "ts_completeness_*", Type: kgeval.TypeOther, Note: "context triplets matched in the answer: coverage, rewards longer answers"},

	// LLM-driven (SPEC §6).
	{Pattern: "llm_faithfulness", Type: kgeval.TypeFaithfulness, Note: "answer facts verified against the contexts"},
	{Pattern: "faithfulness_validation", Type: kgeval.TypeFaithfulness, Note: "answer facts matched to their cited passages"},
	{Pattern: "llm_response_relevancy", Type: kgeval.TypeNoAnswer, Note: "SPEC §6 generates the questions from the contexts, not from the answer"},
	{Pattern: "llm_factual_correctness", Type: kgeval.TypeReference, Note: "answer facts against reference facts"},
	{Pattern: "factual_correctness_validation", Type: kgeval.TypeReference, Note: "answer facts against reference facts"},

	// RAGAS-style (SPEC §7) and the encoder metrics.
	{Pattern: "ragas_faithfulness", Type: kgeval.TypeFaithfulness, Note: "answer claims verified against the contexts"},
	{Pattern: "ragas_answer_relevance", Type: kgeval.TypeRelevance, Note: "questions generated from the answer against the question"},
	{Pattern: "ragas_context_precision", Type: kgeval.TypeNoAnswer, Note: "passages judged against the reference (the answer only when there is none)"},
	{Pattern: "ragas_context_precision_at_k", Type: kgeval.TypeNoAnswer, Note: "passages judged against the reference (the answer only when there is none)"},
	{Pattern: "ragas_context_recall", Type: kgeval.TypeNoAnswer, Note: "reference statements found in the contexts"},
	{Pattern: "ragas_score", Type: kgeval.TypeOther, Note: "composite of faithfulness, context precision and recall, answer relevance"},
	{Pattern: "factual_accuracy", Type: kgeval.TypeReference, Note: "graded against the reference"},
	{Pattern: "answer_class", Type: kgeval.TypeReference, Note: "correct / wrong / don't know against the reference"},
	{Pattern: "semantic_similarity", Type: kgeval.TypeReference, Note: "answer embedding against reference embedding"},
	{Pattern: "bert_score_f1", Type: kgeval.TypeReference, Note: "answer tokens against reference tokens"},
	// Added since: the word-overlap baseline.
	{Pattern: "k_precision", Type: kgeval.TypeFaithfulness, Note: "answer words found in the contexts (baseline)"},
}

func oldValidityOf(name string) kgeval.Validity {
	var out kgeval.Validity
	for _, c := range oldValidityTable {
		if ok, _ := path.Match(c.Pattern, name); !ok {
			continue
		}
		if out.Type == "" && c.Type != "" {
			out.Pattern, out.Type, out.Note = c.Pattern, c.Type, c.Note
		}
		if out.Direction == 0 && c.Direction != 0 {
			out.Direction = c.Direction
		}
	}
	if out.Type == "" {
		out.Type = kgeval.TypeUnclassified
	}
	if out.Direction == 0 {
		out.Direction = kgeval.HigherIsBetter
	}
	return out
}

func TestValidityOf_SameAsTable(t *testing.T) {
	names := []string{"ts_groundedness", "ts_groundedness_foo", "multihop", "contradiction", "human.support", "human.usefulness",
		"grounding.contradiction_text", "faithfulness.reason", "faithfulness.a.contradiction", "unknown_metric", ""}
	for _, m := range kgeval.Registry() {
		names = append(names, m.Name)
		for _, pair := range []string{"context_relevancy", "faithfulness", "factual_correctness", "answer_relevancy", "other_pair"} {
			names = append(names, pair+"."+m.Name)
		}
	}
	for _, n := range names {
		if got, want := kgeval.ValidityOf(n), oldValidityOf(n); got != want {
			t.Errorf("ValidityOf(%q) = %+v, the table gave %+v", n, got, want)
		}
	}
}

// TestExpandMetrics_All pins the metric names kgeval computes.
func TestExpandMetrics_All(t *testing.T) {
	want := "answer_class atom_support bert_score_f1 claim_contradiction community_coverage community_overlap contradiction contradiction_text contradiction_verified f1 factual_accuracy factual_correctness_validation faithfulness_validation k_precision llm_factual_correctness llm_faithfulness llm_response_relevancy multihop p_supported ragas_answer_relevance ragas_context_precision ragas_context_precision_at_k ragas_context_recall ragas_faithfulness ragas_score recall score score_min semantic_similarity slot_coverage slot_coverage_text support support_text support_verified ts_answer_relevancy_avg ts_answer_relevancy_minimax ts_answer_relevancy_weighted ts_completeness_avg ts_completeness_minimax ts_completeness_weighted ts_context_relevancy_avg ts_context_relevancy_minimax ts_context_relevancy_weighted ts_groundedness_avg ts_groundedness_minimax ts_groundedness_weighted typed_slot_coverage"
	names, unknown := kgeval.ExpandMetrics([]string{"all"})
	if got := strings.Join(names, " "); got != want || len(unknown) > 0 {
		t.Errorf("ExpandMetrics(all) = %s (unknown %v)", got, unknown)
	}
	if got, _ := kgeval.ExpandMetrics([]string{" TS_Groundedness ", "kg", "bogus"}); len(got) != 22 {
		t.Errorf("ExpandMetrics(ts_groundedness, kg) = %v", got)
	}
	if _, unknown := kgeval.ExpandMetrics([]string{"bogus"}); len(unknown) != 1 {
		t.Errorf("unknown %v", unknown)
	}
	known := kgeval.KnownMetrics()
	if len(known) != len(names)+5+4 || !sort.StringsAreSorted(known) {
		t.Errorf("KnownMetrics() = %v", known)
	}
	for _, n := range names {
		lo, hi := kgeval.MetricRange(n)
		if m, _ := kgeval.LookupMetric(n); m.Meaning == "" || m.Family == "" || lo >= hi {
			t.Errorf("%s: %+v", n, m)
		}
	}
}
