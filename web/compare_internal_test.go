package web

import (
	"testing"

	"github.com/kgeval/kgeval/analysis"
)

func TestComparePairs(t *testing.T) {
	runs := []analysis.RunRow{{Name: "new"}, {Name: "mid"}, {Name: "old"}}
	for _, tc := range []struct{ a, b, wantA, wantB string }{
		{"", "", "mid", "new"},
		{"old", "", "old", "new"},
		{"", "new", "mid", "new"},
		{"", "mid", "new", "mid"},
		{"old", "mid", "old", "mid"},
		{"old", "old", "old", "old"},
	} {
		if a, b := comparePairs(runs, tc.a, tc.b); a != tc.wantA || b != tc.wantB {
			t.Errorf("comparePairs(%q, %q) = %q, %q; want %q, %q", tc.a, tc.b, a, b, tc.wantA, tc.wantB)
		}
	}
	if a, b := comparePairs(runs[:1], "", ""); a != "" || b != "" {
		t.Errorf("one run: %q %q", a, b)
	}
}

func TestShortText(t *testing.T) {
	if s, cut := shortText("héllo wörld", 5); s != "héllo…" || !cut {
		t.Errorf("shortText: %q %v", s, cut)
	}
	if s, cut := shortText("short", 5); s != "short" || cut {
		t.Errorf("shortText: %q %v", s, cut)
	}
}
