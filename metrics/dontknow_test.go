package metrics_test

import (
	"testing"

	"github.com/kgeval/kgeval/metrics"
)

func TestDontKnow(t *testing.T) {
	for _, c := range []struct {
		answer string
		want   string // the matched phrase; "" for no match
	}{
		// Each SPEC phrase.
		{"I don't know.", "i don't know"},
		{"I DO NOT KNOW the answer", "i do not know"},
		{"The author of the poem is unknown.", "unknown"},
		{"I'm not sure, maybe 1912?", "not sure"},
		{"We cannot determine this from the passages.", "cannot determine"},
		{"There is no information about his wife.", "no information"},
		{"Insufficient data to answer the question.", "insufficient data"},
		{"Sorry, I am unable to answer that.", "unable to answer"},
		{"I cannot answer this question.", "cannot answer"},
		{"I don't have enough information to say.", "don't have enough information"},
		{"The figure is not available in the context.", "not available"},
		{"No data.", "no data"},
		// Apostrophe variants, case and white space.
		{"I don’t know", "i don't know"},
		{"i don‘t KNOW", "i don't know"},
		{"I donʼt know", "i don't know"},
		{"I  don't\n\tknow", "i don't know"},
		{"I don’t have enough information.", "don't have enough information"},
		{"(UNKNOWN)", "unknown"},
		// The short-answer rule.
		{"None", "none"},
		{"none.", "none"},
		{"N/A", "n/a"},
		{"n/a", "n/a"},
		{"NULL!", "null"},
		{"  none   ", "none"},  // 4 characters once trimmed
		{"none, sir", "none"},  // 9 characters
		{"Unknown", "unknown"}, // the phrase list comes first
		{"null/none", "none"},  // list order: none before null
		// Near misses.
		{"None of the above is wrong because the river is longer.", ""},
		{"none, sir!", ""}, // exactly 10 characters: not under 10
		{"I know", ""},
		{"I know the answer: Paris.", ""},
		{"Paris", ""},
		{"", ""},
		{"Nonet", ""},     // short, but "none" is not a word here
		{"nullified", ""}, // short, but "null" is not a word here
		{"It is in no database.", ""},
		{"The unknowns were solved.", ""},
		{"I am sure it is 42.", ""},
		{"Null hypothesis rejected at p < 0.05", ""}, // long: short rule does not apply
	} {
		t.Run(c.answer, func(t *testing.T) {
			ok, phrase := metrics.DontKnow(c.answer)
			if ok != (c.want != "") || phrase != c.want {
				t.Errorf("DontKnow(%q) = %v, %q; want %v, %q", c.answer, ok, phrase, c.want != "", c.want)
			}
		})
	}
}
