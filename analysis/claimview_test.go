package analysis_test

import (
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
)

// TestNewClaimViews checks the one claim view render and web format: worst
// first, the model's answer and the signals in words, and the evidence's
// location in the words every view uses.
func TestNewClaimViews(t *testing.T) {
	cs := []kgeval.ClaimCheck{
		{Text: "good", Score: 0.9, Model: &kgeval.ClaimProb{P: 0.88}, Features: map[string]float64{kgeval.FeatureAtoms: 1, kgeval.FeatureOverlap: 0.75, kgeval.FeaturePairs: 0.5},
			Evidence: []kgeval.ClaimEvidence{{Passage: 1, Text: "s", Why: []string{"a", "b"}}, {Passage: -1, Text: "r"}}},
		{Text: "bad", Score: 0.1, ModelError: "timeout"},
		{Text: "guess", Score: 0.5, Model: &kgeval.ClaimProb{P: 1, Fallback: true}},
	}
	vs := analysis.NewClaimViews(kgeval.TextContexts, cs)
	if len(vs) != 3 || vs[0].Text != "bad" || vs[1].Text != "guess" || vs[2].Text != "good" {
		t.Fatalf("order %v, want bad, guess, good", vs)
	}
	if vs[0].ModelText != "model check failed: timeout" || vs[1].ModelText != "model answer 1 (no logprobs)" || vs[2].ModelText != "model P(supported) 0.88" {
		t.Errorf("model texts %q, %q, %q", vs[0].ModelText, vs[1].ModelText, vs[2].ModelText)
	}
	if got := vs[2].SignalText(", "); got != "words 0.75, names and values 1.00" {
		t.Errorf("signals %q", got)
	}
	ev := vs[2].Evidence
	if len(ev) != 2 || ev[0].Where != "passage 2" || ev[0].Why != "a; b" || ev[1].Where != "reference" {
		t.Errorf("evidence %+v", ev)
	}
	for _, tc := range []struct {
		text    kgeval.Text
		passage int
		want    string
	}{{kgeval.TextContexts, 0, "passage 1"}, {kgeval.TextReference, -1, "reference"}, {kgeval.TextAnswer, 0, "answer"}} {
		if got := analysis.Where(tc.text, tc.passage); got != tc.want {
			t.Errorf("Where(%s, %d) = %q, want %q", tc.text, tc.passage, got, tc.want)
		}
	}
}
