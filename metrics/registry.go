package metrics

import (
	"sort"
	"strings"

	"github.com/kgeval/kgeval"
)

// Metric names of the triplet-similarity family (SPEC §5): each base name
// comes with the three aggregates as suffixes _avg, _weighted, _minimax.
var (
	TSMetrics  = []string{"ts_context_relevancy", "ts_groundedness", "ts_completeness", "ts_answer_relevancy"}
	Aggregates = []string{"avg", "weighted", "minimax"}
)

// Names of the LLM-driven (SPEC §6) and RAGAS-style (SPEC §7) metrics.
var (
	LLMMetrics = []string{"llm_response_relevancy", "llm_faithfulness", "llm_factual_correctness",
		"faithfulness_validation", "factual_correctness_validation"}
	RAGASMetrics = []string{"ragas_faithfulness", MetricContextPrecision, MetricContextPrecisionAtK, "ragas_context_recall",
		"ragas_answer_relevance", MetricRagasScore, MetricFactualAccuracy, MetricSemanticSimilarity, MetricBERTScoreF1, "answer_class"}
	// EncoderMetrics need the sentence encoder only, no LLM call.
	EncoderMetrics = []string{MetricSemanticSimilarity, MetricBERTScoreF1}
)

// KGMetrics are the graph scores, computed per pair.
var KGMetrics = kgeval.KGMetricNames

// Family returns the family of a metric name ("" when unknown).
func Family(name string) string {
	switch {
	case contains(KGMetrics, name):
		return kgeval.FamilyKG
	case strings.HasPrefix(name, "ts_"):
		for _, b := range TSMetrics {
			for _, a := range Aggregates {
				if name == b+"_"+a {
					return kgeval.FamilyTS
				}
			}
		}
	case contains(LLMMetrics, name):
		return kgeval.FamilyLLM
	case contains(RAGASMetrics, name):
		return kgeval.FamilyRAGAS
	}
	return ""
}

// Expand turns --metrics values (metric names, ts base names, family names
// kg, ts, llm, ragas, or all) into the list of metric names, sorted. The
// second result lists the values it did not know.
func Expand(values []string) (names, unknown []string) {
	set := map[string]bool{}
	add := func(ns ...string) {
		for _, n := range ns {
			set[n] = true
		}
	}
	for _, v := range values {
		switch v = strings.TrimSpace(strings.ToLower(v)); {
		case v == "all":
			add(KGMetrics...)
			add(tsNames(TSMetrics)...)
			add(LLMMetrics...)
			add(RAGASMetrics...)
		case v == kgeval.FamilyKG:
			add(KGMetrics...)
		case v == kgeval.FamilyTS:
			add(tsNames(TSMetrics)...)
		case v == kgeval.FamilyLLM:
			add(LLMMetrics...)
		case v == kgeval.FamilyRAGAS:
			add(RAGASMetrics...)
		case contains(TSMetrics, v):
			add(tsNames([]string{v})...)
		case Family(v) != "":
			add(v)
		default:
			unknown = append(unknown, v)
		}
	}
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, unknown
}

// Known returns every accepted --metrics value, sorted.
func Known() []string {
	out := []string{"all", kgeval.FamilyKG, kgeval.FamilyTS, kgeval.FamilyLLM, kgeval.FamilyRAGAS}
	out = append(out, KGMetrics...)
	out = append(out, TSMetrics...)
	out = append(out, tsNames(TSMetrics)...)
	out = append(out, LLMMetrics...)
	out = append(out, RAGASMetrics...)
	sort.Strings(out)
	return out
}

func tsNames(bases []string) []string {
	var out []string
	for _, b := range bases {
		for _, a := range Aggregates {
			out = append(out, b+"_"+a)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
