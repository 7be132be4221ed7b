package kgeval

import "context"

// Verdicts of an input triplet (SPEC §4b, §4c).
const (
	VerdictSupported    = "supported"
	VerdictContradicted = "contradicted"
	VerdictNotFound     = "not_found"
	// An asked fact of a question (SPEC §4c) is answered or unanswered.
	VerdictAnswered   = "answered"
	VerdictUnanswered = "unanswered"
)

// Evidence is the context triplet behind a verdict, and where it came from.
type Evidence struct {
	// Node is the context relation node of the triplet.
	Node     int    `json:"node"`
	Subject  string `json:"subject"`
	Relation string `json:"relation"`
	Object   string `json:"object"`
	// Passage is the context passage (-1 when the context side is one text);
	// Start and End the byte span of the triplet's window or sentence in it.
	Passage int `json:"passage"`
	Start   int `json:"start,omitempty"`
	End     int `json:"end,omitempty"`
	// Weight is the cosine of the two relations (1 for identical keys).
	Weight float64 `json:"weight"`
	// ByType marks the evidence of an asked fact answered through another
	// relation by a new value of the type it asks for (SPEC §4c; Weight is
	// then 0: no relation SIMILAR edge joins the two).
	ByType bool `json:"by_type,omitempty"`
}

// TripletVerdict is the verdict on one input triplet of a pair graph.
type TripletVerdict struct {
	// Node is the input relation node of the triplet.
	Node     int    `json:"node"`
	Subject  string `json:"subject"`
	Relation string `json:"relation"`
	Object   string `json:"object"`
	// Asked marks an asked fact with a slot "?" (SPEC §4c).
	Asked bool `json:"asked,omitempty"`
	// Want is an asked fact's answer type, the kind of value its relation
	// names ("date" for "mission date"; Node.Want), "" for none.
	Want string `json:"want,omitempty"`
	// Source is the triplet's Source (SourceRules: read by rule).
	Source  string `json:"source,omitempty"`
	Verdict string `json:"verdict"`
	// Conflict is set when the context side both supports and contradicts
	// the triplet (the verdict is then supported).
	Conflict bool      `json:"conflict,omitempty"`
	Evidence *Evidence `json:"evidence,omitempty"`
	// Contradiction is the contradicting context triplet of a conflict.
	Contradiction *Evidence `json:"contradiction,omitempty"`
	// Unfilled is, for an unanswered asked fact, the context triplet that
	// matched its known end and relation but filled the slot with nothing
	// new (it repeats a name the question gives, or says the value is
	// unknown) or with no value of the literal type asked (LiteralWant):
	// why it is unanswered.
	Unfilled *Evidence `json:"unfilled,omitempty"`
	// Text is the verdict of the sentence check on a triplet the graph did
	// not find (supported, contradicted or ""), with its evidence sentence.
	Text         string    `json:"text,omitempty"`
	TextEvidence *Evidence `json:"text_evidence,omitempty"`
	// Model is the verdict of the model check (scoring.verify: llm) on a
	// triplet the graph left open, with its reason; empty otherwise.
	Model       string `json:"model,omitempty"`
	ModelReason string `json:"model_reason,omitempty"`
}

// VerdictMatch is one raw finding of an engine: input relation In and
// context relation Ctx state the same fact (Support), contradict each other
// (Contradict), Ctx answers the asked fact In (Answer), or Ctx matches the
// asked fact's known end and relation but fills its slot with nothing new
// (Unfilled: a name the question gives itself, a non-answer such as
// "unknown", or no value of the literal type asked). Every engine reports
// all matches; scoring.AssembleVerdicts picks the evidence, so engines
// agree exactly when their matches do.
type VerdictMatch struct {
	In, Ctx    int
	Support    bool
	Contradict bool
	Answer     bool
	Unfilled   bool
}

// FactCheck is one input triplet the graph left open (not_found, or both
// supported and contradicted), with the context sentences most likely to
// settle it (SPEC §4b, scoring.verify: llm).
type FactCheck struct {
	Subject  string   `json:"subject"`
	Relation string   `json:"relation"`
	Object   string   `json:"object"`
	Evidence []string `json:"evidence"`
}

// ModelVerdict is a model's verdict on a FactCheck: supported,
// contradicted or not_found, with its short reason.
type ModelVerdict struct {
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
}

// Verifier asks a model about the triplets the graph left open.
type Verifier interface {
	// Verify checks each batch (the open triplets of one answer and pair) in
	// one cached question and returns one verdict per fact; a batch the
	// model could not answer has its error in errs (its verdicts nil).
	// progress, if not nil, is called after each batch. Errors:
	// EUNAVAILABLE when the cache cannot be reached; the context's error
	// when it ends.
	Verify(ctx context.Context, batches [][]FactCheck, progress func(done, total int)) (verdicts [][]ModelVerdict, errs []error, err error)
}
