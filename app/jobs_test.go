package app_test

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
)

// TestJobs uploads a dataset with a broken record (listed by number and
// reason), starts a job on it against the real Neo4j, watches its progress
// advance, cancels it (the run is stored as interrupted), resumes it to
// done with Evaluate's Resume, and deletes the run.
func TestJobs(t *testing.T) {
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
	js, err := app.NewJobs(ctx, cfg, db, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer js.Close(30 * time.Second)
	js.Delay = 300 * time.Millisecond

	up, err := js.Upload(ctx, jobs.Caller{}, "data.jsonl", -1, strings.NewReader(jobstest.TripletRecords(600, true)))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("upload: %d records, %d valid, rejected %+v", up.Records, up.Valid, up.Rejected)
	if up.Records != 601 || up.Valid != 600 || len(up.Rejected) != 1 || up.Rejected[0].Record != 601 || up.Rejected[0].Reason == "" {
		t.Fatalf("upload %+v", up)
	}
	if _, err := os.Stat(filepath.Join(js.Dir, up.ID)); err != nil {
		t.Fatal(err)
	}
	many, err := js.Upload(ctx, jobs.Caller{}, "many.jsonl", -1, strings.NewReader(jobstest.TripletRecords(1, false)+strings.Repeat(`{"id": "x"}`+"\n", 1500)))
	if err != nil || many.RejectedTotal != 1500 || len(many.Rejected) != jobs.MaxRejectedListed || many.Rejected[0].Record != 2 {
		t.Errorf("1,500 rejected records: total %d, %d listed, %v", many.RejectedTotal, len(many.Rejected), err)
	}
	// An upload older than jobs.UploadTTL that no run evaluates is removed
	// when a server starts; a recent one is kept.
	old := filepath.Join(js.Dir, strings.Repeat("0", 32)+".jsonl")
	if err := os.WriteFile(old, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	week := time.Now().Add(-jobs.UploadTTL - time.Hour)
	os.Chtimes(old, week, week)
	if _, err := app.NewJobs(ctx, cfg, db, js.Dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("old upload %s kept: %v", old, err)
	}
	if _, err := os.Stat(filepath.Join(js.Dir, up.ID)); err != nil {
		t.Errorf("recent upload removed: %v", err)
	}
	if _, err := js.Upload(ctx, jobs.Caller{}, "../../etc/x.sh", -1, strings.NewReader("x")); kgeval.ErrorCode(err) != kgeval.EINVALID {
		t.Errorf("upload of a .sh: %v", err)
	}
	bad, err := js.Upload(ctx, jobs.Caller{}, "bad.jsonl", -1, strings.NewReader(`{"id": "x"}`+"\nnot json\n"))
	if err != nil || bad.ID != "" || bad.Valid != 0 || len(bad.Rejected) != 2 {
		t.Errorf("upload with no valid record: %+v %v", bad, err)
	}

	run := fmt.Sprintf("jobs-test-%d", time.Now().UnixNano())
	t.Cleanup(func() { _ = db.DeleteRun(context.Background(), run) })
	if _, err := js.Start(ctx, jobs.Caller{}, jobs.Request{Upload: "../x.jsonl", Run: run, Engine: "native"}); kgeval.ErrorCode(err) != kgeval.EINVALID {
		t.Errorf("start on a path: %v", err)
	}
	v, err := js.Start(ctx, jobs.Caller{}, jobs.Request{Upload: up.ID, Run: run, Engine: "native"})
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != kgeval.RunRunning || !v.Live || v.Samples != 600 {
		t.Errorf("started %+v", v)
	}
	if _, err := js.Start(ctx, jobs.Caller{}, jobs.Request{Upload: up.ID, Run: run, Engine: "native"}); kgeval.ErrorCode(err) != kgeval.ECONFLICT {
		t.Errorf("second start of %s: %v", run, err)
	}
	first := jobstest.WaitJob(t, js, run, func(v jobs.Job) bool { return v.Stage == "embed" && v.Done > 0 })
	second := jobstest.WaitJob(t, js, run, func(v jobs.Job) bool { return v.Stage != "embed" || v.Done > first.Done })
	t.Logf("progress: %s %d/%d (%.1f/s, ETA %.1f s), then %s %d/%d", first.Stage, first.Done, first.Total, first.Rate, first.ETA, second.Stage, second.Done, second.Total)
	if second.Stage == "embed" && (second.Rate <= 0 || second.ETA < 0) {
		t.Errorf("no rate or ETA: %+v", second)
	}
	if err := js.DeleteRun(ctx, run); kgeval.ErrorCode(err) != kgeval.ECONFLICT {
		t.Errorf("delete of a running run: %v", err)
	}

	v, err = js.Cancel(ctx, run, jobs.Caller{Admin: true})
	if err != nil {
		t.Fatal(err)
	}
	stored, err := db.GetRun(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cancelled: job %s, stored %s", v.Status, stored.Status)
	if v.Status != kgeval.RunInterrupted || !v.Resumable || v.Live || stored.Status != kgeval.RunInterrupted {
		t.Fatalf("cancelled: job %+v, stored %s", v, stored.Status)
	}
	if _, err := js.Cancel(ctx, run, jobs.Caller{Admin: true}); kgeval.ErrorCode(err) != kgeval.ECONFLICT {
		t.Errorf("second cancel: %v", err)
	}
	// A new server (a restart) lists the interrupted run as resumable.
	again, err := app.NewJobs(ctx, cfg, db, js.Dir)
	if err != nil {
		t.Fatal(err)
	}
	list, err := again.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range list {
		if l.Run == run {
			found = l.Resumable && !l.Live && l.Status == kgeval.RunInterrupted
		}
	}
	if !found {
		t.Errorf("restarted server: run %s not listed as resumable in %+v", run, list)
	}

	again.Delay = 0
	if _, err := again.Resume(ctx, run, jobs.Caller{User: "test", Admin: true}); err != nil {
		t.Fatal(err)
	}
	done := jobstest.WaitJob(t, again, run, func(v jobs.Job) bool { return !v.Live })
	stored, _ = db.GetRun(ctx, run)
	t.Logf("resumed: job %s, stored %s, %d samples, %d resumes, %d model calls", done.Status, stored.Status, stored.Samples, stored.Resumes, done.Calls.Calls)
	if done.Status != kgeval.RunDone || stored.Status != kgeval.RunDone || stored.Resumes != 1 || stored.Samples != 600 || done.Calls.Calls != 0 {
		t.Fatalf("resumed: %+v, stored %+v", done, stored)
	}
	scores, err := db.RunScores(ctx, run, kgeval.DefaultVariant)
	if err != nil || len(scores) != 600 {
		t.Errorf("resumed run: %d samples with scores, %v", len(scores), err)
	}
	if _, err := again.Resume(ctx, run, jobs.Caller{User: "test", Admin: true}); kgeval.ErrorCode(err) != kgeval.ECONFLICT {
		t.Errorf("resume of a done run: %v", err)
	}
	if err := again.DeleteRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	if _, err := db.GetRun(ctx, run); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
		t.Errorf("deleted run: %v", err)
	}

	// A job that fails before its run is recorded (no encoder files) is
	// listed as failed with its error, not resumable.
	broken := *cfg
	broken.Embedding.ModelsDir = t.TempDir()
	bj, err := app.NewJobs(ctx, &broken, db, js.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bj.Start(ctx, jobs.Caller{}, jobs.Request{Upload: up.ID, Run: run + "-broken", Engine: "native"}); err != nil {
		t.Fatal(err)
	}
	failed := jobstest.WaitJob(t, bj, run+"-broken", func(v jobs.Job) bool { return !v.Live })
	list, _ = bj.List(ctx)
	t.Logf("failed job: %s: %s (listed: %v)", failed.Status, failed.Error, len(list) > 0 && list[0].Run == run+"-broken")
	if failed.Status != kgeval.RunFailed || failed.Resumable || !strings.Contains(failed.Error, "encoder") || len(list) == 0 || list[0].Run != run+"-broken" {
		t.Errorf("failed job %+v, list %+v", failed, list)
	}

	// At most MaxRunning jobs at once; a server that stops (Close) records
	// its running job as interrupted.
	again.Delay, again.MaxRunning = 300*time.Millisecond, 1
	if _, err := again.Start(ctx, jobs.Caller{}, jobs.Request{Upload: up.ID, Run: run, Engine: "native"}); err != nil {
		t.Fatal(err)
	}
	if _, err := again.Start(ctx, jobs.Caller{}, jobs.Request{Upload: up.ID, Run: run + "-2", Engine: "native"}); kgeval.ErrorCode(err) != kgeval.ETOOMANY {
		t.Errorf("second job at once: %v", err)
	}
	jobstest.WaitJob(t, again, run, func(v jobs.Job) bool { return v.Done > 0 })
	again.Close(30 * time.Second)
	stored, _ = db.GetRun(ctx, run)
	t.Logf("after Close: stored %s", stored.Status)
	if stored.Status != kgeval.RunInterrupted {
		t.Errorf("after Close: stored %s", stored.Status)
	}
}
