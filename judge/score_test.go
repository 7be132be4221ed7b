package judge

import (
	"math"
	"strings"
	"testing"

	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/metrics"
)

const tol = 1e-12

// ExactValue fails unless v is the number want (to within tol).
func ExactValue(tb testing.TB, name string, v metrics.Value, want float64) {
	tb.Helper()
	got, ok := v.Float()
	if !ok || math.Abs(got-want) > tol {
		tb.Errorf("%s = %s, want %v", name, v, want)
	}
}

// NullValue fails unless v is null with exactly the reason want.
func NullValue(tb testing.TB, name string, v metrics.Value, want string) {
	tb.Helper()
	if !v.IsNull() || v.Reason != want {
		tb.Errorf("%s = %s, want null (%s)", name, v, want)
	}
}

func fact(s, r, o string, passages ...int) Fact {
	return Fact{Subject: s, Relation: r, Object: o, Passages: passages}
}

func TestValidateQuestions(t *testing.T) {
	a := questionsAnswer{Questions: []string{" Who? ", "What?", "When?\n"}}
	if err := validateQuestions(&a); err != nil || a.Questions[0] != "Who?" || a.Questions[2] != "When?" {
		t.Errorf("OK: %v %q", err, a.Questions)
	}
	for name, qs := range map[string][]string{
		"TooFew":  {"a?", "b?"},
		"TooMany": {"a?", "b?", "c?", "d?"},
		"Empty":   {"a?", "  ", "c?"},
		"Missing": nil,
	} {
		if err := validateQuestions(&questionsAnswer{Questions: qs}); err == nil {
			t.Errorf("%s: %q accepted", name, qs)
		}
	}
}

func TestValidateFacts(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		a := factsAnswer{Facts: []wireFact{
			{Subject: "PharmaCann", Relation: "was founded in", Object: "2014", Passages: []int{2, 1, 2}},
			{Subject: " pharmacann ", Relation: "Was founded in", Object: "2014."}, // duplicate by key
			{Subject: "PharmaCann", Relation: "", Object: "Illinois"},              // empty field
			{Subject: "PharmaCann", Relation: "is headquartered in", Object: "Illinois"},
		}}
		if err := validateFacts(&a, 2); err != nil {
			t.Fatal(err)
		}
		got := a.facts()
		want := []Fact{fact("PharmaCann", "was founded in", "2014", 0, 1), fact("PharmaCann", "is headquartered in", "Illinois")}
		if len(got) != len(want) {
			t.Fatalf("facts %+v, want %+v", got, want)
		}
		for i := range want {
			if got[i].Text() != want[i].Text() || !equalInts(got[i].Passages, want[i].Passages) {
				t.Errorf("fact %d = %+v, want %+v", i, got[i], want[i])
			}
		}
		// Validation is idempotent: a cached answer validates again unchanged.
		if err := validateFacts(&a, 2); err != nil || len(a.facts()) != 2 {
			t.Errorf("second validation: %v", err)
		}
	})
	t.Run("Truncated", func(t *testing.T) {
		a := factsAnswer{Facts: make([]wireFact, maxFacts+3)}
		for i := range a.Facts {
			a.Facts[i] = wireFact{Subject: "s", Relation: "r", Object: strings.Repeat("o", i+1)}
		}
		if err := validateFacts(&a, -1); err != nil || len(a.facts()) != maxFacts {
			t.Errorf("%v, %d facts, want %d", err, len(a.facts()), maxFacts)
		}
	})
	for _, c := range []struct {
		name     string
		a        factsAnswer
		passages int
		want     string
	}{
		{"Missing", factsAnswer{}, 2, `missing "facts" list`},
		{"PassageTooHigh", factsAnswer{Facts: []wireFact{{Subject: "a", Relation: "b", Object: "c", Passages: []int{1, 3}}}}, 2,
			"fact 1 cites passage 3, want a number from 1 to 2"},
		{"PassageZero", factsAnswer{Facts: []wireFact{{Subject: "a", Relation: "b", Object: "c", Passages: []int{0}}}}, 2,
			"fact 1 cites passage 0, want a number from 1 to 2"},
		{"PassagesWithoutContexts", factsAnswer{Facts: []wireFact{{Subject: "a", Relation: "b", Object: "c", Passages: []int{1}}}}, -1,
			"fact 1 cites passages, but there are none"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := validateFacts(&c.a, c.passages)
			if err == nil || err.Error() != c.want {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
	t.Run("EmptyList", func(t *testing.T) {
		a := factsAnswer{Facts: []wireFact{}}
		if err := validateFacts(&a, 1); err != nil || len(a.facts()) != 0 || a.facts() == nil {
			t.Errorf("%v %v", err, a.facts())
		}
	})
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestValidateVerdicts(t *testing.T) {
	a := verdictsAnswer{Verdicts: []verdict{{Verdict: " Yes"}, {Verdict: "NO"}}}
	if err := validateVerdicts(&a, 2); err != nil || a.Verdicts[0].Verdict != "yes" || a.Verdicts[1].Verdict != "no" {
		t.Errorf("OK: %v %+v", err, a.Verdicts)
	}
	for _, c := range []struct {
		name string
		a    verdictsAnswer
		n    int
		want string
	}{
		{"TooFew", verdictsAnswer{Verdicts: []verdict{{Verdict: "yes"}}}, 2, "1 verdicts for 2 items, want one per item in order"},
		{"TooMany", verdictsAnswer{Verdicts: []verdict{{Verdict: "yes"}, {Verdict: "no"}}}, 1, "2 verdicts for 1 items, want one per item in order"},
		{"NotInSet", verdictsAnswer{Verdicts: []verdict{{Verdict: "yes"}, {Verdict: "maybe"}}}, 2, `verdict 2: "maybe" is not "yes" or "no"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := validateVerdicts(&c.a, c.n); err == nil || err.Error() != c.want {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

func TestValidateLabels(t *testing.T) {
	a := labelsAnswer{Labels: []label{{Match: 2, Label: "tp"}, {Label: " FN "}}}
	if err := validateLabels(&a, 2, 2); err != nil || a.Labels[0].Label != "TP" || a.Labels[1].Label != "FN" {
		t.Errorf("OK: %v %+v", err, a.Labels)
	}
	for _, c := range []struct {
		name       string
		labels     []label
		n, answers int
		want       string
	}{
		{"TooFew", []label{{Match: 1, Label: "TP"}}, 2, 1, "1 labels for 2 reference facts, want one per fact in order"},
		{"NotInSet", []label{{Match: 1, Label: "FP"}}, 1, 1, `label 1 is "FP", want "TP" or "FN"`},
		{"MatchOutOfRange", []label{{Match: 3, Label: "TP"}}, 1, 2, "label 1: match 3, want a number from 0 to 2"},
		{"NegativeMatch", []label{{Match: -1, Label: "FN"}}, 1, 2, "label 1: match -1, want a number from 0 to 2"},
		{"TPWithoutMatch", []label{{Match: 0, Label: "TP"}}, 1, 2, "label 1 is TP but matches no answer fact (match 0)"},
		{"FNWithMatch", []label{{Match: 2, Label: "FN"}}, 1, 2, "label 1 is FN but matches answer fact 2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := validateLabels(&labelsAnswer{Labels: c.labels}, c.n, c.answers); err == nil || err.Error() != c.want {
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}
}

func TestValidateClaims(t *testing.T) {
	a := claimsAnswer{Claims: []string{" a ", "", "b"}}
	if err := validateClaims(&a); err != nil || len(a.Claims) != 2 || a.Claims[0] != "a" {
		t.Errorf("OK: %v %q", err, a.Claims)
	}
	long := claimsAnswer{Claims: make([]string, maxClaims+2)}
	for i := range long.Claims {
		long.Claims[i] = "c"
	}
	if err := validateClaims(&long); err != nil || len(long.Claims) != maxClaims {
		t.Errorf("truncation: %v %d", err, len(long.Claims))
	}
	if err := validateClaims(&claimsAnswer{}); err == nil {
		t.Error("missing list accepted")
	}
}

func TestValidateRecall(t *testing.T) {
	a := recallAnswer{Statements: []statement{{Statement: "s1", Attributed: "YES"}, {Statement: " ", Attributed: "no"}, {Statement: "s2", Attributed: "no"}}}
	if err := validateRecall(&a); err != nil || len(a.Statements) != 2 || a.Statements[0].Attributed != "yes" {
		t.Errorf("OK: %v %+v", err, a.Statements)
	}
	if err := validateRecall(&recallAnswer{Statements: []statement{{Statement: "s", Attributed: "partly"}}}); err == nil ||
		err.Error() != `statement 1: attributed: "partly" is not "yes" or "no"` {
		t.Errorf("bad attribution: %v", err)
	}
	if err := validateRecall(&recallAnswer{}); err == nil {
		t.Error("missing list accepted")
	}
}

func TestValidateRubric(t *testing.T) {
	for _, s := range []float64{0, 0.25, 0.5, 0.75, 1} {
		if err := validateRubric(&rubricAnswer{Score: s}); err != nil {
			t.Errorf("%v: %v", s, err)
		}
	}
	for _, s := range []float64{0.3, -0.25, 1.25, 75} {
		if err := validateRubric(&rubricAnswer{Score: s}); err == nil {
			t.Errorf("%v accepted", s)
		}
	}
}

func TestValidateGEval(t *testing.T) {
	if err := validateGEval(&gevalAnswer{Correctness: 10, Completeness: 0, Consistency: 7}); err != nil {
		t.Error(err)
	}
	if err := validateGEval(&gevalAnswer{Correctness: 11, Completeness: 5, Consistency: 5}); err == nil {
		t.Error("correctness 11 accepted")
	}
	if err := validateGEval(&gevalAnswer{Correctness: 5, Completeness: -1, Consistency: 5}); err == nil {
		t.Error("completeness -1 accepted")
	}
}

func TestValidateClass(t *testing.T) {
	a := classAnswer{Class: " correct"}
	if err := validateClass(&a); err != nil || a.Class != "CORRECT" {
		t.Errorf("OK: %v %q", err, a.Class)
	}
	for _, c := range []string{"DONT_KNOW", "RIGHT", ""} {
		if err := validateClass(&classAnswer{Class: c}); err == nil {
			t.Errorf("%q accepted", c)
		}
	}
}

func TestScoreResponseRelevancy(t *testing.T) {
	ExactValue(t, "llm_response_relevancy", scoreResponseRelevancy([]GeneratedQuestion{{Cos: 0.25}, {Cos: 0.8}, {Cos: -0.5}}), 0.8)
	ExactValue(t, "all negative", scoreResponseRelevancy([]GeneratedQuestion{{Cos: -0.25}, {Cos: -0.5}}), -0.25)
	NullValue(t, "none", scoreResponseRelevancy(nil), "no questions generated")
}

func TestScoreFaithfulness(t *testing.T) {
	facts := []Fact{fact("a", "r", "b", 0), fact("c", "r", "d"), fact("e", "r", "f", 1), fact("g", "r", "h", 0, 1)}
	// Verdicts for the three facts that cite a passage, in order.
	v, x := scoreFaithfulness(facts, []verdict{{Verdict: "yes", Reason: "stated"}, {Verdict: "no", Reason: "absent"}, {Verdict: "yes"}})
	ExactValue(t, "llm_faithfulness", v, 0.5)
	if x.Supported != 2 || x.Total != 4 || !x.Facts[0].Supported || x.Facts[1].Supported || x.Facts[1].Reason != "no passage cited" ||
		x.Facts[2].Supported || x.Facts[2].Reason != "absent" || !x.Facts[3].Supported {
		t.Errorf("explanation %+v", x)
	}
	// No fact cites a passage: nothing to verify, all unsupported.
	v, _ = scoreFaithfulness([]Fact{fact("a", "r", "b")}, nil)
	ExactValue(t, "uncited", v, 0)
	v, _ = scoreFaithfulness(nil, nil)
	NullValue(t, "no facts", v, "no facts extracted from answer")
}

func TestScoreFaithfulnessValidation(t *testing.T) {
	facts := []Fact{fact("a", "r", "b", 0, 1), fact("c", "r", "d", 1), fact("e", "r", "f")}
	factVecs := [][]float32{{1, 0}, {0, 1}, {1, 1}}
	// cos(f0, p0) = 0.6, cos(f0, p1) = 0; cos(f1, p1) = 1; f2 cites none: 0.
	passageVecs := [][]float32{{3, 4}, {0, 2}}
	v, x := scoreFaithfulnessValidation(facts, factVecs, passageVecs)
	ExactValue(t, "faithfulness_validation", v, (0.6+1+0)/3)
	if math.Abs(x[0].Max-0.6) > tol || len(x[0].Cos) != 2 || x[0].Cos[1] != 0 || x[1].Max != 1 || x[2].Max != 0 || len(x[2].Cos) != 0 {
		t.Errorf("explanation %+v", x)
	}
	// The best of the cited passages, even when all are negative.
	v, _ = scoreFaithfulnessValidation([]Fact{fact("a", "r", "b", 0, 1)}, [][]float32{{1, 0}}, [][]float32{{-1, 0}, {-3, 4}})
	ExactValue(t, "negative", v, -0.6)
	v, _ = scoreFaithfulnessValidation(nil, nil, passageVecs)
	NullValue(t, "no facts", v, "no facts extracted from answer")
}

func TestScoreFactualCorrectness(t *testing.T) {
	ans := []Fact{fact("a", "r", "b")}
	ref := []Fact{fact("a", "r", "b"), fact("c", "r", "d"), fact("e", "r", "f")}
	v, x := scoreFactualCorrectness(ans, ref, []label{{Match: 1, Label: "TP"}, {Label: "FN"}, {Match: 1, Label: "TP"}})
	ExactValue(t, "llm_factual_correctness", v, 2.0/3)
	if x.TP != 2 || x.FN != 1 || x.ReferenceFacts[1].Label != "FN" || x.ReferenceFacts[1].Match != -1 ||
		x.ReferenceFacts[0].Match != 0 || x.ReferenceFacts[0].Matched != "a r b" {
		t.Errorf("explanation %+v", x)
	}
	v, _ = scoreFactualCorrectness(ans, nil, nil)
	NullValue(t, "no reference facts", v, "no facts extracted from reference")
}

func TestScoreFactualCorrectnessValidation(t *testing.T) {
	ref := []Fact{fact("a", "r", "b"), fact("c", "r", "d"), fact("e", "r", "f")}
	ans := []Fact{fact("x", "r", "y"), fact("z", "r", "w")}
	// cos(ref0, ans1) = 0.9 exactly (matched: >= 0.9); ref1 best 0.8; ref2 = ans0 exactly.
	// |(9,3,3,1)| = 10, so its cosine with (1,0,0,0) is 9/10 exactly.
	refVecs := [][]float32{{9, 3, 3, 1}, {8, 6, 0, 0}, {0, 1, 0, 0}}
	ansVecs := [][]float32{{0, 1, 0, 0}, {1, 0, 0, 0}}
	v, x := scoreFactualCorrectnessValidation(ref, ans, refVecs, ansVecs)
	if !x.Matches[0].Matched || x.Matches[0].BestIndex != 1 || x.Matches[1].Matched || !x.Matches[2].Matched || x.Matches[2].Best != "x r y" {
		t.Errorf("matches %+v", x.Matches)
	}
	ExactValue(t, "factual_correctness_validation", v, 2.0/3)
	if x.Threshold != 0.9 || x.Matched != 2 {
		t.Errorf("explanation %+v", x)
	}
	v, _ = scoreFactualCorrectnessValidation(ref, nil, refVecs, nil)
	NullValue(t, "no answer facts", v, "no facts extracted from answer")
	v, _ = scoreFactualCorrectnessValidation(nil, ans, nil, ansVecs)
	NullValue(t, "no reference facts", v, "no facts extracted from reference")
}

func TestScoreRagasFaithfulness(t *testing.T) {
	v, x := scoreRagasFaithfulness([]string{"a", "b", "c"}, []verdict{{Verdict: "yes"}, {Verdict: "no"}, {Verdict: "yes"}}, true)
	ExactValue(t, "ragas_faithfulness", v, 66.67)
	if x.Supported != 2 || x.Total != 3 || x.Claims[1].Supported {
		t.Errorf("explanation %+v", x)
	}
	v, x = scoreRagasFaithfulness([]string{}, nil, true)
	ExactValue(t, "no claims", v, 100)
	if x.Note != "the answer makes no claim" {
		t.Errorf("note %q", x.Note)
	}
	v, _ = scoreRagasFaithfulness(nil, nil, false)
	ExactValue(t, "no claims, no contexts", v, 100)
	v, x = scoreRagasFaithfulness([]string{"a"}, nil, false)
	ExactValue(t, "no contexts", v, 0)
	if x.Note != "no contexts: no claim can be supported" {
		t.Errorf("note %q", x.Note)
	}
}

func TestScoreContextRecall(t *testing.T) {
	v, x := scoreContextRecall([]statement{{Statement: "a", Attributed: "yes"}, {Statement: "b", Attributed: "no"}, {Statement: "c", Attributed: "no"}})
	ExactValue(t, "ragas_context_recall", v, 33.33)
	if x.Attributed != 1 || x.Total != 3 {
		t.Errorf("explanation %+v", x)
	}
	v, _ = scoreContextRecall(nil)
	ExactValue(t, "no statements", v, 100)
}

func TestScoreAnswerRelevance(t *testing.T) {
	ExactValue(t, "ragas_answer_relevance", scoreAnswerRelevance([]GeneratedQuestion{{Cos: 0.9}, {Cos: 0.8}, {Cos: 0.5}}), 73.33)
	ExactValue(t, "negative mean", scoreAnswerRelevance([]GeneratedQuestion{{Cos: 0.2}, {Cos: -0.5}}), 0)
	NullValue(t, "none", scoreAnswerRelevance(nil), "no questions generated")
}

func TestClassValue(t *testing.T) {
	ExactValue(t, "CORRECT", classValue(metrics.ClassCorrect), 1)
	ExactValue(t, "WRONG", classValue(metrics.ClassWrong), 0)
	ExactValue(t, "DONT_KNOW", classValue(metrics.ClassDontKnow), 0)
	c, ok := ClassOf(Result{Metric: metricreg.MetricAnswerClass, Explanation: ClassExplanation{Class: metrics.ClassWrong}})
	if !ok || c != metrics.ClassWrong {
		t.Errorf("ClassOf = %q, %v", c, ok)
	}
	if _, ok := ClassOf(Result{Metric: metricreg.MetricFaithfulness}); ok {
		t.Error("ClassOf of another metric")
	}
}

func TestPrompts(t *testing.T) {
	ps := Prompts()
	if len(ps) != 13 {
		t.Errorf("%d prompts: %v", len(ps), ps)
	}
	seen := map[string]bool{}
	for _, p := range ps {
		if seen[p] || !strings.Contains(p, ".v") {
			t.Errorf("prompt name %q repeated or without version", p)
		}
		seen[p] = true
	}
}
