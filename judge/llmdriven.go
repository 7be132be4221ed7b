package judge

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metrics"
)

// Bounds on model answers (maxItems in the schemas, enforced as a grammar
// by llama.cpp) so that a small model cannot loop.
const (
	maxFacts      = 10
	maxClaims     = 10
	maxStatements = 10
	nQuestions    = 3
)

// MatchCos is the cosine at which a reference fact counts as matched by an
// answer fact in factual_correctness_validation (SPEC §6).
const MatchCos = 0.9

// Fact is one atomic fact as a triplet. Passages are the 0-based indices of
// the context passages the model said state it (answer facts only).
type Fact struct {
	Subject  string `json:"subject"`
	Relation string `json:"relation"`
	Object   string `json:"object"`
	Passages []int  `json:"passages,omitempty"`
}

// Text is the fact as one sentence-like text, "subject relation object"
// (metrics.TripletText), as it is embedded.
func (f Fact) Text() string {
	return metrics.TripletText(kgeval.Triplet{Subject: f.Subject, Relation: f.Relation, Object: f.Object})
}

// GeneratedQuestion is a question the model wrote, with its cosine to the
// sample's question.
type GeneratedQuestion struct {
	Question string  `json:"question"`
	Cos      float64 `json:"cos"`
}

// QuestionsExplanation explains llm_response_relevancy and
// ragas_answer_relevance.
type QuestionsExplanation struct {
	// From is what the questions were generated from: "contexts" or "answer".
	From      string              `json:"from"`
	Questions []GeneratedQuestion `json:"questions,omitempty"`
	// Rubric is set when ragas_answer_relevance fell back to the direct
	// rubric because the questions could not be generated.
	Rubric *RubricExplanation `json:"rubric,omitempty"`
}

// RubricExplanation is the direct 0/0.25/0.5/0.75/1 relevance rubric.
type RubricExplanation struct {
	Score  float64 `json:"score"`
	Reason string  `json:"reason"`
	// QuestionsError is why the questions were not used.
	QuestionsError string `json:"questions_error"`
}

// FactVerdict is an answer fact with the verdict on it.
type FactVerdict struct {
	Fact
	Supported bool   `json:"supported"`
	Reason    string `json:"reason"`
}

// FaithfulnessExplanation explains llm_faithfulness.
type FaithfulnessExplanation struct {
	Facts     []FactVerdict `json:"facts"`
	Supported int           `json:"supported"`
	Total     int           `json:"total"`
}

// FactSimilarity is an answer fact with its cosine to each cited passage
// (in the order of Passages) and the best of them.
type FactSimilarity struct {
	Fact
	Cos []float64 `json:"cos"`
	Max float64   `json:"max"`
}

// LabeledFact is a reference fact with its TP/FN label and, for TP, the
// answer fact the model matched it with (Match is its 0-based index, -1 for
// FN).
type LabeledFact struct {
	Fact
	Label   string `json:"label"`
	Match   int    `json:"match"`
	Matched string `json:"matched,omitempty"`
}

// CorrectnessExplanation explains llm_factual_correctness.
type CorrectnessExplanation struct {
	AnswerFacts    []Fact        `json:"answer_facts"`
	ReferenceFacts []LabeledFact `json:"reference_facts"`
	TP             int           `json:"tp"`
	FN             int           `json:"fn"`
}

// FactMatch is a reference fact with its most similar answer fact.
type FactMatch struct {
	Reference string  `json:"reference"`
	Best      string  `json:"best"`
	BestIndex int     `json:"best_index"`
	Cos       float64 `json:"cos"`
	Matched   bool    `json:"matched"`
}

// ValidationExplanation explains factual_correctness_validation.
type ValidationExplanation struct {
	Threshold float64     `json:"threshold"`
	Matches   []FactMatch `json:"matches"`
	Matched   int         `json:"matched"`
}

// Model answers as they are decoded, validated and cached. Passage numbers
// stay 1-based as the model wrote them, so that validating a cached answer
// again is idempotent.

type questionsAnswer struct {
	Questions []string `json:"questions"`
}

type wireFact struct {
	Subject  string `json:"subject"`
	Relation string `json:"relation"`
	Object   string `json:"object"`
	Passages []int  `json:"passages,omitempty"`
}

type factsAnswer struct {
	Facts []wireFact `json:"facts"`
}

type verdict struct {
	Reason  string `json:"reason"`
	Verdict string `json:"verdict"`
}

type verdictsAnswer struct {
	Verdicts []verdict `json:"verdicts"`
}

// label is the TP/FN label of one reference fact with the number (1-based,
// 0 for none) of the answer fact that states it.
type label struct {
	Match int    `json:"match"`
	Label string `json:"label"`
}

type labelsAnswer struct {
	Labels []label `json:"labels"`
}

// questionsSchema asks for exactly nQuestions questions.
var questionsSchema = object(`{"questions": `+jsonText(arrayOf(stringSchema, nQuestions, nQuestions))+`}`, "questions")

// validateQuestions requires exactly nQuestions non-empty questions.
func validateQuestions(a *questionsAnswer) error {
	if len(a.Questions) != nQuestions {
		return fmt.Errorf("%d questions, want exactly %d", len(a.Questions), nQuestions)
	}
	for i, q := range a.Questions {
		if a.Questions[i] = strings.TrimSpace(q); a.Questions[i] == "" {
			return fmt.Errorf("question %d is empty", i+1)
		}
	}
	return nil
}

// answerFactsSchema asks for facts each citing passages 1..n.
func answerFactsSchema(n int) map[string]any {
	passages := arrayOf(map[string]any{"type": "integer", "minimum": 1, "maximum": n}, 0, n)
	fact := object(`{"subject": {"type": "string"}, "relation": {"type": "string"}, "object": {"type": "string"}, "passages": `+
		jsonText(passages)+`}`, "subject", "relation", "object", "passages")
	return object(`{"facts": `+jsonText(arrayOf(fact, 0, maxFacts))+`}`, "facts")
}

var factsSchema = object(`{"facts": `+jsonText(arrayOf(object(
	`{"subject": {"type": "string"}, "relation": {"type": "string"}, "object": {"type": "string"}}`,
	"subject", "relation", "object"), 0, maxFacts))+`}`, "facts")

// validateFacts checks a facts answer: the list is there, every passage
// number is within 1..passages (passages < 0: the answer cites none). Extra
// facts beyond maxFacts are dropped; facts with an empty field are dropped
// when the answer is used (as triplet extraction does).
func validateFacts(a *factsAnswer, passages int) error {
	if a.Facts == nil {
		return errors.New(`missing "facts" list`)
	}
	if len(a.Facts) > maxFacts {
		a.Facts = a.Facts[:maxFacts]
	}
	for i, f := range a.Facts {
		if passages < 0 && len(f.Passages) > 0 {
			return fmt.Errorf("fact %d cites passages, but there are none", i+1)
		}
		for _, p := range f.Passages {
			if p < 1 || p > passages {
				return fmt.Errorf("fact %d cites passage %d, want a number from 1 to %d", i+1, p, passages)
			}
		}
	}
	return nil
}

// facts turns a validated answer into Facts: fields trimmed, facts with an
// empty field and duplicates dropped, passage numbers 0-based, sorted and
// unique.
func (a factsAnswer) facts() []Fact {
	out := []Fact{}
	seen := map[[3]string]bool{}
	for _, w := range a.Facts {
		f := Fact{Subject: strings.TrimSpace(w.Subject), Relation: strings.TrimSpace(w.Relation), Object: strings.TrimSpace(w.Object)}
		k := [3]string{kgeval.Key(f.Subject), kgeval.Key(f.Relation), kgeval.Key(f.Object)}
		if k[0] == "" || k[1] == "" || k[2] == "" || seen[k] {
			continue
		}
		seen[k] = true
		cited := map[int]bool{}
		for _, p := range w.Passages {
			cited[p-1] = true
		}
		for p := range cited {
			f.Passages = append(f.Passages, p)
		}
		slices.Sort(f.Passages)
		out = append(out, f)
	}
	return out
}

// verdictsSchema asks for exactly n yes/no verdicts, each after its reason.
func verdictsSchema(n int) map[string]any {
	v := object(`{"reason": {"type": "string"}, "verdict": `+verdictEnum+`}`, "reason", "verdict")
	return object(`{"verdicts": `+jsonText(arrayOf(v, n, n))+`}`, "verdicts")
}

// validateVerdicts requires exactly n verdicts, each "yes" or "no" (case
// and surrounding space ignored, normalised to lower case).
func validateVerdicts(a *verdictsAnswer, n int) error {
	if len(a.Verdicts) != n {
		return fmt.Errorf("%d verdicts for %d items, want one per item in order", len(a.Verdicts), n)
	}
	for i := range a.Verdicts {
		v, err := yesNo(a.Verdicts[i].Verdict)
		if err != nil {
			return fmt.Errorf("verdict %d: %w", i+1, err)
		}
		a.Verdicts[i].Verdict = v
	}
	return nil
}

func yesNo(s string) (string, error) {
	switch v := strings.ToLower(strings.TrimSpace(s)); v {
	case "yes", "no":
		return v, nil
	}
	return "", fmt.Errorf("%q is not \"yes\" or \"no\"", s)
}

// labelsSchema asks for exactly n TP/FN labels, each after the number of
// the matching answer fact (0..answers). Pointing at the answer fact is what
// makes a 1.5B model label correctly: asked for a reason and a label
// (fact_labels.v1), it labelled identical facts FN.
func labelsSchema(n, answers int) map[string]any {
	l := object(`{"match": {"type": "integer", "minimum": 0, "maximum": `+strconv.Itoa(answers)+`}, `+
		`"label": {"type": "string", "enum": ["TP", "FN"]}}`, "match", "label")
	return object(`{"labels": `+jsonText(arrayOf(l, n, n))+`}`, "labels")
}

// validateLabels requires exactly n labels, each TP with the number of an
// answer fact (1..answers) or FN with match 0.
func validateLabels(a *labelsAnswer, n, answers int) error {
	if len(a.Labels) != n {
		return fmt.Errorf("%d labels for %d reference facts, want one per fact in order", len(a.Labels), n)
	}
	for i := range a.Labels {
		l := &a.Labels[i]
		switch u := strings.ToUpper(strings.TrimSpace(l.Label)); u {
		case "TP", "FN":
			l.Label = u
		default:
			return fmt.Errorf("label %d is %q, want \"TP\" or \"FN\"", i+1, l.Label)
		}
		switch {
		case l.Match < 0 || l.Match > answers:
			return fmt.Errorf("label %d: match %d, want a number from 0 to %d", i+1, l.Match, answers)
		case l.Label == "TP" && l.Match == 0:
			return fmt.Errorf("label %d is TP but matches no answer fact (match 0)", i+1)
		case l.Label == "FN" && l.Match != 0:
			return fmt.Errorf("label %d is FN but matches answer fact %d", i+1, l.Match)
		}
	}
	return nil
}

// Inputs as the model sees them.

func numberedPassages(contexts []string, only map[int]bool) string {
	var b strings.Builder
	for i, c := range contexts {
		if only != nil && !only[i] {
			continue
		}
		fmt.Fprintf(&b, "[%d] %s\n", i+1, strings.TrimSpace(c))
	}
	return b.String()
}

func numberedFacts(facts []Fact, withPassages bool) string {
	var b strings.Builder
	for i, f := range facts {
		fmt.Fprintf(&b, "%d. %s | %s | %s", i+1, f.Subject, f.Relation, f.Object)
		if withPassages {
			ps := make([]string, len(f.Passages))
			for j, p := range f.Passages {
				ps[j] = strconv.Itoa(p + 1)
			}
			fmt.Fprintf(&b, " (cited passages: %s)", strings.Join(ps, ", "))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func numberedLines(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "%d. %s\n", i+1, l)
	}
	return b.String()
}

// Missing inputs.

func blank(s string) bool { return strings.TrimSpace(s) == "" }

var (
	nullNoAnswer    = metrics.Null("empty answer")
	nullNoQuestion  = metrics.Null("empty question")
	nullNoContexts  = metrics.Null("no contexts")
	nullNoReference = metrics.Null("no reference")
)

// Model questions shared by the §6 metrics.

// questionsFromContexts asks for the questions the contexts answer.
func (e *eval) questionsFromContexts() ([]string, error) {
	return e.responseQuestions.get(func() ([]string, error) {
		a, err := ask(e, promptResponseQuestions, questionsSchema, "CONTEXT:\n"+numberedPassages(e.s.Contexts, nil), validateQuestions)
		return a.Questions, err
	})
}

// factsOfAnswer asks for the facts of the answer, each with the passages
// that state it; without contexts, for the plain facts of the answer.
func (e *eval) factsOfAnswer() ([]Fact, error) {
	return e.answerFacts.get(func() ([]Fact, error) {
		n := len(e.s.Contexts)
		if n == 0 {
			return e.plainFacts(e.s.Answer)
		}
		user := "QUESTION (context only; the facts are the ANSWER's):\n" + strings.TrimSpace(e.s.Question) +
			"\n\nPASSAGES:\n" + numberedPassages(e.s.Contexts, nil) + "\nANSWER:\n" + strings.TrimSpace(e.s.Answer)
		a, err := ask(e, promptAnswerFacts, answerFactsSchema(n), user, func(a *factsAnswer) error { return validateFacts(a, n) })
		if err != nil {
			return nil, err
		}
		return a.facts(), nil
	})
}

func (e *eval) factsOfReference() ([]Fact, error) {
	return e.referenceFacts.get(func() ([]Fact, error) { return e.plainFacts(e.s.Reference) })
}

func (e *eval) plainFacts(text string) ([]Fact, error) {
	user := "QUESTION (context only; the facts are the TEXT's):\n" + strings.TrimSpace(e.s.Question) + "\n\nTEXT:\n" + strings.TrimSpace(text)
	a, err := ask(e, promptFacts, factsSchema, user, func(a *factsAnswer) error { return validateFacts(a, -1) })
	if err != nil {
		return nil, err
	}
	return a.facts(), nil
}

// The §6 metrics.

func (e *eval) responseRelevancy() (metrics.Value, any) {
	switch {
	case blank(e.s.Question):
		return nullNoQuestion, nil
	case len(e.s.Contexts) == 0:
		return nullNoContexts, nil
	}
	qs, err := e.questionsFromContexts()
	if err != nil {
		return failed("questions from contexts", err), nil
	}
	vecs, err := e.embed(append([]string{e.s.Question}, qs...))
	if err != nil {
		return failed("questions from contexts", err), QuestionsExplanation{From: "contexts", Questions: questionsOnly(qs)}
	}
	gq := cosines(vecs[0], qs, vecs[1:])
	return scoreResponseRelevancy(gq), QuestionsExplanation{From: "contexts", Questions: gq}
}

func questionsOnly(qs []string) []GeneratedQuestion {
	out := make([]GeneratedQuestion, len(qs))
	for i, q := range qs {
		out[i] = GeneratedQuestion{Question: q}
	}
	return out
}

// cosines pairs each generated question with its cosine to the question
// vector q.
func cosines(q []float32, qs []string, vecs [][]float32) []GeneratedQuestion {
	out := make([]GeneratedQuestion, len(qs))
	for i := range qs {
		out[i] = GeneratedQuestion{Question: qs[i], Cos: metrics.Cosine(q, vecs[i])}
	}
	return out
}

// scoreResponseRelevancy is llm_response_relevancy: the largest cosine between
// the question and a question generated from the contexts (cosine scale,
// unrounded); null without generated questions.
func scoreResponseRelevancy(qs []GeneratedQuestion) metrics.Value {
	if len(qs) == 0 {
		return metrics.Null("no questions generated")
	}
	best := qs[0].Cos
	for _, q := range qs[1:] {
		best = max(best, q.Cos)
	}
	return metrics.Of(best)
}

func (e *eval) faithfulness() (metrics.Value, any) {
	switch {
	case blank(e.s.Answer):
		return nullNoAnswer, nil
	case len(e.s.Contexts) == 0:
		return nullNoContexts, nil
	}
	facts, err := e.factsOfAnswer()
	if err != nil {
		return failed("facts of answer", err), nil
	}
	// Only facts that cite a passage are sent for verification, with the
	// passages they cite; the others are unsupported without a call.
	var cited []Fact
	shown := map[int]bool{}
	for _, f := range facts {
		if len(f.Passages) > 0 {
			cited = append(cited, f)
			for _, p := range f.Passages {
				shown[p] = true
			}
		}
	}
	var verdicts []verdict
	if len(cited) > 0 {
		user := "PASSAGES:\n" + numberedPassages(e.s.Contexts, shown) + "\nFACTS:\n" + numberedFacts(cited, true)
		a, err := ask(e, promptVerifyFacts, verdictsSchema(len(cited)), user, func(a *verdictsAnswer) error { return validateVerdicts(a, len(cited)) })
		if err != nil {
			return failed("verification of facts", err), FaithfulnessExplanation{Facts: unverified(facts), Total: len(facts)}
		}
		verdicts = a.Verdicts
	}
	v, x := scoreFaithfulness(facts, verdicts)
	return v, x
}

func unverified(facts []Fact) []FactVerdict {
	out := make([]FactVerdict, len(facts))
	for i, f := range facts {
		out[i] = FactVerdict{Fact: f}
	}
	return out
}

// scoreFaithfulness is llm_faithfulness: supported facts / facts. verdicts hold
// one verdict per fact that cites a passage, in order; a fact citing no
// passage is unsupported. Null when the answer gave no fact.
func scoreFaithfulness(facts []Fact, verdicts []verdict) (metrics.Value, FaithfulnessExplanation) {
	x := FaithfulnessExplanation{Facts: make([]FactVerdict, len(facts)), Total: len(facts)}
	k := 0
	for i, f := range facts {
		fv := FactVerdict{Fact: f, Reason: "no passage cited"}
		if len(f.Passages) > 0 {
			fv.Supported, fv.Reason = verdicts[k].Verdict == "yes", verdicts[k].Reason
			k++
		}
		if fv.Supported {
			x.Supported++
		}
		x.Facts[i] = fv
	}
	if x.Total == 0 {
		return metrics.Null("no facts extracted from answer"), x
	}
	return metrics.Of(float64(x.Supported) / float64(x.Total)), x
}

func (e *eval) faithfulnessValidation() (metrics.Value, any) {
	switch {
	case blank(e.s.Answer):
		return nullNoAnswer, nil
	case len(e.s.Contexts) == 0:
		return nullNoContexts, nil
	}
	facts, err := e.factsOfAnswer()
	if err != nil {
		return failed("facts of answer", err), nil
	}
	if len(facts) == 0 {
		return metrics.Null("no facts extracted from answer"), []FactSimilarity{}
	}
	texts := make([]string, 0, len(facts)+len(e.s.Contexts))
	for _, f := range facts {
		texts = append(texts, f.Text())
	}
	texts = append(texts, e.s.Contexts...)
	vecs, err := e.embed(texts)
	if err != nil {
		return failed("facts and passages", err), nil
	}
	v, x := scoreFaithfulnessValidation(facts, vecs[:len(facts)], vecs[len(facts):])
	return v, x
}

// scoreFaithfulnessValidation is faithfulness_validation: the mean over facts
// of the largest cosine between the fact and a passage it cites; a fact
// citing no passage counts 0. factVecs and passageVecs are in the order of
// facts and of the sample's passages. Null without facts.
func scoreFaithfulnessValidation(facts []Fact, factVecs, passageVecs [][]float32) (metrics.Value, []FactSimilarity) {
	out := make([]FactSimilarity, len(facts))
	var sum float64
	for i, f := range facts {
		fs := FactSimilarity{Fact: f, Cos: make([]float64, len(f.Passages))}
		for j, p := range f.Passages {
			c := metrics.Cosine(factVecs[i], passageVecs[p])
			fs.Cos[j] = c
			if j == 0 || c > fs.Max {
				fs.Max = c
			}
		}
		sum += fs.Max
		out[i] = fs
	}
	if len(facts) == 0 {
		return metrics.Null("no facts extracted from answer"), out
	}
	return metrics.Of(sum / float64(len(facts))), out
}

// answerAndReferenceFacts returns the facts of the answer and of the
// reference, both non-empty, or the null value that says why not; extracted
// tells whether both lists were obtained (one may be empty).
func (e *eval) answerAndReferenceFacts() (ans, ref []Fact, null *metrics.Value, extracted bool) {
	nv := func(v metrics.Value) *metrics.Value { return &v }
	switch {
	case blank(e.s.Answer):
		return nil, nil, nv(nullNoAnswer), false
	case blank(e.s.Reference):
		return nil, nil, nv(nullNoReference), false
	}
	ans, err := e.factsOfAnswer()
	if err != nil {
		return nil, nil, nv(failed("facts of answer", err)), false
	}
	ref, err = e.factsOfReference()
	if err != nil {
		return nil, nil, nv(failed("facts of reference", err)), false
	}
	switch {
	case len(ref) == 0:
		return ans, ref, nv(metrics.Null("no facts extracted from reference")), true
	case len(ans) == 0:
		return ans, ref, nv(metrics.Null("no facts extracted from answer")), true
	}
	return ans, ref, nil, true
}

func (e *eval) factualCorrectness() (metrics.Value, any) {
	ans, ref, null, extracted := e.answerAndReferenceFacts()
	switch {
	case null != nil && !extracted:
		return *null, nil
	case null != nil:
		return *null, CorrectnessExplanation{AnswerFacts: ans, ReferenceFacts: unlabeled(ref)}
	}
	user := "ANSWER FACTS:\n" + numberedFacts(ans, false) + "\nREFERENCE FACTS:\n" + numberedFacts(ref, false)
	a, err := ask(e, promptFactLabels, labelsSchema(len(ref), len(ans)), user, func(a *labelsAnswer) error { return validateLabels(a, len(ref), len(ans)) })
	if err != nil {
		return failed("TP/FN labels", err), CorrectnessExplanation{AnswerFacts: ans, ReferenceFacts: unlabeled(ref)}
	}
	v, x := scoreFactualCorrectness(ans, ref, a.Labels)
	return v, x
}

func unlabeled(ref []Fact) []LabeledFact {
	out := make([]LabeledFact, len(ref))
	for i, f := range ref {
		out[i] = LabeledFact{Fact: f, Match: -1}
	}
	return out
}

// scoreFactualCorrectness is llm_factual_correctness: TP / (TP + FN) over the
// reference facts, with one label per reference fact. Null without
// reference facts.
func scoreFactualCorrectness(ans, ref []Fact, labels []label) (metrics.Value, CorrectnessExplanation) {
	x := CorrectnessExplanation{AnswerFacts: ans, ReferenceFacts: make([]LabeledFact, len(ref))}
	for i, f := range ref {
		lf := LabeledFact{Fact: f, Label: labels[i].Label, Match: labels[i].Match - 1}
		if lf.Label == "TP" {
			lf.Matched = ans[lf.Match].Text()
			x.TP++
		} else {
			x.FN++
		}
		x.ReferenceFacts[i] = lf
	}
	if x.TP+x.FN == 0 {
		return metrics.Null("no facts extracted from reference"), x
	}
	return metrics.Of(float64(x.TP) / float64(x.TP+x.FN)), x
}

func (e *eval) factualCorrectnessValidation() (metrics.Value, any) {
	ans, ref, null, _ := e.answerAndReferenceFacts()
	if null != nil {
		return *null, nil
	}
	texts := make([]string, 0, len(ref)+len(ans))
	for _, f := range ref {
		texts = append(texts, f.Text())
	}
	for _, f := range ans {
		texts = append(texts, f.Text())
	}
	vecs, err := e.embed(texts)
	if err != nil {
		return failed("facts", err), nil
	}
	v, x := scoreFactualCorrectnessValidation(ref, ans, vecs[:len(ref)], vecs[len(ref):])
	return v, x
}

// scoreFactualCorrectnessValidation is factual_correctness_validation: the share
// of reference facts whose most similar answer fact has cosine >= MatchCos.
// Null when either side has no facts.
func scoreFactualCorrectnessValidation(ref, ans []Fact, refVecs, ansVecs [][]float32) (metrics.Value, ValidationExplanation) {
	x := ValidationExplanation{Threshold: MatchCos, Matches: make([]FactMatch, len(ref))}
	switch {
	case len(ref) == 0:
		return metrics.Null("no facts extracted from reference"), x
	case len(ans) == 0:
		return metrics.Null("no facts extracted from answer"), x
	}
	for i, r := range ref {
		best, bestCos := 0, metrics.Cosine(refVecs[i], ansVecs[0])
		for j := 1; j < len(ans); j++ {
			if c := metrics.Cosine(refVecs[i], ansVecs[j]); c > bestCos {
				best, bestCos = j, c
			}
		}
		m := FactMatch{Reference: r.Text(), Best: ans[best].Text(), BestIndex: best, Cos: bestCos, Matched: bestCos >= MatchCos}
		if m.Matched {
			x.Matched++
		}
		x.Matches[i] = m
	}
	return metrics.Of(float64(x.Matched) / float64(len(ref))), x
}
