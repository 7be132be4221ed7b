package graphstore

import (
	"testing"

	"github.com/kgeval/kgeval"
)

func TestNodeUID(t *testing.T) {
	if got := nodeUID(kgeval.GraphID("r", "s", "p"), 12); got != "r\x1fs\x1fp\x1f12" {
		t.Errorf("nodeUID: %q", got)
	}
}
