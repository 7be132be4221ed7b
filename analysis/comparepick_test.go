package analysis

import "testing"

func TestPickCompared(t *testing.T) {
	runs := []RunRow{{Name: "new"}, {Name: "mid"}, {Name: "old"}}
	for _, tc := range []struct{ a, b, wantA, wantB string }{
		{"", "", "mid", "new"},
		{"old", "", "old", "new"},
		{"", "new", "mid", "new"},
		{"", "mid", "new", "mid"},
		{"old", "mid", "old", "mid"},
		{"old", "old", "old", "old"},
	} {
		if a, b := PickCompared(runs, tc.a, tc.b); a != tc.wantA || b != tc.wantB {
			t.Errorf("PickCompared(%q, %q) = %q, %q; want %q, %q", tc.a, tc.b, a, b, tc.wantA, tc.wantB)
		}
	}
	if a, b := PickCompared(runs[:1], "", ""); a != "" || b != "" {
		t.Errorf("one run: %q %q", a, b)
	}
}
