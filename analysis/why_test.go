package analysis_test

import (
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
)

func TestWhyLines(t *testing.T) {
	ctx0 := "Acme is a maker of anvils. Acme was founded in 2010 in Ohio. It sells to coyotes."
	ctx1 := "The firm has 40 staff."
	span := func(text, sentence string) (int, int) {
		i := strings.Index(text, sentence)
		if i < 0 {
			t.Fatalf("%q not in %q", sentence, text)
		}
		return i, i + len(sentence)
	}
	texts := analysis.SampleTexts{Question: "When was Acme founded?", Answer: "Acme was founded in 2014. It has 40 staff.",
		Reference: "Acme was founded in 2010.", Contexts: []string{ctx0, ctx1}}
	faith := kgeval.Pair{Name: "faithfulness", Input: kgeval.TextAnswer, Context: kgeval.TextContexts}
	fact := kgeval.Pair{Name: "factual_correctness", Input: kgeval.TextAnswer, Context: kgeval.TextReference}
	s0, e0 := span(ctx0, "Acme was founded in 2010 in Ohio.")
	s1, e1 := span(ctx1, "The firm has 40 staff.")
	results := map[string]kgeval.KGResult{
		faith.Name: {Verdicts: []kgeval.TripletVerdict{
			{Node: 1, Subject: "Acme", Relation: "makes", Object: "anvils", Verdict: kgeval.VerdictSupported,
				Evidence: &kgeval.Evidence{Subject: "Acme", Relation: "is a maker of", Object: "anvils", Passage: 0, Start: 0, End: 26}},
			// Not found by the graph; the sentence check finds it stated.
			{Node: 4, Subject: "Acme", Relation: "has", Object: "40 staff", Verdict: kgeval.VerdictNotFound,
				Text: kgeval.VerdictSupported, TextEvidence: &kgeval.Evidence{Node: -1, Passage: 1, Start: s1, End: e1}},
			{Node: 7, Subject: "Acme", Relation: "was founded in", Object: "2014", Verdict: kgeval.VerdictContradicted,
				Evidence: &kgeval.Evidence{Subject: "Acme", Relation: "was founded in", Object: "2010", Passage: 0, Start: s0, End: e0}},
			// Not found anywhere; the model says it is contradicted.
			{Node: 10, Subject: "Acme", Relation: "sells to", Object: "roadrunners", Verdict: kgeval.VerdictNotFound,
				Model: kgeval.VerdictContradicted, ModelReason: "the context says coyotes"},
			{Node: 13, Subject: "Acme", Relation: "is in", Object: "Utah", Verdict: kgeval.VerdictNotFound},
		}},
		fact.Name: {Verdicts: []kgeval.TripletVerdict{
			{Node: 1, Subject: "Acme", Relation: "was founded in", Object: "2014", Verdict: kgeval.VerdictNotFound,
				Text: kgeval.VerdictContradicted, TextEvidence: &kgeval.Evidence{Node: -1, Passage: -1, Start: 0, End: 25}},
		}},
	}
	lines := analysis.WhyLines(texts, []kgeval.Pair{faith, fact}, results)

	type row struct{ pair, triplet, verdict, outcome, source, sentence string }
	want := []row{
		{"faithfulness", "(Acme; was founded in; 2014)", "contradicted", "contradicted", "passage 1", "Acme was founded in 2010 in Ohio."},
		{"faithfulness", "(Acme; sells to; roadrunners)", "not_found", "not_found", "", ""},
		{"factual_correctness", "(Acme; was founded in; 2014)", "contradicted (sentence)", "contradicted", "reference", "Acme was founded in 2010."},
		{"faithfulness", "(Acme; is in; Utah)", "not_found", "not_found", "", ""},
		{"faithfulness", "(Acme; makes; anvils)", "supported", "supported", "passage 1", "Acme is a maker of anvils."},
		{"faithfulness", "(Acme; has; 40 staff)", "supported (sentence)", "supported", "passage 2", "The firm has 40 staff."},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d: %+v", len(lines), len(want), lines)
	}
	for i, w := range want {
		l := lines[i]
		got := row{l.Pair, l.Triplet, l.Verdict, l.Outcome(), l.Source, l.Sentence}
		if got != w {
			t.Errorf("line %d: got %+v, want %+v", i, got, w)
		}
	}
	t.Run("Evidence", func(t *testing.T) {
		con := lines[0]
		if con.Evidence != "(Acme; was founded in; 2010)" || con.Before != "Acme is a maker of anvils. " || con.After != " It sells to coyotes." {
			t.Errorf("contradiction evidence: %+v", con)
		}
		if m := lines[1]; m.Model != kgeval.VerdictContradicted || m.ModelReason != "the context says coyotes" || m.Evidence != "" {
			t.Errorf("model verdict: %+v", m)
		}
		// A sentence has no evidence triplet, only its text.
		if s := lines[5]; s.Text != kgeval.VerdictSupported || s.Evidence != "" || s.Before != "" || s.After != "" {
			t.Errorf("sentence evidence: %+v", s)
		}
	})
	// An unanswered asked fact shows the answer triplet that matched it but
	// filled nothing new, with its sentence.
	t.Run("Unfilled", func(t *testing.T) {
		rel := kgeval.Pair{Name: "answer_relevancy", Input: kgeval.TextQuestion, Context: kgeval.TextAnswer}
		got := analysis.WhyLines(texts, []kgeval.Pair{rel}, map[string]kgeval.KGResult{rel.Name: {Verdicts: []kgeval.TripletVerdict{
			{Node: 1, Subject: "Acme", Relation: "founded in", Object: kgeval.Slot, Asked: true, Verdict: kgeval.VerdictUnanswered,
				Unfilled: &kgeval.Evidence{Subject: "Acme", Relation: "was founded in", Object: "Acme", Passage: -1, Start: 0, End: 25}},
		}}})
		if len(got) != 1 || !got[0].Unfilled || got[0].Evidence != "(Acme; was founded in; Acme)" || got[0].Source != "answer" ||
			got[0].Sentence != "Acme was founded in 2014." || got[0].Verdict != kgeval.VerdictUnanswered {
			t.Errorf("unfilled asked fact: %+v", got)
		}
	})
	// A typed asked fact answered through another relation says so; one
	// answered through a matching relation does not.
	t.Run("ByType", func(t *testing.T) {
		rel := kgeval.Pair{Name: "answer_relevancy", Input: kgeval.TextQuestion, Context: kgeval.TextAnswer}
		got := analysis.WhyLines(texts, []kgeval.Pair{rel}, map[string]kgeval.KGResult{rel.Name: {Verdicts: []kgeval.TripletVerdict{
			{Node: 1, Subject: "Acme", Relation: "founding date", Object: kgeval.Slot, Asked: true, Want: "date", Verdict: kgeval.VerdictAnswered,
				Evidence: &kgeval.Evidence{Subject: "Acme", Relation: "was set up in", Object: "2014", Passage: -1, Start: 0, End: 25, ByType: true}},
			{Node: 2, Subject: "Acme", Relation: "founded in", Object: kgeval.Slot, Asked: true, Want: "date", Verdict: kgeval.VerdictAnswered,
				Evidence: &kgeval.Evidence{Subject: "Acme", Relation: "was founded in", Object: "2014", Passage: -1, Start: 0, End: 25, Weight: 0.9}},
		}}})
		if len(got) != 2 || !got[0].ByType || got[0].Want != "date" || got[1].ByType || got[1].Want != "date" {
			t.Errorf("typed asked facts: %+v", got)
		}
	})
	t.Run("NoResult", func(t *testing.T) {
		if got := analysis.WhyLines(texts, []kgeval.Pair{{Name: "answer_relevancy"}}, results); len(got) != 0 {
			t.Errorf("a pair without a result: %+v", got)
		}
	})
}

func TestExcerpt(t *testing.T) {
	long := strings.Repeat("x", 300)
	for _, tc := range []struct {
		text                string
		start, end, n       int
		before, span, after string
	}{
		{"One. Two. Three.", 5, 9, 160, "One. ", "Two.", " Three."},
		{long + "Mid." + long, 300, 304, 5, "…xxxxx", "Mid.", "xxxxx…"},
		// A span cut inside a rune widens to whole runes.
		{"a é b", 3, 4, 160, "a ", "é", " b"},
		{"short", 2, 1, 160, "", "", ""},
		{"short", 0, 99, 160, "", "", ""},
		{"short", -1, 2, 160, "", "", ""},
	} {
		b, s, a := analysis.Excerpt(tc.text, tc.start, tc.end, tc.n)
		if b != tc.before || s != tc.span || a != tc.after {
			t.Errorf("Excerpt(%.20q, %d, %d): %q %q %q, want %q %q %q", tc.text, tc.start, tc.end, b, s, a, tc.before, tc.span, tc.after)
		}
	}
}
