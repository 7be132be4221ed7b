package render

import (
	"bytes"
	"strings"
	"testing"
)

// TestProgressBars_TotalChanges: a stage whose total grows as it learns
// its work (atomic claims: the splits, then every fact) ends at its last
// total, not past a bar sized for the first.
func TestProgressBars_TotalChanges(t *testing.T) {
	var b bytes.Buffer
	p := progressBars(&b)
	p("claims", 0, 5)
	p("claims", 5, 5+20)
	p("claims", 25, 25)
	out := b.String()
	if !strings.Contains(out, "25/25") || strings.Contains(out, "/5 ") {
		t.Errorf("bars: %q; want the last total 25/25", out)
	}
}
