package kgeval

import (
	"context"
	"slices"
)

// Claim verdicts (SPEC §4d): an answer or reference is split into claims,
// each claim gets its evidence window chosen by the pair graph, the model's
// probability that the evidence supports it (scoring.verify: prob), the
// graph's own signals, and one calibrated probability.

// ClaimQuery is one claim and the evidence it is checked against: the
// evidence texts are shown to the model in order, before the claim.
type ClaimQuery struct {
	Evidence []string
	Claim    string
	// Question and Preceding, when set, are the question the claim's text
	// answers and that text before the claim: the checker's context form
	// (scoring.verify_forms: context) reads the claim with them.
	Question  string `json:",omitempty"`
	Preceding string `json:",omitempty"`
}

// ClaimProb is the model's answer about one ClaimQuery.
type ClaimProb struct {
	// P is P(supported) = p(Yes) / (p(Yes) + p(No)) over the answer
	// token's top log-probabilities; with Fallback, the answer token itself
	// (1 for Yes, 0 otherwise).
	P float64 `json:"p"`
	// Fallback is true when P of some chunk was read from the answer
	// token itself: the endpoint returned no log-probabilities, or neither
	// Yes nor No was among the top tokens.
	Fallback bool `json:"fallback,omitempty"`
	// Chunks is how many requests the evidence took (it is cut into chunks
	// that fit the endpoint's context); Best is the chunk with the highest P.
	Chunks int `json:"chunks"`
	Best   int `json:"best,omitempty"`
	// ChunkP is each chunk's P(supported) (the mean over the forms), in
	// chunk order, when the evidence took more than one; P reads them by
	// scoring.evidence_aggregate.
	ChunkP []float64 `json:"chunk_p,omitempty"`
	// Atoms are the atomic facts the claim was split into
	// (scoring.atomic_words), AtomP each one's P(supported); P is their
	// minimum. Empty when the claim was asked as it is.
	Atoms []string  `json:"atoms,omitempty"`
	AtomP []float64 `json:"atom_p,omitempty"`
	// Tokens is the prompt tokens the endpoint counted over all chunks (0
	// for an answer read from the cache).
	Tokens int `json:"tokens,omitempty"`
	// CachedTokens is the prompt tokens the answers read from the cache
	// cost when they were asked: what a cold run pays for them.
	CachedTokens int `json:"cached_tokens,omitempty"`
	// FormTokens is each question form's prompt tokens, asked now or read
	// from the cache (what the form costs cold).
	FormTokens map[string]int `json:"form_tokens,omitempty"`
	// Cached is true when every chunk's answer came from the cache.
	Cached bool `json:"cached,omitempty"`
	// Forms is each question form's P(supported) (scoring.verify_forms); P
	// is their mean.
	Forms map[string]float64 `json:"forms,omitempty"`
	// Contradicted is the three-way form's p(No) over its three answers:
	// the model's probability that the evidence says something different.
	Contradicted *float64 `json:"p_contradicted,omitempty"`
	// NotStated is the three-way form's p(Unknown) over its three answers.
	NotStated *float64 `json:"p_not_stated,omitempty"`
}

// ClaimVerifier asks a model, one request per claim (per evidence chunk),
// for its probability that the evidence supports the claim.
type ClaimVerifier interface {
	// CheckClaims answers each query; a query the model could not answer
	// has its error in errs (its ClaimProb zero). progress, if not nil, is
	// called after each query. Errors: EUNAVAILABLE when the cache cannot
	// be reached; the context's error when it ends.
	CheckClaims(ctx context.Context, qs []ClaimQuery, progress func(done, total int)) (ps []ClaimProb, errs []error, err error)
}

// Claim verdicts.
const (
	ClaimSupported    = "supported"
	ClaimUnsupported  = "unsupported"
	ClaimContradicted = "contradicted"
)

// ClaimCheck is one claim of an input text (an answer or a reference) and
// how it was checked against the context side of a pair (SPEC §4d).
type ClaimCheck struct {
	// Text is the claim as the checker reads it (citation markers such as
	// "[1]" removed); Start and End its byte span in the input text.
	Text  string `json:"text"`
	Start int    `json:"start"`
	End   int    `json:"end"`
	// Triplets are the input relation nodes of the pair graph whose
	// triplets the claim states.
	Triplets []int `json:"triplets,omitempty"`
	// Evidence is the evidence window, best first: context sentences and
	// why the graph chose each.
	Evidence []ClaimEvidence `json:"evidence,omitempty"`
	// EvidenceMode is how the window was chosen: "whole" (the context fits
	// the budget), "graph" or "cosine".
	EvidenceMode string `json:"evidence_mode,omitempty"`
	// Model is the model's answer (scoring.verify: prob); nil when not
	// asked (verify off, or the call failed: ModelError says why).
	Model      *ClaimProb `json:"model,omitempty"`
	ModelError string     `json:"model_error,omitempty"`
	// Features are the signals the calibrated score combines, by name
	// (CalibrationFeatures).
	Features map[string]float64 `json:"features"`
	// Conflicts are the literal or name conflicts with the evidence.
	Conflicts []ClaimConflict `json:"conflicts,omitempty"`
	// Score is the calibrated probability that the claim is supported;
	// Verdict compares it with the calibrated pass mark (contradicted when
	// a conflict was found and the score fails).
	Score   float64 `json:"score"`
	Verdict string  `json:"verdict"`
}

// ClaimEvidence is one context sentence of a claim's evidence window.
type ClaimEvidence struct {
	Passage int    `json:"passage"`
	Start   int    `json:"start"`
	End     int    `json:"end"`
	Text    string `json:"text"`
	// Weight is the sentence's rank score; Why names what reached it
	// ("entity Eiffel Tower ~ eiffel tower 1.00", "path", "literal 1889",
	// "verdict", "words").
	Weight float64  `json:"weight"`
	Why    []string `json:"why,omitempty"`
}

// ClaimConflict is a value of the claim that its evidence states otherwise
// in the same slot: a date, number, amount (with its currency or unit) or
// name.
type ClaimConflict struct {
	Kind     string `json:"kind"`
	Claim    string `json:"claim"`
	Evidence string `json:"evidence"`
	// Sentence is the evidence sentence that states the other value.
	Sentence string `json:"sentence"`
}

// The signals of a claim that the calibrated score combines
// (ClaimCheck.Features).
const (
	// FeatureModel is the logit of the model's P(supported) (absent when
	// the model was not asked).
	FeatureModel = "model_logit"
	// FeatureOverlap is the share of the claim's content words that the
	// context side holds (k_precision of the claim).
	FeatureOverlap = "overlap"
	// FeatureAtoms is the share of the claim's names and values that the
	// context side states (1 when it has none).
	FeatureAtoms = "atoms"
	// FeatureSupport is the share of the claim's triplets the graph (or a
	// context sentence) supports; FeatureReach the share of its entities
	// within multihop's delta of the context side.
	FeatureSupport = "support"
	FeatureReach   = "reach"
	// FeatureConflict is 1 when a value or name of the claim conflicts
	// with its evidence.
	FeatureConflict = "conflict"
	// FeatureNovel is log(1 + n), n the claim's content words no context
	// text holds; FeatureSentence the largest share of them one sentence
	// holds, FeatureSentenceF1 the best F1 against one sentence's words;
	// FeatureTrigrams the share of its lexical.WordTrigrams a context states.
	FeatureNovel      = "novel"
	FeatureSentence   = "sentence"
	FeatureSentenceF1 = "sentence_f1"
	FeatureTrigrams   = "trigrams"
	// FeaturePairs is the share of the claim's neighbouring content-word
	// pairs (lexical.WordPairs) that the context side or the question
	// states as neighbours (1 when the claim has fewer than two content
	// words): a claim that recombines the context's words into something
	// it never says scores low here while its overlap stays high.
	FeaturePairs = "pairs"
	// FeatureModelClaim, FeatureModelContext and FeatureModelThreeWay are
	// the logits of each question form's P(supported) (scoring.verify_forms;
	// absent for a form not asked); FeatureModelContradicted the logit of
	// the three-way form's P(contradicted).
	FeatureModelClaim        = "model_claim"
	FeatureModelContext      = "model_context"
	FeatureModelThreeWay     = "model_threeway"
	FeatureModelContradicted = "model_contradicted"
	// FeatureModelNotStated is the logit of the three-way form's
	// P(not stated) (its Unknown); FeatureModelYesNo the logit of its Yes
	// against its No alone, Unknown left out (how the model leans when it
	// does not answer Unknown).
	FeatureModelNotStated = "model_notstated"
	FeatureModelYesNo     = "model_yesno"
)

// The question forms of the model's claim check (scoring.verify_forms),
// in the order a claim is asked them; package llm words each.
const (
	FormClaim      = "claim"
	FormContext    = "context"
	FormThreeWay   = "threeway"
	FormClaimFirst = "claimfirst"
)

// ClaimForms are the question forms, in the order a claim is asked them.
var ClaimForms = []string{FormClaim, FormContext, FormThreeWay, FormClaimFirst}

// ModelFeatures are the features read from the model's answer; a
// calibration's with_model fit has at least one of them, its
// without_model fit none.
var ModelFeatures = []string{FeatureModel, FeatureModelClaim, FeatureModelContext, FeatureModelThreeWay, FeatureModelContradicted, FeatureModelNotStated, FeatureModelYesNo}

// KnownFeatures are every feature a claim check may have, in a fixed
// order (the model's first).
var KnownFeatures = append(slices.Clone(ModelFeatures), FeatureOverlap, FeatureAtoms, FeatureSupport, FeatureReach, FeatureConflict, FeatureNovel, FeatureSentence, FeaturePairs, FeatureSentenceF1, FeatureTrigrams)

// CalibrationFeatures are the features of the calibrated score, in the
// order of its coefficients; CalibrationFeaturesNoModel those of the
// score without a model (scoring.verify off or llm).
var (
	CalibrationFeatures        = []string{FeatureModel, FeatureOverlap, FeatureAtoms, FeatureSupport, FeatureReach, FeatureConflict}
	CalibrationFeaturesNoModel = []string{FeatureOverlap, FeatureAtoms, FeatureSupport, FeatureReach, FeatureConflict}
)

// FeatureSigns are the signs the calibrated score's coefficients must have
// (stats.FitLogisticSigned): more support, overlap or reach never lowers a
// claim's score, a conflict never raises it.
var FeatureSigns = map[string]int{FeatureModel: 1, FeatureOverlap: 1, FeatureAtoms: 1, FeatureSupport: 1, FeatureReach: 1, FeatureConflict: -1,
	FeatureModelClaim: 1, FeatureModelContext: 1, FeatureModelThreeWay: 1, FeatureModelContradicted: -1, FeatureModelNotStated: -1, FeatureModelYesNo: 1, FeatureNovel: -1, FeatureSentence: 1, FeaturePairs: 1,
	FeatureSentenceF1: 1, FeatureTrigrams: 1}
