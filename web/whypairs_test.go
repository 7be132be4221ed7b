package web

import (
	"slices"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// TestWhyPairs: the pair with the worst line comes first, pairs without a
// line last, in the run's order; scores that do not apply are left out.
func TestWhyPairs(t *testing.T) {
	na := kgeval.ReasonNotApplicable + "only against the reference"
	score := func(pair string, vs ...kgeval.TripletVerdict) *readmodel.StoredScore {
		return &readmodel.StoredScore{KGResult: kgeval.KGResult{Pair: pair, Verdicts: vs,
			Reasons: map[string]string{metricreg.MetricRecall: na, metricreg.MetricF1: na}}.With(metricreg.MetricSupport, kgeval.Float(0.5))}
	}
	pair := func(name string, input kgeval.Text, s *readmodel.StoredScore) readmodel.PairDetail {
		return readmodel.PairDetail{Pair: kgeval.Pair{Name: name, Input: input, Context: kgeval.TextContexts}, Score: s}
	}
	d := &readmodel.SampleDetail{ID: "s", Answer: "a", Contexts: []string{"c"}, Pairs: []readmodel.PairDetail{
		pair("context_relevancy", kgeval.TextQuestion, score("context_relevancy", kgeval.TripletVerdict{Subject: "q", Relation: "r", Object: "?", Asked: true, Verdict: kgeval.VerdictUnanswered})),
		pair("faithfulness", kgeval.TextAnswer, score("faithfulness",
			kgeval.TripletVerdict{Node: 1, Subject: "a", Relation: "r", Object: "b", Verdict: kgeval.VerdictSupported},
			kgeval.TripletVerdict{Node: 2, Subject: "a", Relation: "s", Object: "c", Verdict: kgeval.VerdictContradicted})),
		pair("factual_correctness", kgeval.TextAnswer, score("factual_correctness")),
		pair("answer_relevancy", kgeval.TextQuestion, nil),
	}}
	got := whyPairs(analysis.NewSampleView(d))
	var names []string
	for _, p := range got {
		names = append(names, p.Pair.Name)
	}
	if want := []string{"faithfulness", "context_relevancy", "factual_correctness"}; !slices.Equal(names, want) {
		t.Fatalf("pairs %v, want %v", names, want)
	}
	if l := got[0].Lines; len(l) != 2 || l[0].Class != kgeval.VerdictContradicted || l[0].Label != "contradicted" || l[1].Class != kgeval.VerdictSupported {
		t.Errorf("faithfulness lines: %+v", l)
	}
	for _, s := range got[0].Scores {
		if s.Metric == metricreg.MetricRecall || s.Metric == metricreg.MetricF1 {
			t.Errorf("%s shown, which does not apply", s.Metric)
		}
	}
	if s := got[0].Scores; len(s) == 0 || s[0].Metric != metricreg.MetricSupport || *s[0].Value != 0.5 {
		t.Errorf("scores: %+v", s)
	}
	if p := got[2]; len(p.Lines) != 0 || len(p.Scores) == 0 {
		t.Errorf("a pair with scores and no line: %+v", p)
	}
}

// TestWhyPairs_Checks: the atom checks and typed clauses of a pair reach the
// page, failed first, with their evidence sentence cut from the context.
func TestWhyPairs_Checks(t *testing.T) {
	ctx := "PharmaCann was founded in 2014. It is based in Illinois."
	d := &readmodel.SampleDetail{ID: "s", Question: "When was it founded?", Answer: "It was founded in 2010 in Illinois.", Contexts: []string{ctx},
		Pairs: []readmodel.PairDetail{
			{Pair: kgeval.Pair{Name: "faithfulness", Input: kgeval.TextAnswer, Context: kgeval.TextContexts}, Score: &readmodel.StoredScore{KGResult: kgeval.KGResult{
				Pair: "faithfulness", Atoms: []kgeval.AtomCheck{
					{Text: "Illinois", Kind: "name", Stated: true, Evidence: &kgeval.Evidence{Node: -1, Passage: 0, Start: 32, End: len(ctx)}},
					{Text: "2010", Kind: "date"},
				}}.With(metricreg.MetricAtomSupport, kgeval.Float(0.5))}},
			{Pair: kgeval.Pair{Name: "answer_relevancy", Input: kgeval.TextQuestion, Context: kgeval.TextAnswer}, Score: &readmodel.StoredScore{KGResult: kgeval.KGResult{
				Pair: "answer_relevancy", TypedSlots: []kgeval.TypedSlotCheck{
					{Clause: "When was it founded?", Want: "date", Answered: true, Value: "2010", Evidence: &kgeval.Evidence{Node: -1, Passage: -1, Start: 0, End: 35}},
				}}.With(metricreg.MetricTypedSlotCoverage, kgeval.Float(1))}},
		}}
	v := analysis.NewSampleView(d)
	if len(v.Checks) != 3 {
		t.Fatalf("checks %+v, want 3", v.Checks)
	}
	got := whyPairs(v)
	if len(got) != 2 {
		t.Fatalf("pairs %+v", got)
	}
	for _, p := range got {
		switch p.Pair.Name {
		case "faithfulness":
			if a := p.Atoms; len(a) != 2 || a[0].Item != "2010" || a[0].OK || a[1].Item != "Illinois" || !a[1].OK || a[1].Sentence != "It is based in Illinois." || a[1].Source != "passage 1" {
				t.Errorf("atoms %+v: want 2010 not stated first, then Illinois with its sentence", a)
			}
		case "answer_relevancy":
			if s := p.Slots; len(s) != 1 || !s[0].OK || s[0].Value != "2010" || s[0].Sentence != "It was founded in 2010 in Illinois." || s[0].Source != "answer" {
				t.Errorf("slots %+v", s)
			}
		}
	}
}
