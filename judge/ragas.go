package judge

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/metrics"
)

// ClaimVerdict is a claim of the answer with the verdict on it.
type ClaimVerdict struct {
	Claim     string `json:"claim"`
	Supported bool   `json:"supported"`
	Reason    string `json:"reason"`
}

// ClaimsExplanation explains ragas_faithfulness.
type ClaimsExplanation struct {
	Claims    []ClaimVerdict `json:"claims"`
	Supported int            `json:"supported"`
	Total     int            `json:"total"`
	// Note says why the value is a fixed one (no claims, no contexts).
	Note string `json:"note,omitempty"`
}

// PassageVerdict is the relevance verdict on one passage (0-based index).
type PassageVerdict struct {
	Passage  int    `json:"passage"`
	Relevant bool   `json:"relevant"`
	Reason   string `json:"reason"`
}

// PrecisionExplanation explains ragas_context_precision and its rank-aware
// variant.
type PrecisionExplanation struct {
	// Against is the text the passages were judged against: "reference",
	// or "answer" when the sample has no reference.
	Against  string           `json:"against"`
	Passages []PassageVerdict `json:"passages"`
}

// StatementVerdict is a statement of the reference with its attribution.
type StatementVerdict struct {
	Statement  string `json:"statement"`
	Attributed bool   `json:"attributed"`
	Reason     string `json:"reason"`
}

// RecallExplanation explains ragas_context_recall.
type RecallExplanation struct {
	Statements []StatementVerdict `json:"statements"`
	Attributed int                `json:"attributed"`
	Total      int                `json:"total"`
	Note       string             `json:"note,omitempty"`
}

// RagasScoreExplanation holds the four parts of ragas_score.
type RagasScoreExplanation struct {
	Faithfulness     metrics.Value `json:"ragas_faithfulness"`
	ContextPrecision metrics.Value `json:"ragas_context_precision"`
	ContextRecall    metrics.Value `json:"ragas_context_recall"`
	AnswerRelevance  metrics.Value `json:"ragas_answer_relevance"`
}

// GEvalExplanation explains factual_accuracy: the model's sub-scores and
// reasoning, our weighted score and grade.
type GEvalExplanation struct {
	metrics.GEval
	Reasoning string `json:"reasoning"`
}

// ClassExplanation explains answer_class.
type ClassExplanation struct {
	Class metrics.Class `json:"class"`
	// By is "phrase" (DONT_KNOW by the SPEC's phrase list, no model call),
	// "match" (CORRECT: the answer is the reference, up to case, spacing
	// and final punctuation; no model call) or "model".
	By     string `json:"by"`
	Phrase string `json:"phrase,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// ClassOf returns the answer class of an answer_class result.
func ClassOf(r Result) (metrics.Class, bool) {
	switch x := r.Explanation.(type) {
	case ClassExplanation:
		return x.Class, true
	case *ClassExplanation:
		return x.Class, x != nil
	}
	return "", false
}

// Model answers.

type claimsAnswer struct {
	Claims []string `json:"claims"`
}

type relevanceAnswer struct {
	Reason  string `json:"reason"`
	Verdict string `json:"verdict"`
}

type statement struct {
	Statement  string `json:"statement"`
	Reason     string `json:"reason"`
	Attributed string `json:"attributed"`
}

type recallAnswer struct {
	Statements []statement `json:"statements"`
}

type rubricAnswer struct {
	Reason string  `json:"reason"`
	Score  float64 `json:"score"`
}

type gevalAnswer struct {
	Reasoning    string  `json:"reasoning"`
	Correctness  float64 `json:"correctness"`
	Completeness float64 `json:"completeness"`
	Consistency  float64 `json:"consistency"`
}

type classAnswer struct {
	Reason string `json:"reason"`
	Class  string `json:"class"`
}

var (
	claimsSchema    = object(`{"claims": `+jsonText(arrayOf(stringSchema, 0, maxClaims))+`}`, "claims")
	relevanceSchema = object(`{"reason": {"type": "string"}, "verdict": `+verdictEnum+`}`, "reason", "verdict")
	recallSchema    = object(`{"statements": `+jsonText(arrayOf(object(
		`{"statement": {"type": "string"}, "reason": {"type": "string"}, "attributed": `+verdictEnum+`}`,
		"statement", "reason", "attributed"), 0, maxStatements))+`}`, "statements")
	rubricSchema = object(`{"reason": {"type": "string"}, "score": {"type": "number", "enum": [0, 0.25, 0.5, 0.75, 1]}}`, "reason", "score")
	gevalSchema  = object(`{"reasoning": {"type": "string"}, `+
		`"correctness": {"type": "integer", "minimum": 0, "maximum": 10}, `+
		`"completeness": {"type": "integer", "minimum": 0, "maximum": 10}, `+
		`"consistency": {"type": "integer", "minimum": 0, "maximum": 10}}`,
		"reasoning", "correctness", "completeness", "consistency")
	classSchema = object(`{"reason": {"type": "string"}, "class": {"type": "string", "enum": ["CORRECT", "WRONG"]}}`, "reason", "class")
)

// validateClaims requires the list; empty claims are dropped, extra ones
// beyond maxClaims cut.
func validateClaims(a *claimsAnswer) error {
	if a.Claims == nil {
		return errors.New(`missing "claims" list`)
	}
	kept := a.Claims[:0]
	for _, c := range a.Claims {
		if c = strings.TrimSpace(c); c != "" {
			kept = append(kept, c)
		}
	}
	a.Claims = kept[:min(len(kept), maxClaims)]
	return nil
}

func validateRelevance(a *relevanceAnswer) error {
	v, err := yesNo(a.Verdict)
	if err != nil {
		return fmt.Errorf("verdict: %w", err)
	}
	a.Verdict = v
	return nil
}

// validateRecall requires the list and a yes/no attribution for every
// statement; empty statements are dropped, extra ones cut.
func validateRecall(a *recallAnswer) error {
	if a.Statements == nil {
		return errors.New(`missing "statements" list`)
	}
	kept := a.Statements[:0]
	for i, s := range a.Statements {
		if s.Statement = strings.TrimSpace(s.Statement); s.Statement == "" {
			continue
		}
		v, err := yesNo(s.Attributed)
		if err != nil {
			return fmt.Errorf("statement %d: attributed: %w", i+1, err)
		}
		s.Attributed = v
		kept = append(kept, s)
	}
	a.Statements = kept[:min(len(kept), maxStatements)]
	return nil
}

func validateRubric(a *rubricAnswer) error {
	switch a.Score {
	case 0, 0.25, 0.5, 0.75, 1:
		return nil
	}
	return fmt.Errorf("score %v is not one of 0, 0.25, 0.5, 0.75, 1", a.Score)
}

func validateGEval(a *gevalAnswer) error {
	_, err := metrics.FactualAccuracy(a.Correctness, a.Completeness, a.Consistency)
	return err
}

// validateClass accepts CORRECT or WRONG (DONT_KNOW is decided by the
// phrase list before the model is asked).
func validateClass(a *classAnswer) error {
	c, err := metrics.ParseClass(a.Class)
	if err != nil || c == metrics.ClassDontKnow {
		return fmt.Errorf("class %q is not \"CORRECT\" or \"WRONG\"", a.Class)
	}
	a.Class = string(c)
	return nil
}

// Model questions shared by the §7 metrics.

func (e *eval) answerClaims() ([]string, error) {
	return e.claims.get(func() ([]string, error) {
		user := "QUESTION:\n" + strings.TrimSpace(e.s.Question) + "\n\nANSWER:\n" + strings.TrimSpace(e.s.Answer)
		a, err := ask(e, promptClaims, claimsSchema, user, validateClaims)
		return a.Claims, err
	})
}

// passageRelevance asks for one relevance verdict per passage, judged
// against the reference (the answer when there is none). An empty passage
// is irrelevant without a call.
func (e *eval) passageRelevance(text string) ([]PassageVerdict, error) {
	return e.relevance.get(func() ([]PassageVerdict, error) {
		out := make([]PassageVerdict, len(e.s.Contexts))
		for i, p := range e.s.Contexts {
			out[i] = PassageVerdict{Passage: i, Reason: "empty passage"}
			if blank(p) {
				continue
			}
			user := "QUESTION:\n" + strings.TrimSpace(e.s.Question) + "\n\nANSWER:\n" + strings.TrimSpace(text) +
				"\n\nPASSAGE:\n" + strings.TrimSpace(p)
			a, err := ask(e, promptContextRelevance, relevanceSchema, user, validateRelevance)
			if err != nil {
				return nil, fmt.Errorf("passage %d: %w", i+1, err)
			}
			out[i] = PassageVerdict{Passage: i, Relevant: a.Verdict == "yes", Reason: a.Reason}
		}
		return out, nil
	})
}

// The §7 metrics.

func (e *eval) ragasFaithfulness() (metrics.Value, any) {
	if blank(e.s.Answer) {
		return nullNoAnswer, nil
	}
	claims, err := e.answerClaims()
	if err != nil {
		return failed("claims of answer", err), nil
	}
	if len(claims) == 0 || len(e.s.Contexts) == 0 {
		v, x := scoreRagasFaithfulness(claims, nil, len(e.s.Contexts) > 0)
		return v, x
	}
	user := "CONTEXT:\n" + numberedPassages(e.s.Contexts, nil) + "\nCLAIMS:\n" + numberedLines(claims)
	a, err := ask(e, promptVerifyClaims, verdictsSchema(len(claims)), user, func(a *verdictsAnswer) error { return validateVerdicts(a, len(claims)) })
	if err != nil {
		return failed("verification of claims", err), nil
	}
	v, x := scoreRagasFaithfulness(claims, a.Verdicts, true)
	return v, x
}

// scoreRagasFaithfulness is ragas_faithfulness: 100 × supported claims /
// claims, 2 decimals, with one verdict per claim. No claims gives 100 (SPEC
// §7); claims without contexts give 0 (nothing supports them).
func scoreRagasFaithfulness(claims []string, verdicts []verdict, haveContexts bool) (metrics.Value, ClaimsExplanation) {
	x := ClaimsExplanation{Claims: make([]ClaimVerdict, len(claims)), Total: len(claims)}
	switch {
	case len(claims) == 0:
		x.Note = "the answer makes no claim"
		return metrics.Of(100), x
	case !haveContexts:
		for i, c := range claims {
			x.Claims[i] = ClaimVerdict{Claim: c, Reason: "no contexts"}
		}
		x.Note = "no contexts: no claim can be supported"
		return metrics.Of(0), x
	}
	for i, c := range claims {
		x.Claims[i] = ClaimVerdict{Claim: c, Supported: verdicts[i].Verdict == "yes", Reason: verdicts[i].Reason}
		if x.Claims[i].Supported {
			x.Supported++
		}
	}
	return metrics.Of(metrics.Round2(100 * float64(x.Supported) / float64(x.Total))), x
}

func (e *eval) contextPrecision(atK bool) (metrics.Value, any) {
	if len(e.s.Contexts) == 0 {
		return nullNoContexts, nil
	}
	against, text := "reference", e.s.Reference
	if blank(text) {
		against, text = "answer", e.s.Answer
	}
	if blank(text) {
		return metrics.Null("no reference and empty answer: nothing to judge the passages against"), nil
	}
	pv, err := e.passageRelevance(text)
	if err != nil {
		return failed("relevance of passages", err), nil
	}
	verdicts := make([]bool, len(pv))
	for i, p := range pv {
		verdicts[i] = p.Relevant
	}
	x := PrecisionExplanation{Against: against, Passages: pv}
	if atK {
		return metrics.ContextPrecisionAtK(verdicts), x
	}
	return metrics.ContextPrecision(verdicts), x
}

func (e *eval) contextRecall() (metrics.Value, any) {
	switch {
	case blank(e.s.Reference):
		return nullNoReference, nil
	case len(e.s.Contexts) == 0:
		return metrics.Of(0), RecallExplanation{Statements: []StatementVerdict{}, Note: "no contexts: no statement can be attributed"}
	}
	user := "QUESTION:\n" + strings.TrimSpace(e.s.Question) + "\n\nCONTEXT:\n" + numberedPassages(e.s.Contexts, nil) +
		"\nREFERENCE:\n" + strings.TrimSpace(e.s.Reference)
	a, err := ask(e, promptContextRecall, recallSchema, user, validateRecall)
	if err != nil {
		return failed("attribution of reference statements", err), nil
	}
	v, x := scoreContextRecall(a.Statements)
	return v, x
}

// scoreContextRecall is ragas_context_recall: 100 × attributed statements /
// statements, 2 decimals; 100 when the reference gave no statement (SPEC §7).
func scoreContextRecall(st []statement) (metrics.Value, RecallExplanation) {
	x := RecallExplanation{Statements: make([]StatementVerdict, len(st)), Total: len(st)}
	for i, s := range st {
		x.Statements[i] = StatementVerdict{Statement: s.Statement, Attributed: s.Attributed == "yes", Reason: s.Reason}
		if x.Statements[i].Attributed {
			x.Attributed++
		}
	}
	if x.Total == 0 {
		x.Note = "the reference gave no statement"
		return metrics.Of(100), x
	}
	return metrics.Of(metrics.Round2(100 * float64(x.Attributed) / float64(x.Total))), x
}

func (e *eval) answerRelevance() (metrics.Value, any) {
	switch {
	case blank(e.s.Answer):
		return nullNoAnswer, nil
	case blank(e.s.Question):
		return nullNoQuestion, nil
	}
	qs, qerr := e.answerQuestions.get(func() ([]string, error) {
		a, err := ask(e, promptAnswerQuestions, questionsSchema, "ANSWER:\n"+strings.TrimSpace(e.s.Answer), validateQuestions)
		return a.Questions, err
	})
	if errors.Is(qerr, errFatal) {
		return failed("questions from answer", qerr), nil
	}
	if qerr != nil {
		// SPEC §7: on failure, the direct 0/0.25/0.5/0.75/1 rubric.
		user := "QUESTION:\n" + strings.TrimSpace(e.s.Question) + "\n\nANSWER:\n" + strings.TrimSpace(e.s.Answer)
		a, err := ask(e, promptAnswerRubric, rubricSchema, user, validateRubric)
		if err != nil {
			return metrics.Null("questions from answer: " + qerr.Error() + "; rubric: " + err.Error()), nil
		}
		x := QuestionsExplanation{From: "answer", Rubric: &RubricExplanation{Score: a.Score, Reason: a.Reason, QuestionsError: qerr.Error()}}
		return metrics.Of(metrics.Round2(100 * a.Score)), x
	}
	vecs, err := e.embed(append([]string{e.s.Question}, qs...))
	if err != nil {
		return failed("questions from answer", err), QuestionsExplanation{From: "answer", Questions: questionsOnly(qs)}
	}
	gq := cosines(vecs[0], qs, vecs[1:])
	return scoreAnswerRelevance(gq), QuestionsExplanation{From: "answer", Questions: gq}
}

// scoreAnswerRelevance is ragas_answer_relevance: 100 × the mean cosine
// between the question and the questions generated from the answer, a
// negative mean as 0, 2 decimals.
func scoreAnswerRelevance(qs []GeneratedQuestion) metrics.Value {
	if len(qs) == 0 {
		return metrics.Null("no questions generated")
	}
	var sum float64
	for _, q := range qs {
		sum += q.Cos
	}
	return metrics.Of(metrics.Round2(100 * max(0, sum/float64(len(qs)))))
}

// ragasScore computes the four parts it needs (shared with their own
// metrics within the Evaluate call) and combines them.
func (e *eval) ragasScore() (metrics.Value, any) {
	x := RagasScoreExplanation{
		Faithfulness:     e.metric(metricreg.MetricRagasFaithfulness).Value,
		ContextPrecision: e.metric(metricreg.MetricContextPrecision).Value,
		ContextRecall:    e.metric(metricreg.MetricContextRecall).Value,
		AnswerRelevance:  e.metric(metricreg.MetricAnswerRelevance).Value,
	}
	return metrics.RagasScore(x.Faithfulness, x.ContextPrecision, x.ContextRecall, x.AnswerRelevance), x
}

func (e *eval) factualAccuracy() (metrics.Value, any) {
	switch {
	case blank(e.s.Answer):
		return nullNoAnswer, nil
	case blank(e.s.Reference):
		return nullNoReference, nil
	}
	user := "QUESTION:\n" + strings.TrimSpace(e.s.Question) + "\n\nREFERENCE:\n" + strings.TrimSpace(e.s.Reference) +
		"\n\nANSWER:\n" + strings.TrimSpace(e.s.Answer)
	a, err := ask(e, promptGEval, gevalSchema, user, validateGEval)
	if err != nil {
		return failed("GEval sub-scores", err), nil
	}
	g, err := metrics.FactualAccuracy(a.Correctness, a.Completeness, a.Consistency)
	if err != nil { // validated above; kept for safety
		return failed("GEval sub-scores", err), nil
	}
	return metrics.Of(g.Score), GEvalExplanation{GEval: g, Reasoning: a.Reasoning}
}

func (e *eval) answerClass() (metrics.Value, any) {
	if blank(e.s.Answer) {
		return nullNoAnswer, nil
	}
	if dk, phrase := metrics.DontKnow(e.s.Answer); dk {
		return classValue(metrics.ClassDontKnow), ClassExplanation{Class: metrics.ClassDontKnow, By: "phrase", Phrase: phrase}
	}
	if blank(e.s.Reference) {
		return nullNoReference, nil
	}
	if sameText(e.s.Answer, e.s.Reference) {
		return classValue(metrics.ClassCorrect), ClassExplanation{Class: metrics.ClassCorrect, By: "match"}
	}
	user := "QUESTION:\n" + strings.TrimSpace(e.s.Question) + "\n\nREFERENCE:\n" + strings.TrimSpace(e.s.Reference) +
		"\n\nANSWER:\n" + strings.TrimSpace(e.s.Answer)
	a, err := ask(e, promptAnswerClass, classSchema, user, validateClass)
	if err != nil {
		return failed("answer class", err), nil
	}
	return classValue(metrics.Class(a.Class)), ClassExplanation{Class: metrics.Class(a.Class), By: "model", Reason: a.Reason}
}

// classValue is answer_class as a number: 1 for CORRECT, 0 for WRONG and
// DONT_KNOW, so that its mean is the share of correct answers.
func classValue(c metrics.Class) metrics.Value {
	if c == metrics.ClassCorrect {
		return metrics.Of(1)
	}
	return metrics.Of(0)
}

// sameText reports whether a and b are the same text up to case, spacing
// and final punctuation: an answer that is its reference is correct
// without asking a model (the 1.5B model has called one WRONG).
func sameText(a, b string) bool {
	norm := func(s string) string {
		return strings.TrimRight(strings.ToLower(strings.Join(strings.Fields(s), " ")), ".!?;: ")
	}
	return norm(a) != "" && norm(a) == norm(b)
}
