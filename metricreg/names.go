package metricreg

// Metric families, as --metrics accepts them besides single metric names.
const (
	FamilyKG    = "kg"    // KG scores and triplet verdicts per pair (SPEC §4, §4b, §4c)
	FamilyTS    = "ts"    // triplet-embedding similarity (SPEC §5)
	FamilyLLM   = "llm"   // LLM-driven metrics and their validations (SPEC §6)
	FamilyRAGAS = "ragas" // RAGAS-style metrics (SPEC §7), 0-100
	// FamilyBaseline are word-overlap baselines with no model: the bar a
	// metric has to clear on a dataset.
	FamilyBaseline = "baseline"
)

// Metric names of the KG family, computed per pair.
const (
	MetricMultihop          = "multihop"
	MetricCommunityOverlap  = "community_overlap"
	MetricCommunityCoverage = "community_coverage"
	// Triplet-level verdicts (SPEC §4b): shares of the input triplets that
	// the context side supports or contradicts; against the reference also
	// recall (reference triplets the answer supports) and F1, with support
	// as precision.
	MetricSupport       = "support"
	MetricContradiction = "contradiction"
	MetricRecall        = "recall"
	MetricF1            = "f1"
	// MetricSlotCoverage is the share of a question's asked facts that the
	// context side answers (SPEC §4c).
	MetricSlotCoverage = "slot_coverage"
	// Support and contradiction after the model checked what the graph left
	// open (scoring.verify: llm): graph verdicts where the graph decided,
	// model verdicts for the rest. Null when verify is off.
	MetricSupportVerified       = "support_verified"
	MetricContradictionVerified = "contradiction_verified"
	// Support and contradiction with sentence evidence: the graph's verdict
	// where it decided; for a triplet the graph did not find, a context
	// sentence that states both its ends supports it, and one that states
	// one end with another value of the other's literal contradicts it.
	MetricSupportText       = "support_text"
	MetricContradictionText = "contradiction_text"
	// MetricSlotCoverageText is slot_coverage with sentence evidence: an
	// asked fact the graph left unanswered is answered by a context
	// sentence that states its known end and its relation's words.
	MetricSlotCoverageText = "slot_coverage_text"
	// MetricAtomSupport is the share of the input text's atoms (its names
	// and literal values, read by rule, not extracted by the model) that the
	// context side states: literals by value, names by the occurrence rule
	// of SPEC §2b. Not a graph metric: see docs/SPEC-NOTES.md.
	MetricAtomSupport = "atom_support"
	// MetricTypedSlotCoverage is the share of the question's typed asked
	// facts (a clause asking when, where, who, how many, how long or for a
	// measure; read by rule) for which the context side states a value of
	// that type that the question does not. Not a graph metric: see
	// docs/SPEC-NOTES.md.
	MetricTypedSlotCoverage = "typed_slot_coverage"
	// Claim verdicts (SPEC §4d; ClaimCheck): MetricClaimScore is the headline,
	// the mean over the input's claims of each claim's calibrated
	// probability of being supported; MetricClaimScoreMin the least of them (low
	// when any claim fails); MetricPSupported the mean of the model's
	// P(supported) alone (scoring.verify prob); MetricClaimContradiction the
	// mean over claims of 1 for a value or name that their evidence states
	// otherwise, else how much they recombine the context's words
	// (claims.Recombined; no model needed).
	MetricClaimScore         = "score"
	MetricClaimScoreMin      = "score_min"
	MetricPSupported         = "p_supported"
	MetricClaimContradiction = "claim_contradiction"
)

// Base names of the triplet-similarity metrics (SPEC §5); each metric is a
// base name with an aggregate suffix (TSAggregates): ts_groundedness_avg.
const (
	MetricTSContextRelevancy = "ts_context_relevancy"
	MetricTSGroundedness     = "ts_groundedness"
	MetricTSCompleteness     = "ts_completeness"
	MetricTSAnswerRelevancy  = "ts_answer_relevancy"
)

// Names of the LLM-driven metrics (SPEC §6).
const (
	MetricResponseRelevancy            = "llm_response_relevancy"
	MetricFaithfulness                 = "llm_faithfulness"
	MetricFactualCorrectness           = "llm_factual_correctness"
	MetricFaithfulnessValidation       = "faithfulness_validation"
	MetricFactualCorrectnessValidation = "factual_correctness_validation"
)

// Names of the RAGAS-style metrics (SPEC §7).
const (
	MetricRagasFaithfulness   = "ragas_faithfulness"
	MetricContextPrecision    = "ragas_context_precision"
	MetricContextPrecisionAtK = "ragas_context_precision_at_k"
	MetricContextRecall       = "ragas_context_recall"
	MetricAnswerRelevance     = "ragas_answer_relevance"
	MetricRagasScore          = "ragas_score"
	MetricFactualAccuracy     = "factual_accuracy"
	MetricSemanticSimilarity  = "semantic_similarity"
	MetricBERTScoreF1         = "bert_score_f1"
	MetricAnswerClass         = "answer_class"
	// MetricKPrecision is K-Precision (Adlakha et al. 2023, "Evaluating
	// Correctness and Faithfulness of Instruction-Following Models for
	// Question Answering"): the share of the answer's content words that
	// occur in the contexts. A word-overlap baseline with no model.
	MetricKPrecision = "k_precision"
)
