package web

import "testing"

func TestShortText(t *testing.T) {
	if s, cut := shortText("héllo wörld", 5); s != "héllo…" || !cut {
		t.Errorf("shortText: %q %v", s, cut)
	}
	if s, cut := shortText("short", 5); s != "short" || cut {
		t.Errorf("shortText: %q %v", s, cut)
	}
}
