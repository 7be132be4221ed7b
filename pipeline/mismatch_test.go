package pipeline_test

import (
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/pipeline"
)

// TestResumable checks that a run of other data or settings is refused
// with a MismatchError whose message states what changed and names no
// flag (the dashboard shows it; the command line adds its advice).
func TestResumable(t *testing.T) {
	old := kgeval.Run{Name: "r", Fingerprint: "aaaaaaaaaaaaaaaa", LLM: "m", Encoder: "e", Engine: "gds"}
	if err := pipeline.Resumable(old, old); err != nil {
		t.Fatalf("same run: %v", err)
	}
	for _, c := range []struct {
		name string
		now  func(r kgeval.Run) kgeval.Run
		want string
	}{
		{"Dataset", func(r kgeval.Run) kgeval.Run { r.Fingerprint = "bbbbbbbbbbbbbbbb"; return r }, `cannot resume run "r": the dataset changed (sha256 aaaaaaaaaaaa, now bbbbbbbbbbbb)`},
		{"Engine", func(r kgeval.Run) kgeval.Run { r.Engine = "native"; return r }, `cannot resume run "r": engine was gds, now native`},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := pipeline.Resumable(old, c.now(old))
			if !pipeline.IsMismatch(err) || kgeval.ErrorCode(err) != kgeval.EINVALID {
				t.Fatalf("err %v (code %s), want a MismatchError with code %s", err, kgeval.ErrorCode(err), kgeval.EINVALID)
			}
			if got := kgeval.ErrorMessage(err); got != c.want || strings.Contains(got, "--") {
				t.Errorf("message %q, want %q", got, c.want)
			}
		})
	}
}
