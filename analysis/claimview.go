package analysis

import (
	"fmt"
	"strings"

	"github.com/kgeval/kgeval"
)

// ClaimView is one claim check as `kgeval explain` and the dashboard's
// sample page show it: the stored check, the model's answer in words, its
// signals by name and its evidence sentences with where they come from.
// Both format this one view (render.Explain, the sample page), so they say
// the same things in the same words.
type ClaimView struct {
	kgeval.ClaimCheck
	// ModelText is the model's answer in words ("model P(supported) 0.83",
	// "model answer 1 (no logprobs)", "model check failed: ..."); "" when
	// the model was not asked.
	ModelText string
	// Signals are the claim's signals that a reader can check by eye, in
	// ClaimSignalNames order, those it has.
	Signals []ClaimSignal
	// Evidence are its evidence sentences, best first.
	Evidence []ClaimEvidence
}

// ClaimSignal is one named signal of a claim (kgeval.ClaimCheck.Features).
type ClaimSignal struct {
	Label string
	Value float64
}

// ClaimEvidence is one evidence sentence of a claim: Where names the
// passage or the other text (Where), Why what in the pair graph chose it.
type ClaimEvidence struct {
	Where, Text, Why string
	Weight           float64
}

// ClaimSignalNames are the features a ClaimView shows, with their words.
var ClaimSignalNames = []struct{ Feature, Label string }{
	{kgeval.FeatureOverlap, "words"}, {kgeval.FeatureAtoms, "names and values"},
	{kgeval.FeatureSupport, "triplets supported"}, {kgeval.FeatureReach, "entities reached"},
}

// Where names where a text of a sample comes from in the words every view
// uses: "passage N" (1-based) for a retrieved passage, else the text's
// kind ("reference", "answer").
func Where(text kgeval.Text, passage int) string {
	if text == kgeval.TextContexts {
		return fmt.Sprintf("passage %d", passage+1)
	}
	return string(text)
}

// NewClaimViews are the views of a pair's claims cs, lowest score first
// (ClaimsWorstFirst); context is the pair's other side, which names the
// evidence's texts.
func NewClaimViews(context kgeval.Text, cs []kgeval.ClaimCheck) []ClaimView {
	out := make([]ClaimView, 0, len(cs))
	for _, i := range ClaimsWorstFirst(cs) {
		c := cs[i]
		v := ClaimView{ClaimCheck: c}
		switch {
		case c.Model != nil && c.Model.Fallback:
			v.ModelText = fmt.Sprintf("model answer %.0f (no logprobs)", c.Model.P)
		case c.Model != nil:
			v.ModelText = fmt.Sprintf("model P(supported) %.2f", c.Model.P)
		case c.ModelError != "":
			v.ModelText = "model check failed: " + c.ModelError
		}
		for _, s := range ClaimSignalNames {
			if x, ok := c.Features[s.Feature]; ok {
				v.Signals = append(v.Signals, ClaimSignal{Label: s.Label, Value: x})
			}
		}
		for _, e := range c.Evidence {
			text := context
			if e.Passage < 0 { // the reference (claims.Passage index -1)
				text = kgeval.TextReference
			}
			v.Evidence = append(v.Evidence, ClaimEvidence{Where: Where(text, e.Passage), Text: e.Text, Why: strings.Join(e.Why, "; "), Weight: e.Weight})
		}
		out = append(out, v)
	}
	return out
}

// SignalText is the view's signals as "label 0.00" joined by sep.
func (v ClaimView) SignalText(sep string) string {
	s := make([]string, len(v.Signals))
	for i, x := range v.Signals {
		s[i] = fmt.Sprintf("%s %.2f", x.Label, x.Value)
	}
	return strings.Join(s, sep)
}
