// Package metricreg is kgeval's one metric registry: every metric's name,
// family, direction, fixed scale, one-line meaning and validity type, and
// each KG metric's place in a KGResult's JSON. The CLI (--metrics,
// validity, plots), the analyses, the dashboard, the export and
// docs/METRICS.md read it directly (metricreg.MetricMultihop,
// metricreg.LookupMetric, ...). It imports nothing of kgeval: adding a
// metric touches this registry and its one formula.
package metricreg

import (
	"sort"
	"strings"
)

// Direction says which way a metric improves.
type Direction int

// Directions. The zero value means "not set".
const (
	HigherIsBetter Direction = 1
	LowerIsBetter  Direction = -1
)

func (d Direction) String() string {
	if d == LowerIsBetter {
		return "lower is better"
	}
	return "higher is better"
}

// Validity types: what a metric can be expected to tell apart on a
// WikiEval-style dataset, where each question has a grounded answer, an
// ungrounded one (fluent, not supported by the passage) and a poor one (off
// the question). `kgeval validity` and docs/VALIDITY.md use them.
const (
	// TypeFaithfulness reads the answer against the contexts: it should
	// prefer the grounded answer over the ungrounded one.
	TypeFaithfulness = "faithfulness"
	// TypeRelevance reads the answer against the question: it should
	// prefer the grounded answer over the poor one.
	TypeRelevance = "relevance"
	// TypeReference compares the answer with the reference answer. On
	// WikiEval the reference is the grounded answer, so such a metric is
	// right by construction there and tells nothing.
	TypeReference = "reference-based"
	// TypeNoAnswer never reads the answer: the answers to one question tie.
	TypeNoAnswer = "does not read the answer"
	// TypeOther reads the answer but measures neither faithfulness nor
	// relevance alone (coverage of the contexts, a composite).
	TypeOther = "other"
	// TypeUnclassified is a metric the registry does not classify.
	TypeUnclassified = "unclassified"
)

// MetricInfo describes one metric.
type MetricInfo struct {
	Name      string
	Family    string
	Direction Direction
	// Lo and Hi are the metric's fixed scale: the range of its histograms
	// and plots.
	Lo, Hi float64
	// Meaning says what the metric measures, in one line.
	Meaning string
	// Type is the validity type (TypeFaithfulness...) and Note the short
	// reason `kgeval validity` prints. KG metrics have neither: a KG score
	// takes the type and note of its pair (PairValidity).
	Type, Note string
	// Graph marks the paper's three graph scores among the KG metrics.
	Graph bool
	// Encoder marks a metric that needs the sentence encoder only.
	Encoder bool
	// JSON is a KG metric's place (1-based) among the metric values of a
	// KGResult's JSON (KGJSONNames); 0 for the other families. The JSON
	// keeps the order of the fields KGResult had before the registry keyed
	// its values: the graph scores, the claim scores, then the
	// verdict scores in the order they were added.
	JSON int
}

// TSAggregates are the suffixes of the triplet-similarity metrics: the
// mean, the weighted mean and the minimum over the query triplets of their
// best cosine (SPEC §5).
var TSAggregates = []string{"avg", "weighted", "minimax"}

var tsMeaning = map[string]struct{ meaning, typ, note string }{
	MetricTSContextRelevancy: {"question triplets matched in the contexts", TypeNoAnswer, "question triplets matched in the contexts"},
	MetricTSGroundedness:     {"answer triplets matched in the contexts", TypeFaithfulness, "answer triplets matched in the contexts"},
	MetricTSCompleteness:     {"context triplets matched in the answer", TypeOther, "context triplets matched in the answer: coverage, rewards longer answers"},
	MetricTSAnswerRelevancy:  {"question triplets matched in the answer", TypeRelevance, "question triplets matched in the answer"},
}

var tsAggregateMeaning = map[string]string{
	"avg":      "mean over them of the best cosine",
	"weighted": "weighted mean over them of the best cosine",
	"minimax":  "least over them of the best cosine",
}

// registry lists every metric: the KG metrics in display order, then the
// triplet similarity, LLM-driven and RAGAS-style metrics.
var registry = func() []MetricInfo {
	kg := func(name string, json int, meaning string, dir Direction, graph bool) MetricInfo {
		return MetricInfo{Name: name, Family: FamilyKG, Direction: dir, Lo: 0, Hi: 1, Meaning: meaning, Graph: graph, JSON: json}
	}
	out := []MetricInfo{
		kg(MetricClaimScore, 4, "calibrated probability that the input's claims are supported, mean over its claims (headline)", HigherIsBetter, false),
		kg(MetricClaimScoreMin, 5, "least calibrated probability over the input's claims: low when any claim is unsupported", HigherIsBetter, false),
		kg(MetricPSupported, 6, "mean over the input's claims of the model's P(supported) on the claim's evidence (scoring.verify prob)", HigherIsBetter, false),
		kg(MetricClaimContradiction, 7, "mean over the input's claims: 1 when their evidence states a date, number, amount or name otherwise, else how much they put the context's words together in phrases it does not use (overlap × (1 − pairs))", LowerIsBetter, false),
		kg(MetricMultihop, 1, "share of input entities that reach a context entity by a path of cost <= delta", HigherIsBetter, true),
		kg(MetricCommunityOverlap, 2, "share of Louvain communities that hold entities of both sides", HigherIsBetter, true),
		kg(MetricCommunityCoverage, 3, "share of input entities whose community holds a context entity", HigherIsBetter, true),
		kg(MetricSupport, 8, "share of input triplets the context triplets support", HigherIsBetter, false),
		kg(MetricContradiction, 9, "share of input triplets the context triplets contradict", LowerIsBetter, false),
		kg(MetricRecall, 10, "share of reference triplets the answer supports (against the reference only)", HigherIsBetter, false),
		kg(MetricF1, 11, "F1 of support (precision) and recall (against the reference only)", HigherIsBetter, false),
		kg(MetricSlotCoverage, 12, "share of the question's asked facts the context side answers", HigherIsBetter, false),
		kg(MetricSupportText, 13, "support, with context sentences deciding what the graph left open", HigherIsBetter, false),
		kg(MetricContradictionText, 15, "contradiction, with context sentences deciding what the graph left open", LowerIsBetter, false),
		kg(MetricSlotCoverageText, 14, "slot_coverage, with context sentences answering what the graph left open", HigherIsBetter, false),
		kg(MetricAtomSupport, 16, "share of the input's names and values (numbers, dates, amounts) that the context side states", HigherIsBetter, false),
		kg(MetricTypedSlotCoverage, 17, "share of the question's when/where/who/how-many/how-long/measure clauses for which the context side states a new value of that type", HigherIsBetter, false),
		kg(MetricSupportVerified, 18, "support, with the model deciding what the graph left open (scoring.verify llm)", HigherIsBetter, false),
		kg(MetricContradictionVerified, 19, "contradiction, with the model deciding what the graph left open (scoring.verify llm)", LowerIsBetter, false),
	}
	for _, base := range []string{MetricTSContextRelevancy, MetricTSGroundedness, MetricTSCompleteness, MetricTSAnswerRelevancy} {
		m := tsMeaning[base]
		for _, a := range TSAggregates {
			out = append(out, MetricInfo{Name: base + "_" + a, Family: FamilyTS, Direction: HigherIsBetter, Lo: -1, Hi: 1,
				Meaning: m.meaning + ": " + tsAggregateMeaning[a], Type: m.typ, Note: m.note})
		}
	}
	other := func(name, family string, lo, hi float64, meaning, typ, note string) MetricInfo {
		return MetricInfo{Name: name, Family: family, Direction: HigherIsBetter, Lo: lo, Hi: hi, Meaning: meaning, Type: typ, Note: note}
	}
	out = append(out,
		other(MetricResponseRelevancy, FamilyLLM, -1, 1, "cosine of the question with questions generated from the contexts", TypeNoAnswer, "SPEC §6 generates the questions from the contexts, not from the answer"),
		other(MetricFaithfulness, FamilyLLM, 0, 1, "share of the answer's facts the contexts verify", TypeFaithfulness, "answer facts verified against the contexts"),
		other(MetricFactualCorrectness, FamilyLLM, 0, 1, "share of the reference's facts the answer states (TP / (TP + FN), model-labelled)", TypeReference, "answer facts against reference facts"),
		other(MetricFaithfulnessValidation, FamilyLLM, 0, 1, "mean over the answer's facts of their best cosine with a passage they cite", TypeFaithfulness, "answer facts matched to their cited passages"),
		other(MetricFactualCorrectnessValidation, FamilyLLM, 0, 1, "share of the reference's facts whose most similar answer fact is close by cosine", TypeReference, "answer facts against reference facts"),
		other(MetricRagasFaithfulness, FamilyRAGAS, 0, 100, "share of the answer's claims the contexts support", TypeFaithfulness, "answer claims verified against the contexts"),
		other(MetricContextPrecision, FamilyRAGAS, 0, 100, "share of the passages relevant to the reference", TypeNoAnswer, "passages judged against the reference (the answer only when there is none)"),
		other(MetricContextPrecisionAtK, FamilyRAGAS, 0, 100, "rank-aware precision of the relevant passages", TypeNoAnswer, "passages judged against the reference (the answer only when there is none)"),
		other(MetricContextRecall, FamilyRAGAS, 0, 100, "share of the reference's statements the contexts hold", TypeNoAnswer, "reference statements found in the contexts"),
		other(MetricAnswerRelevance, FamilyRAGAS, 0, 100, "similarity of the question with questions generated from the answer", TypeRelevance, "questions generated from the answer against the question"),
		other(MetricRagasScore, FamilyRAGAS, 0, 100, "weighted mean of ragas faithfulness, context precision and recall, and answer relevance", TypeOther, "composite of faithfulness, context precision and recall, answer relevance"),
		other(MetricFactualAccuracy, FamilyRAGAS, 0, 100, "GEval score against the reference (grade A-E)", TypeReference, "graded against the reference"),
		other(MetricSemanticSimilarity, FamilyRAGAS, 0, 100, "cosine of the answer's and the reference's sentence embeddings, ×100", TypeReference, "answer embedding against reference embedding"),
		other(MetricBERTScoreF1, FamilyRAGAS, 0, 100, "BERTScore F1 of the answer's tokens against the reference's, max(0, F1) ×100", TypeReference, "answer tokens against reference tokens"),
		other(MetricKPrecision, FamilyBaseline, 0, 1, "K-Precision: share of the answer's distinct content words (stop words out) that occur in the contexts; a word-overlap baseline, no model", TypeFaithfulness, "answer words found in the contexts (baseline)"),
		other(MetricAnswerClass, FamilyRAGAS, 0, 1, "1 when the answer is CORRECT against the reference, else 0 (WRONG, DONT_KNOW); an answer equal to its reference is CORRECT with no model call", TypeReference, "correct / wrong / don't know against the reference"),
	)
	for i := range out {
		out[i].Encoder = out[i].Name == MetricSemanticSimilarity || out[i].Name == MetricBERTScoreF1
	}
	return out
}()

var byName = func() map[string]int {
	m := make(map[string]int, len(registry))
	for i, mi := range registry {
		m[mi.Name] = i
	}
	return m
}()

// Registry returns every metric kgeval computes: the KG metrics in display
// order, then the triplet-similarity, LLM-driven and RAGAS-style metrics.
func Registry() []MetricInfo { return append([]MetricInfo(nil), registry...) }

// LookupMetric returns the registry entry of a metric name.
func LookupMetric(name string) (MetricInfo, bool) {
	i, ok := byName[name]
	if !ok {
		return MetricInfo{}, false
	}
	return registry[i], true
}

// MetricNames returns the names of a family's metrics in registry order.
func MetricNames(family string) []string {
	var out []string
	for _, m := range registry {
		if m.Family == family {
			out = append(out, m.Name)
		}
	}
	return out
}

// Metric names by family, in registry order.
var (
	// KGMetricNames are the per-pair KG metrics, in display order.
	KGMetricNames = MetricNames(FamilyKG)
	// KGJSONNames are the KG metrics in the order of a KGResult's JSON
	// (MetricInfo.JSON).
	KGJSONNames = func() []string {
		out := make([]string, len(KGMetricNames))
		for _, m := range KGMetricNames {
			out[registry[byName[m]].JSON-1] = m
		}
		return out
	}()
	// TSMetricBases are the base names of the triplet-similarity metrics.
	TSMetricBases = []string{MetricTSContextRelevancy, MetricTSGroundedness, MetricTSCompleteness, MetricTSAnswerRelevancy}
	// LLMMetricNames are the LLM-driven metrics (SPEC §6).
	LLMMetricNames = MetricNames(FamilyLLM)
	// RAGASMetricNames are the RAGAS-style metrics (SPEC §7).
	RAGASMetricNames = MetricNames(FamilyRAGAS)
	// EncoderMetricNames need the sentence encoder only, no LLM call.
	EncoderMetricNames = []string{MetricSemanticSimilarity, MetricBERTScoreF1}
)

// MetricFamily returns the family of a metric name ("" when unknown).
func MetricFamily(name string) string {
	if m, ok := LookupMetric(name); ok {
		return m.Family
	}
	return ""
}

// GraphMetric reports whether a KG metric is one of the paper's graph
// scores (multihop, community_overlap, community_coverage) rather than a
// verdict score.
func GraphMetric(metric string) bool {
	m, ok := LookupMetric(metric)
	return ok && m.Graph
}

// IsLowerBetter reports whether a smaller value of the KG metric is the
// better one (contradiction); every other KG metric is higher-is-better.
func IsLowerBetter(metric string) bool {
	m, ok := LookupMetric(metric)
	return ok && m.Family == FamilyKG && m.Direction == LowerIsBetter
}

// FamilyRank orders metric families for display: kg, ts, ragas, llm, then
// any other.
func FamilyRank(family string) int {
	for i, f := range []string{FamilyKG, FamilyTS, FamilyRAGAS, FamilyLLM} {
		if f == family {
			return i
		}
	}
	return 4
}

// MetricLess orders metrics for display: by family (FamilyRank), then
// name.
func MetricLess(famA, a, famB, b string) bool {
	if ra, rb := FamilyRank(famA), FamilyRank(famB); ra != rb {
		return ra < rb
	}
	if famA != famB {
		return famA < famB
	}
	return a < b
}

// ExpandMetrics turns --metrics values (metric names, ts base names, family
// names kg, ts, llm, ragas, baseline, or all) into the list of metric names, sorted.
// The second result lists the values it did not know.
func ExpandMetrics(values []string) (names, unknown []string) {
	set := map[string]bool{}
	add := func(ns ...string) {
		for _, n := range ns {
			set[n] = true
		}
	}
	for _, v := range values {
		switch v = strings.TrimSpace(strings.ToLower(v)); {
		case v == "all":
			for _, m := range registry {
				add(m.Name)
			}
		case v == FamilyKG || v == FamilyTS || v == FamilyLLM || v == FamilyRAGAS || v == FamilyBaseline:
			add(MetricNames(v)...)
		case isTSBase(v):
			add(tsNames(v)...)
		case MetricFamily(v) != "":
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

// KnownMetrics returns every accepted --metrics value, sorted.
func KnownMetrics() []string {
	out := []string{"all", FamilyKG, FamilyTS, FamilyLLM, FamilyRAGAS}
	out = append(out, TSMetricBases...)
	for _, m := range registry {
		out = append(out, m.Name)
	}
	sort.Strings(out)
	return out
}

func isTSBase(name string) bool {
	for _, b := range TSMetricBases {
		if name == b {
			return true
		}
	}
	return false
}

func tsNames(base string) []string {
	out := make([]string, 0, len(TSAggregates))
	for _, a := range TSAggregates {
		out = append(out, base+"_"+a)
	}
	return out
}

// MetricRange returns the fixed scale of a metric variable: a metric name,
// or "<pair>.<metric>" for a KG score. Unknown names get [0, 1].
func MetricRange(variable string) (lo, hi float64) {
	if m, ok := LookupMetric(variable); ok {
		return m.Lo, m.Hi
	}
	return 0, 1
}

// PairValidity gives the validity type and note of the KG scores of each
// pair of configs/kgeval.yaml; the KG scores of a pair of another name are
// unclassified until it gets an entry here.
var PairValidity = map[string]struct{ Type, Note string }{
	"faithfulness":        {TypeFaithfulness, "answer against contexts"},
	"answer_relevancy":    {TypeRelevance, "question against answer"},
	"factual_correctness": {TypeReference, "answer against reference"},
	"context_relevancy":   {TypeNoAnswer, "question against contexts"},
}

// Validity is a metric variable's validity class: the type and note the
// registry gives it, the pattern of names it shares them with, and its
// direction.
type Validity struct {
	Pattern   string    `json:"pattern"`
	Type      string    `json:"type,omitempty"`
	Direction Direction `json:"direction,omitempty"`
	Note      string    `json:"note,omitempty"`
}

// ValidityOf returns the validity class of a metric variable name: a KG
// score "<pair>.<metric>" takes its pair's type and note (PairValidity,
// pattern "<pair>.*") and its metric's direction; a triplet-similarity
// metric the type of its base name (pattern "<base>_*"); any other metric
// its own entry. A name the registry does not classify is
// TypeUnclassified; a direction it does not know is HigherIsBetter.
func ValidityOf(name string) Validity {
	var out Validity
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		if m, ok := LookupMetric(name[i+1:]); ok && m.Family == FamilyKG {
			out.Direction = m.Direction
		}
		pair, _, _ := strings.Cut(name, ".")
		if pv, ok := PairValidity[pair]; ok {
			out.Pattern, out.Type, out.Note = pair+".*", pv.Type, pv.Note
		}
	} else if m, ok := LookupMetric(name); ok && m.Family != FamilyKG {
		out.Pattern, out.Type, out.Note, out.Direction = name, m.Type, m.Note, m.Direction
		if m.Family == FamilyTS {
			out.Pattern = strings.TrimSuffix(name, name[strings.LastIndexByte(name, '_'):]) + "_*"
		}
	} else {
		for _, b := range TSMetricBases {
			if strings.HasPrefix(name, b+"_") {
				t := tsMeaning[b]
				out.Pattern, out.Type, out.Note, out.Direction = b+"_*", t.typ, t.note, HigherIsBetter
			}
		}
	}
	if out.Type == "" {
		out.Type = TypeUnclassified
	}
	if out.Direction == 0 {
		out.Direction = HigherIsBetter
	}
	return out
}
