package metrics

import (
	"math"
	"strings"
	"testing"

	"github.com/kgeval/kgeval/lexical"
)

// TestKPrecision: hand-counted shares of the answer's content words found in
// the contexts.
func TestKPrecision(t *testing.T) {
	ctx := []string{"PharmaCann was founded in 2014 by Theodore Scott.", "Its headquarters are in Illinois."}
	for _, tc := range []struct {
		answer string
		want   float64 // -1: null
	}{
		// pharmacann founded 2014 theodore scott headquarters located illinois: 7 of 8 ("located").
		{"PharmaCann was founded in 2014 by Theodore Scott. Its headquarters is located in Illinois.", 7.0 / 8},
		// pharmacann founded 2010 theodore wolf: 3 of 5.
		{"PharmaCann was founded in 2010 by Theodore Wolf.", 3.0 / 5},
		// Repeated words count once, case folded.
		{"Founded, founded, FOUNDED.", 1},
		// Inflection: "headquarter" is "headquarters" with the "s" removed.
		{"The headquarter.", 1},
		// Only stop words.
		{"It was there.", -1},
		{"", -1},
	} {
		v := KPrecision(tc.answer, ctx)
		switch {
		case tc.want < 0 && v.V != nil:
			t.Errorf("%q: %v, want null", tc.answer, *v.V)
		case tc.want >= 0 && (v.V == nil || math.Abs(*v.V-tc.want) > 1e-9):
			t.Errorf("%q: %+v, want %v", tc.answer, v, tc.want)
		}
	}
	if _, missing := KPrecisionMissing("PharmaCann was founded in 2010 by Theodore Wolf.", []*lexical.Text{lexical.NewText(ctx[0]), lexical.NewText(ctx[1])}); strings.Join(missing, " ") != "2010 wolf" {
		t.Errorf("missing words %q, want 2010 wolf", missing)
	}
	if v := KPrecision("Founded in 2014.", nil); v.V != nil || v.Reason != "no contexts" {
		t.Errorf("no contexts: %+v", v)
	}
}
