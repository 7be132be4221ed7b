package pipeline

import (
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
)

// A run recorded before scoring.communities existed ran per-graph Louvain:
// it resumes under louvain-per-graph and is refused under batch, whose
// communities differ.
func TestResumable_CommunityMode(t *testing.T) {
	old := kgeval.Run{Name: "r", Config: "{}", Settings: &kgeval.RunSettings{Engine: "gds", Tau: 0.7}}
	now := func(mode string) kgeval.Run {
		return kgeval.Run{Name: "r", Config: "{}", Settings: &kgeval.RunSettings{Engine: "gds", Tau: 0.7, Communities: mode}}
	}
	if err := Resumable(old, now(kgeval.CommunitiesLouvainPerGraph)); err != nil {
		t.Fatalf("unset against louvain-per-graph: %v", err)
	}
	err := Resumable(old, now(kgeval.CommunitiesBatch))
	if kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.Contains(err.Error(), "batch") {
		t.Fatalf("unset against batch: got %v, want EINVALID naming batch", err)
	}
}
