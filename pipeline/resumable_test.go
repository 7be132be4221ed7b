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

// A resumed run keeps the community mode it started in: unset (recorded
// before the key existed) is louvain-per-graph, whatever the configuration
// says now (batch, the default since the batch community mode replaced
// louvain-per-graph).
func TestKeepCommunityMode(t *testing.T) {
	now := kgeval.RunSettings{Engine: "gds", Tau: 0.7, Communities: kgeval.CommunitiesBatch}
	for _, tc := range []struct {
		recorded *kgeval.RunSettings
		want     string
	}{
		{nil, kgeval.CommunitiesLouvainPerGraph},
		{&kgeval.RunSettings{Engine: "gds", Tau: 0.7}, kgeval.CommunitiesLouvainPerGraph},
		{&kgeval.RunSettings{Engine: "gds", Tau: 0.7, Communities: kgeval.CommunitiesLouvainPerGraph}, kgeval.CommunitiesLouvainPerGraph},
		{&kgeval.RunSettings{Engine: "gds", Tau: 0.7, Communities: kgeval.CommunitiesBatch}, kgeval.CommunitiesBatch},
	} {
		old := kgeval.Run{Name: "r", Config: "{}", Settings: tc.recorded}
		got := KeepCommunityMode(old, now)
		if got.Communities != tc.want || got.Tau != now.Tau {
			t.Errorf("recorded %+v: settings %+v, want communities %s", tc.recorded, got, tc.want)
		}
		if tc.recorded == nil {
			continue
		}
		if err := Resumable(old, kgeval.Run{Name: "r", Config: "{}", Settings: &got}); err != nil {
			t.Errorf("recorded %+v: resume with the kept mode refused: %v", tc.recorded, err)
		}
	}
}
