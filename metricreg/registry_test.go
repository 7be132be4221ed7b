package metricreg_test

import (
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/kgeval/kgeval/metricreg"
)

func TestValidityOf(t *testing.T) {
	cases := []struct {
		name string
		typ  string
		dir  metricreg.Direction
	}{
		{"faithfulness.multihop", metricreg.TypeFaithfulness, metricreg.HigherIsBetter},
		{"faithfulness.community_coverage", metricreg.TypeFaithfulness, metricreg.HigherIsBetter},
		{"faithfulness.contradiction", metricreg.TypeFaithfulness, metricreg.LowerIsBetter},
		{"faithfulness.support", metricreg.TypeFaithfulness, metricreg.HigherIsBetter},
		{"answer_relevancy.slot_coverage", metricreg.TypeRelevance, metricreg.HigherIsBetter},
		{"answer_relevancy.contradiction", metricreg.TypeRelevance, metricreg.LowerIsBetter},
		{"factual_correctness.f1", metricreg.TypeReference, metricreg.HigherIsBetter},
		{"factual_correctness.recall", metricreg.TypeReference, metricreg.HigherIsBetter},
		{"context_relevancy.multihop", metricreg.TypeNoAnswer, metricreg.HigherIsBetter},
		{"ts_groundedness_minimax", metricreg.TypeFaithfulness, metricreg.HigherIsBetter},
		{"ts_answer_relevancy_avg", metricreg.TypeRelevance, metricreg.HigherIsBetter},
		{"ts_context_relevancy_weighted", metricreg.TypeNoAnswer, metricreg.HigherIsBetter},
		{"ts_completeness_avg", metricreg.TypeOther, metricreg.HigherIsBetter},
		{"llm_faithfulness", metricreg.TypeFaithfulness, metricreg.HigherIsBetter},
		{"faithfulness_validation", metricreg.TypeFaithfulness, metricreg.HigherIsBetter},
		{"ragas_faithfulness", metricreg.TypeFaithfulness, metricreg.HigherIsBetter},
		{"ragas_answer_relevance", metricreg.TypeRelevance, metricreg.HigherIsBetter},
		{"llm_response_relevancy", metricreg.TypeNoAnswer, metricreg.HigherIsBetter},
		{"semantic_similarity", metricreg.TypeReference, metricreg.HigherIsBetter},
		{"ragas_score", metricreg.TypeOther, metricreg.HigherIsBetter},
		{"grounding.multihop", metricreg.TypeUnclassified, metricreg.HigherIsBetter},
		{"grounding.contradiction", metricreg.TypeUnclassified, metricreg.LowerIsBetter},
		{"ts_groundedness", metricreg.TypeUnclassified, metricreg.HigherIsBetter}, // a base name, not a variable
	}
	for _, c := range cases {
		got := metricreg.ValidityOf(c.name)
		if got.Type != c.typ || got.Direction != c.dir {
			t.Errorf("ValidityOf(%s) = %s, %s; want %s, %s", c.name, got.Type, got.Direction, c.typ, c.dir)
		}
	}
}

// TestValidityOf_Complete fails when a metric kgeval computes has no
// validity type: a new metric needs a Type in the registry.
func TestValidityOf_Complete(t *testing.T) {
	names, _ := metricreg.ExpandMetrics([]string{"all"})
	var vars []string
	for _, n := range names {
		if metricreg.MetricFamily(n) == "kg" {
			for _, pair := range []string{"context_relevancy", "faithfulness", "factual_correctness", "answer_relevancy"} {
				vars = append(vars, pair+"."+n)
			}
			continue
		}
		vars = append(vars, n)
	}
	for _, n := range vars {
		if c := metricreg.ValidityOf(n); c.Type == metricreg.TypeUnclassified {
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
	Direction metricreg.Direction
	Note      string
}

var oldValidityTable = []oldClass{
	// Sub-metrics of a pair: direction only.
	{Pattern: "*.contradiction", Direction: metricreg.LowerIsBetter, Note: "share of input facts the context contradicts"},
	{Pattern: "*.contradiction_text", Direction: metricreg.LowerIsBetter, Note: "share of input facts the context triplets or sentences contradict"},
	{Pattern: "*.contradiction_verified", Direction: metricreg.LowerIsBetter, Note: "share of input facts contradicted, the model deciding what the graph left open"},
	{Pattern: "*.support_text", Direction: metricreg.HigherIsBetter},
	{Pattern: "*.slot_coverage_text", Direction: metricreg.HigherIsBetter},
	{Pattern: "*.support_verified", Direction: metricreg.HigherIsBetter},
	{Pattern: "*.multihop", Direction: metricreg.HigherIsBetter},
	{Pattern: "*.community_overlap", Direction: metricreg.HigherIsBetter},
	{Pattern: "*.community_coverage", Direction: metricreg.HigherIsBetter},
	{Pattern: "*.support", Direction: metricreg.HigherIsBetter},
	{Pattern: "*.recall", Direction: metricreg.HigherIsBetter},
	{Pattern: "*.f1", Direction: metricreg.HigherIsBetter},
	{Pattern: "*.slot_coverage", Direction: metricreg.HigherIsBetter},
	{Pattern: "*.claim_contradiction", Direction: metricreg.LowerIsBetter, Note: "share of claims with a value their evidence states otherwise"},

	// The pairs (configs/kgeval.yaml).
	{Pattern: "faithfulness.*", Type: metricreg.TypeFaithfulness, Note: "answer against contexts"},
	{Pattern: "answer_relevancy.*", Type: metricreg.TypeRelevance, Note: "question against answer"},
	{Pattern: "factual_correctness.*", Type: metricreg.TypeReference, Note: "answer against reference"},
	{Pattern: "context_relevancy.*", Type: metricreg.TypeNoAnswer, Note: "question against contexts"},

	// Triplet similarity (SPEC §5).
	{Pattern: "ts_groundedness_*", Type: metricreg.TypeFaithfulness, Note: "answer triplets matched in the contexts"},
	{Pattern: "ts_answer_relevancy_*", Type: metricreg.TypeRelevance, Note: "question triplets matched in the answer"},
	{Pattern: "ts_context_relevancy_*", Type: metricreg.TypeNoAnswer, Note: "question triplets matched in the contexts"},
	{Pattern: "ts_completeness_*", Type: metricreg.TypeOther, Note: "context triplets matched in the answer: coverage, rewards longer answers"},

	// LLM-driven (SPEC §6).
	{Pattern: "llm_faithfulness", Type: metricreg.TypeFaithfulness, Note: "answer facts verified against the contexts"},
	{Pattern: "faithfulness_validation", Type: metricreg.TypeFaithfulness, Note: "answer facts matched to their cited passages"},
	{Pattern: "llm_response_relevancy", Type: metricreg.TypeNoAnswer, Note: "SPEC §6 generates the questions from the contexts, not from the answer"},
	{Pattern: "llm_factual_correctness", Type: metricreg.TypeReference, Note: "answer facts against reference facts"},
	{Pattern: "factual_correctness_validation", Type: metricreg.TypeReference, Note: "answer facts against reference facts"},

	// RAGAS-style (SPEC §7) and the encoder metrics.
	{Pattern: "ragas_faithfulness", Type: metricreg.TypeFaithfulness, Note: "answer claims verified against the contexts"},
	{Pattern: "ragas_answer_relevance", Type: metricreg.TypeRelevance, Note: "questions generated from the answer against the question"},
	{Pattern: "ragas_context_precision", Type: metricreg.TypeNoAnswer, Note: "passages judged against the reference (the answer only when there is none)"},
	{Pattern: "ragas_context_precision_at_k", Type: metricreg.TypeNoAnswer, Note: "passages judged against the reference (the answer only when there is none)"},
	{Pattern: "ragas_context_recall", Type: metricreg.TypeNoAnswer, Note: "reference statements found in the contexts"},
	{Pattern: "ragas_score", Type: metricreg.TypeOther, Note: "composite of faithfulness, context precision and recall, answer relevance"},
	{Pattern: "factual_accuracy", Type: metricreg.TypeReference, Note: "graded against the reference"},
	{Pattern: "answer_class", Type: metricreg.TypeReference, Note: "correct / wrong / don't know against the reference"},
	{Pattern: "semantic_similarity", Type: metricreg.TypeReference, Note: "answer embedding against reference embedding"},
	{Pattern: "bert_score_f1", Type: metricreg.TypeReference, Note: "answer tokens against reference tokens"},
	// Added since: the word-overlap baseline.
	{Pattern: "k_precision", Type: metricreg.TypeFaithfulness, Note: "answer words found in the contexts (baseline)"},
}

func oldValidityOf(name string) metricreg.Validity {
	var out metricreg.Validity
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
		out.Type = metricreg.TypeUnclassified
	}
	if out.Direction == 0 {
		out.Direction = metricreg.HigherIsBetter
	}
	return out
}

func TestValidityOf_SameAsTable(t *testing.T) {
	names := []string{"ts_groundedness", "ts_groundedness_foo", "multihop", "contradiction", "human.support", "human.usefulness",
		"grounding.contradiction_text", "faithfulness.reason", "faithfulness.a.contradiction", "unknown_metric", ""}
	for _, m := range metricreg.Registry() {
		names = append(names, m.Name)
		for _, pair := range []string{"context_relevancy", "faithfulness", "factual_correctness", "answer_relevancy", "other_pair"} {
			names = append(names, pair+"."+m.Name)
		}
	}
	for _, n := range names {
		if got, want := metricreg.ValidityOf(n), oldValidityOf(n); got != want {
			t.Errorf("ValidityOf(%q) = %+v, the table gave %+v", n, got, want)
		}
	}
}

// TestExpandMetrics_All pins the metric names kgeval computes.
func TestExpandMetrics_All(t *testing.T) {
	want := "answer_class atom_support bert_score_f1 claim_contradiction community_coverage community_overlap contradiction contradiction_text contradiction_verified f1 factual_accuracy factual_correctness_validation faithfulness_validation k_precision llm_factual_correctness llm_faithfulness llm_response_relevancy multihop p_supported ragas_answer_relevance ragas_context_precision ragas_context_precision_at_k ragas_context_recall ragas_faithfulness ragas_score recall score score_min semantic_similarity slot_coverage slot_coverage_text support support_text support_verified ts_answer_relevancy_avg ts_answer_relevancy_minimax ts_answer_relevancy_weighted ts_completeness_avg ts_completeness_minimax ts_completeness_weighted ts_context_relevancy_avg ts_context_relevancy_minimax ts_context_relevancy_weighted ts_groundedness_avg ts_groundedness_minimax ts_groundedness_weighted typed_slot_coverage"
	names, unknown := metricreg.ExpandMetrics([]string{"all"})
	if got := strings.Join(names, " "); got != want || len(unknown) > 0 {
		t.Errorf("ExpandMetrics(all) = %s (unknown %v)", got, unknown)
	}
	if got, _ := metricreg.ExpandMetrics([]string{" TS_Groundedness ", "kg", "bogus"}); len(got) != 22 {
		t.Errorf("ExpandMetrics(ts_groundedness, kg) = %v", got)
	}
	if _, unknown := metricreg.ExpandMetrics([]string{"bogus"}); len(unknown) != 1 {
		t.Errorf("unknown %v", unknown)
	}
	known := metricreg.KnownMetrics()
	if len(known) != len(names)+5+4 || !sort.StringsAreSorted(known) {
		t.Errorf("KnownMetrics() = %v", known)
	}
	for _, n := range names {
		lo, hi := metricreg.MetricRange(n)
		if m, _ := metricreg.LookupMetric(n); m.Meaning == "" || m.Family == "" || lo >= hi {
			t.Errorf("%s: %+v", n, m)
		}
	}
}
