package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
)

// TestEvaluate_Shards runs `kgeval evaluate --shard i/n` workers as
// separate processes on the first 12 samples of WikiEval-50 (rule-read
// triplets, --cache-only: zero model calls) and compares each sharded run
// with a run of one process: `kgeval export` must be byte-identical.
//   - two workers at once on shards 0/2 and 1/2;
//   - a worker killed (SIGKILL) after its pair graphs are stored, the other
//     shard finished, then --resume --shard of the killed one: nothing lost
//     or doubled (the same export and the same node counts);
//   - the refusals: another n, --replace, a shard started twice.
func TestEvaluate_Shards(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	bin := filepath.Join(t.TempDir(), "kgeval")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ref, two, killed := mustRunName(t, db, "shard-ref"), mustRunName(t, db, "shard-two"), mustRunName(t, db, "shard-kill")
	// start runs kgeval with the test Neo4j, rules-only extraction and no
	// model call.
	start := func(args ...string) (*exec.Cmd, *bytes.Buffer) {
		cmd := exec.Command(bin, append(args, "--neo4j-uri", graphstoretest.URI())...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		// The default scoring.communities (batch): each graph's communities
		// are its own whichever worker scores it.
		cmd.Env = append(os.Environ(), "KGEVAL_NEO4J_PASSWORD="+graphstoretest.Password(), "KGEVAL_EXTRACTION_METHOD=rules", "KGEVAL_LLM_CACHE_ONLY=true")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, &out
	}
	eval := func(run string, extra ...string) (string, error) {
		cmd, out := start(append([]string{"evaluate", "--dataset", "../../testdata/wikieval50.jsonl", "--limit", "12", "--run", run, "--cache-only"}, extra...)...)
		err := cmd.Wait()
		return out.String(), err
	}
	export := func(run string) string {
		cmd, out := start("export", "--run", run)
		if err := cmd.Wait(); err != nil {
			t.Fatalf("export %s: %v\n%s", run, err, out)
		}
		return out.String()
	}
	if out, err := eval(ref); err != nil {
		t.Fatalf("single run: %v\n%s", err, out)
	}
	want, wantCounts := export(ref), graphstoretest.RunCounts(t, ref)

	// Two workers at once.
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out, err := eval(two, "--shard", fmt.Sprintf("%d/2", i)); err != nil {
				t.Errorf("worker %d/2: %v\n%s", i, err, out)
			}
		}()
	}
	wg.Wait()
	checkShardedRun(t, two, want, export(two), wantCounts)

	// The refusals.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--shard", "0/3"}, "every worker of a run must give the same n"},
		{[]string{"--shard", "0/2", "--replace"}, "--shard and --replace exclude each other"},
		{[]string{"--shard", "1/2"}, "add --resume to finish this shard"},
		{[]string{"--shard", "2/2"}, "want I/N with 0 <= I < N"},
	} {
		if out, err := eval(two, c.args...); err == nil || !strings.Contains(out, c.want) {
			t.Errorf("evaluate %v on a sharded run: %v, want an error saying %q; output:\n%s", c.args, err, c.want, tail(out, 3))
		}
	}
	if out, err := eval(ref, "--shard", "0/2"); err == nil || !strings.Contains(out, "not sharded") {
		t.Errorf("--shard on a run of one process: %v\n%s", err, tail(out, 3))
	}

	// A worker killed after its graphs are stored; the other shard
	// finishes; the run is still running; --resume of the killed shard
	// finishes the run.
	cmd, out := start("evaluate", "--dataset", "../../testdata/wikieval50.jsonl", "--limit", "12", "--run", killed, "--cache-only", "--shard", "0/2", "--kill-at", "store")
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || !ee.Sys().(syscall.WaitStatus).Signaled() {
		t.Fatalf("worker 0/2 was not killed (err %v); output:\n%s", err, out)
	}
	if o, err := eval(killed, "--shard", "1/2"); err != nil {
		t.Fatalf("worker 1/2: %v\n%s", err, o)
	}
	if r, err := db.GetRun(t.Context(), killed); err != nil || r.Status != kgeval.RunRunning {
		t.Errorf("run after one shard done and one killed: %+v %v, want running", r.Status, err)
	}
	if o, err := eval(killed, "--shard", "0/2", "--resume"); err != nil || !strings.Contains(o, "the run is done") {
		t.Fatalf("resume of shard 0/2: %v\n%s", err, o)
	}
	checkShardedRun(t, killed, want, export(killed), wantCounts)
}

// checkShardedRun compares a finished sharded run with the run of one
// process: its export, its node counts and its record.
func checkShardedRun(t *testing.T, run, want, got string, wantCounts map[string]int) {
	t.Helper()
	if got != want {
		t.Errorf("%s: export differs from the single run's (%d bytes, want %d)", run, len(got), len(want))
	}
	if counts := graphstoretest.RunCounts(t, run); fmt.Sprint(counts) != fmt.Sprint(wantCounts) {
		t.Errorf("%s: counts %v, single run %v", run, counts, wantCounts)
	}
	db := graphstoretest.MustOpenDB(t)
	r, err := db.GetRun(t.Context(), run)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != kgeval.RunDone || r.Samples != 12 || r.Shards != 2 || r.Calls == nil || r.Calls.Calls != 0 {
		t.Errorf("%s: record status %s, samples %d, shards %d, calls %+v; want done, 12, 2, no model call", run, r.Status, r.Samples, r.Shards, r.Calls)
	}
}
