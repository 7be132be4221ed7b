package runner_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/app"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/jobs"
	"github.com/kgeval/kgeval/jobs/jobstest"
	"github.com/kgeval/kgeval/runner"
)

// TestJobs_SharedRunner checks that the dashboard's jobs run on what the
// server built once: two jobs at once open no Neo4j driver (and so migrate
// nothing), load no encoder beyond the one NewJobs loaded, and read their
// upload once, in Start: each upload is removed as soon as its Start
// returns, and both jobs still end done with their scores (the memory
// budget a load is held to: jobs' TestBudget_File).
func TestJobs_SharedRunner(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	cfg, err := configs.Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Job plumbing, not the claims' model check (make factcheck measures
	// that): no claim question waits on the shared model server.
	cfg.Scoring.Verify = "off"
	cfg.Neo4j.URI, cfg.Neo4j.Password = graphstoretest.URI(), graphstoretest.Password()
	cfg.Scoring.Engine = "native"
	ctx := context.Background()
	opened, encoders := runner.Opened(), runner.Encoders()
	js, err := app.NewJobs(ctx, cfg, db, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer js.Close(30 * time.Second)
	if n := runner.Encoders() - encoders; n != 1 {
		t.Fatalf("NewJobs loaded %d encoders, want 1", n)
	}
	js.Delay = 50 * time.Millisecond // the two jobs overlap

	run := fmt.Sprintf("jobs-shared-%d", time.Now().UnixNano())
	var runs []string
	for i, n := range []int{30, 40} {
		up, err := js.Upload(ctx, jobs.Caller{}, "shared.jsonl", -1, strings.NewReader(jobstest.TripletRecords(n, false)))
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%s-%d", run, i)
		t.Cleanup(func() { _ = db.DeleteRun(context.Background(), name) })
		if _, err := js.Start(ctx, jobs.Caller{}, jobs.Request{Upload: up.ID, Run: name, Engine: "native"}); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(js.Dir, up.ID)); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, name)
	}
	for i, name := range runs {
		v := jobstest.WaitJob(t, js, name, func(v jobs.Job) bool { return !v.Live })
		scores, err := db.RunScores(ctx, name, kgeval.DefaultVariant)
		t.Logf("job %d: %s, %d samples scored (its upload removed once started)", i, v.Status, len(scores))
		if v.Status != kgeval.RunDone || err != nil || len(scores) != v.Samples {
			t.Errorf("job %s: %+v, %d scores, %v", name, v, len(scores), err)
		}
	}
	t.Logf("two jobs: %d Neo4j drivers opened, %d encoders loaded after NewJobs's one", runner.Opened()-opened, runner.Encoders()-encoders-1)
	if n := runner.Opened() - opened; n != 0 {
		t.Errorf("two jobs opened %d Neo4j drivers, want 0 (the server's)", n)
	}
	if n := runner.Encoders() - encoders; n != 1 {
		t.Errorf("two jobs loaded %d encoders in all, want the 1 NewJobs loaded", n)
	}
}
