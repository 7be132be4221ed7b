package metrics

import "path"

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
	// TypeUnclassified is a metric no entry of ValidityTable matches.
	TypeUnclassified = "unclassified"
)

// Direction says which way a metric improves.
type Direction int

// Directions. The zero value means "not set by this entry".
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

// ValidityClass is one entry of ValidityTable: a metric name, or a pattern
// (path.Match: "faithfulness.*" is every score of the faithfulness pair),
// with the type and direction it gives. An entry may set only one of the
// two: the pair sub-metric entries (*.contradiction) set the direction and
// leave the type to the pair's entry.
type ValidityClass struct {
	Pattern   string    `json:"pattern"`
	Type      string    `json:"type,omitempty"`
	Direction Direction `json:"direction,omitempty"`
	Note      string    `json:"note,omitempty"`
}

// ValidityTable classifies every metric kgeval computes, for `kgeval
// validity`. ValidityOf takes the type from the first entry that matches and
// has one, and the direction likewise (higher is better when none sets it),
// so the sub-metric rows come first. KG scores are named "<pair>.<metric>"
// after the pairs of configs/kgeval.yaml; a pair of another name is
// unclassified until it gets an entry here.
var ValidityTable = []ValidityClass{
	// Sub-metrics of a pair: direction only.
	{Pattern: "*.contradiction", Direction: LowerIsBetter, Note: "share of input facts the context contradicts"},
	{Pattern: "*.contradiction_text", Direction: LowerIsBetter, Note: "share of input facts the context triplets or sentences contradict"},
	{Pattern: "*.contradiction_verified", Direction: LowerIsBetter, Note: "share of input facts contradicted, the model deciding what the graph left open"},
	{Pattern: "*.support_text", Direction: HigherIsBetter},
	{Pattern: "*.slot_coverage_text", Direction: HigherIsBetter},
	{Pattern: "*.support_verified", Direction: HigherIsBetter},
	{Pattern: "*.multihop", Direction: HigherIsBetter},
	{Pattern: "*.community_overlap", Direction: HigherIsBetter},
	{Pattern: "*.community_coverage", Direction: HigherIsBetter},
	{Pattern: "*.support", Direction: HigherIsBetter},
	{Pattern: "*.recall", Direction: HigherIsBetter},
	{Pattern: "*.f1", Direction: HigherIsBetter},
	{Pattern: "*.slot_coverage", Direction: HigherIsBetter},

	// The pairs (configs/kgeval.yaml).
	{Pattern: "faithfulness.*", Type: TypeFaithfulness, Note: "answer against contexts"},
	{Pattern: "answer_relevancy.*", Type: TypeRelevance, Note: "question against answer"},
	{Pattern: "factual_correctness.*", Type: TypeReference, Note: "answer against reference"},
	{Pattern: "context_relevancy.*", Type: TypeNoAnswer, Note: "question against contexts"},

	// Triplet similarity (SPEC §5).
	{Pattern: "ts_groundedness_*", Type: TypeFaithfulness, Note: "answer triplets matched in the contexts"},
	{Pattern: "ts_answer_relevancy_*", Type: TypeRelevance, Note: "question triplets matched in the answer"},
	{Pattern: "ts_context_relevancy_*", Type: TypeNoAnswer, Note: "question triplets matched in the contexts"},
	{Pattern: "ts_completeness_*", Type: TypeOther, Note: "context triplets matched in the answer: coverage, rewards longer answers"},

	// LLM-driven (SPEC §6).
	{Pattern: "llm_faithfulness", Type: TypeFaithfulness, Note: "answer facts verified against the contexts"},
	{Pattern: "faithfulness_validation", Type: TypeFaithfulness, Note: "answer facts matched to their cited passages"},
	{Pattern: "llm_response_relevancy", Type: TypeNoAnswer, Note: "SPEC §6 generates the questions from the contexts, not from the answer"},
	{Pattern: "llm_factual_correctness", Type: TypeReference, Note: "answer facts against reference facts"},
	{Pattern: "factual_correctness_validation", Type: TypeReference, Note: "answer facts against reference facts"},

	// RAGAS-style (SPEC §7) and the encoder metrics.
	{Pattern: "ragas_faithfulness", Type: TypeFaithfulness, Note: "answer claims verified against the contexts"},
	{Pattern: "ragas_answer_relevance", Type: TypeRelevance, Note: "questions generated from the answer against the question"},
	{Pattern: "ragas_context_precision", Type: TypeNoAnswer, Note: "passages judged against the reference (the answer only when there is none)"},
	{Pattern: "ragas_context_precision_at_k", Type: TypeNoAnswer, Note: "passages judged against the reference (the answer only when there is none)"},
	{Pattern: "ragas_context_recall", Type: TypeNoAnswer, Note: "reference statements found in the contexts"},
	{Pattern: "ragas_score", Type: TypeOther, Note: "composite of faithfulness, context precision and recall, answer relevance"},
	{Pattern: "factual_accuracy", Type: TypeReference, Note: "graded against the reference"},
	{Pattern: "answer_class", Type: TypeReference, Note: "correct / wrong / don't know against the reference"},
	{Pattern: "semantic_similarity", Type: TypeReference, Note: "answer embedding against reference embedding"},
	{Pattern: "bert_score_f1", Type: TypeReference, Note: "answer tokens against reference tokens"},
}

// ValidityOf returns the validity class of a metric variable name
// ("faithfulness.multihop", "ts_groundedness_avg") from ValidityTable:
// Pattern, Type and Note of the first entry with a type that matches
// (TypeUnclassified when none), and the Direction of the first entry with
// one (HigherIsBetter when none).
func ValidityOf(name string) ValidityClass {
	var out ValidityClass
	for _, c := range ValidityTable {
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
		out.Type = TypeUnclassified
	}
	if out.Direction == 0 {
		out.Direction = HigherIsBetter
	}
	return out
}
