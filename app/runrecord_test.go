package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/app"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/jobs"
	"github.com/kgeval/kgeval/jobs/jobstest"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/runner"
)

// serverConfig is the configuration of a server holding secrets, as
// kgeval serve's configuration file does: web users with bcrypt hashes, an
// admin token, the Neo4j password and its file, API keys and the state
// folder under dir.
func serverConfig(t *testing.T, dir string) (*configs.Config, []string) {
	t.Helper()
	cfg, err := configs.Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Neo4j.URI, cfg.Neo4j.Password = graphstoretest.URI(), graphstoretest.Password()
	cfg.Neo4j.PasswordFile = filepath.Join(dir, "neo4j", "password")
	cfg.LLM.APIKey, cfg.Embedding.APIKey = "sk-test-llm-key-49", "sk-test-embedding-key-49"
	cfg.Scoring.Verify, cfg.Scoring.Engine = "off", "native" // no model call: the records carry their triplets
	cfg.Web.StateDir = filepath.Join(dir, "web")
	sha := strings.Repeat("5e", 32)
	cfg.Web.Users = []configs.WebUser{{Name: "admin", PasswordHash: "$2a$10$" + strings.Repeat("N", 53), Admin: true}, {Name: "bob", PasswordHash: "$2a$10$" + strings.Repeat("b", 53)}}
	cfg.Web.Tokens = []configs.WebToken{{Name: "ci", SHA256: sha, Admin: true}}
	secrets := []string{"$2a$", sha, graphstoretest.Password(), "sk-test-", "***", dir, cfg.Root + "/", `"PasswordHash"`, `"Users"`, `"Tokens"`}
	return cfg, secrets
}

// mustRecordSecrets returns, per run in runs, the secrets its stored record
// holds, read in Neo4j.
func mustRecordSecrets(t *testing.T, runs []string, secrets []string) map[string][]any {
	t.Helper()
	out := map[string][]any{}
	for _, r := range graphstoretest.MustQuery(t, "", "test_run_record_secrets", map[string]any{"runs": runs, "secrets": secrets}) {
		name, _ := r["name"].(string)
		found, _ := r["found"].([]any)
		out[name] = found
		t.Logf("run %s: dataset %v, config %.120v..., secrets found %v", name, r["dataset"], r["config"], found)
	}
	return out
}

// TestEvaluate_RunRecordHasNoSecrets evaluates a dataset with a server's
// configuration (issue 49, N2: the run stored web.users' bcrypt hashes and
// web.tokens' sha256, `MATCH (r:Run) RETURN r.config CONTAINS '$2a$'` was
// true for every run): the stored run holds none of them, no password,
// key or server path, and its dataset is the file's base name.
func TestEvaluate_RunRecordHasNoSecrets(t *testing.T) {
	graphstoretest.MustOpenDB(t)
	dir := t.TempDir()
	cfg, secrets := serverConfig(t, dir)
	path := filepath.Join(dir, "data.jsonl")
	if err := os.WriteFile(path, []byte(jobstest.TripletRecords(3, false)), 0o600); err != nil {
		t.Fatal(err)
	}
	run := fmt.Sprintf("runrecord-new-%d", time.Now().UnixNano())
	rn := runner.New(cfg)
	defer rn.Close(context.Background())
	ev, err := rn.Evaluate(context.Background(), runner.Request{Path: path, Run: run})
	if err != nil {
		t.Fatal(err)
	}
	db := graphstoretest.MustOpenDB(t)
	t.Cleanup(func() { db.DeleteRun(context.Background(), run) })
	found := mustRecordSecrets(t, []string{run}, secrets)
	if f, ok := found[run]; !ok || len(f) > 0 {
		t.Errorf("run %s stores %v (of %d secrets looked for)", run, f, len(secrets))
	}
	r, err := db.GetRun(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("run %s: %d samples, dataset %q, config %d bytes", run, ev.Report.Samples, r.Dataset, len(r.Config))
	if r.Dataset != "data.jsonl" || r.Settings == nil || !reflect.DeepEqual(*r.Settings, cfg.Scoring) || analysis.ExtractionMethod(r) != cfg.Extraction.Method {
		t.Errorf("stored run: dataset %q, settings %+v, extraction %s", r.Dataset, r.Settings, analysis.ExtractionMethod(r))
	}
}

// oldRun records run the way kgeval did before issue 49: the whole
// configuration (Redacted: the passwords masked, the users' hashes and
// tokens kept) and the dataset's absolute path.
func oldRun(t *testing.T, db *graphstore.DB, cfg *configs.Config, run, path string) {
	t.Helper()
	res, err := dataset.Load(path, cfg.DatasetOptions())
	if err != nil {
		t.Fatal(err)
	}
	whole, err := json.Marshal(cfg.Redacted())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(whole, []byte("$2a$")) {
		t.Fatal("the old record holds no bcrypt hash: not the record of before")
	}
	if err := db.CreateRun(context.Background(), kgeval.Run{Name: run, Dataset: path, Fingerprint: res.Fingerprint, Config: string(whole),
		LLM: cfg.LLM.BaseURL + "#" + cfg.LLM.Model, Encoder: "all-MiniLM-L6-v2", Engine: "native", Status: kgeval.RunInterrupted,
		Samples: len(res.Samples), Started: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.DeleteRun(context.Background(), run) })
}

// TestCleanRunRecords stores runs the old way (a CLI run of a file outside
// the project, a dashboard job's upload, both interrupted) and migrates
// them: `kgeval doctor` warns, `doctor --fix` rewrites them, and then no
// run in the store holds a bcrypt hash, the token's sha256 or a server
// path; the readers of the record still read it: the CLI run resumes
// (its scoring settings compare equal to the configuration's), the
// upload's run is listed as the upload's and resumes as a dashboard job.
// A run stored the old way later is cleaned when kgeval serve starts.
func TestCleanRunRecords(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	ctx := context.Background()
	dir := t.TempDir()
	cfg, secrets := serverConfig(t, dir)
	stamp := time.Now().UnixNano()
	cli, job, late := fmt.Sprintf("runrecord-cli-%d", stamp), fmt.Sprintf("runrecord-job-%d", stamp), fmt.Sprintf("runrecord-late-%d", stamp)
	path := filepath.Join(dir, "data.jsonl")
	if err := os.WriteFile(path, []byte(jobstest.TripletRecords(3, false)), 0o600); err != nil {
		t.Fatal(err)
	}
	id := fmt.Sprintf("%032x.jsonl", stamp)
	if err := os.MkdirAll(cfg.UploadsDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	upload := filepath.Join(cfg.UploadsDir(), id)
	if err := os.WriteFile(upload, []byte(jobstest.TripletRecords(2, false)), 0o600); err != nil {
		t.Fatal(err)
	}
	oldRun(t, db, cfg, cli, path)
	oldRun(t, db, cfg, job, upload)
	before := mustRecordSecrets(t, []string{cli, job}, secrets)
	if len(before[cli]) == 0 || len(before[job]) == 0 {
		t.Fatalf("the old records hold no secret: %v", before)
	}

	doctor := func(fix bool) pipeline.Check {
		o := pipeline.DoctorOptions{Store: db, URI: cfg.Neo4j.URI, Fix: fix, CleanRun: cfg.CleanRun}
		for _, ch := range pipeline.Doctor(ctx, o) {
			if ch.Name == "runs" {
				t.Logf("doctor (fix %v): runs: ok %v: %s", fix, ch.OK, ch.Detail)
				return ch
			}
		}
		t.Fatal("doctor has no runs check")
		return pipeline.Check{}
	}
	if ch := doctor(false); ch.OK || !strings.Contains(ch.Detail, "kgeval doctor --fix") {
		t.Errorf("doctor without --fix over old records: %+v, want a warning naming --fix", ch)
	}
	if ch := doctor(true); !ch.OK || !strings.HasPrefix(ch.Detail, "rewrote ") {
		t.Errorf("doctor --fix: %+v", ch)
	}
	after := mustRecordSecrets(t, []string{cli, job}, secrets)
	if len(after[cli]) > 0 || len(after[job]) > 0 {
		t.Errorf("after doctor --fix the records hold %v", after)
	}
	// No run of the store holds a bcrypt hash or the token any more.
	for name, f := range mustRecordSecrets(t, nil, []string{"$2a$", strings.Repeat("5e", 32), dir}) {
		if len(f) > 0 {
			t.Errorf("after the migration run %s holds %v", name, f)
		}
	}

	// The readers: the CLI run's record.
	r, err := db.GetRun(ctx, cli)
	if err != nil {
		t.Fatal(err)
	}
	if r.Dataset != "data.jsonl" || r.Settings == nil || !reflect.DeepEqual(*r.Settings, cfg.Scoring) || analysis.ExtractionMethod(r) != cfg.Extraction.Method {
		t.Errorf("cleaned CLI run: dataset %q, settings %+v, extraction %s", r.Dataset, r.Settings, analysis.ExtractionMethod(r))
	}
	rn := runner.New(cfg)
	defer rn.Close(ctx)
	if _, err := rn.Evaluate(ctx, runner.Request{Path: path, Run: cli, Resume: true}); err != nil {
		t.Fatalf("resume of the cleaned CLI run: %v", err)
	}
	if r, _ = db.GetRun(ctx, cli); r.Status != kgeval.RunDone || r.Resumes != 1 {
		t.Errorf("resumed CLI run: %s, %d resumes", r.Status, r.Resumes)
	}
	t.Logf("the cleaned CLI run resumed: %s, %d resumes", r.Status, r.Resumes)

	// The upload's run: listed as the upload's and resumable, it resumes
	// as a dashboard job.
	if r, _ = db.GetRun(ctx, job); r.Dataset != "uploads/"+id {
		t.Errorf("cleaned job run: dataset %q, want uploads/%s", r.Dataset, id)
	}
	js, err := app.NewJobs(ctx, cfg, db, cfg.UploadsDir())
	if err != nil {
		t.Fatal(err)
	}
	defer js.Close(30 * time.Second)
	v, err := js.Get(ctx, job)
	if err != nil || !v.Resumable || v.Dataset != id {
		t.Errorf("the cleaned job run as a job: %+v %v", v, err)
	}
	if owner, ok := js.UploadOwner(r.Dataset); !ok {
		t.Errorf("UploadOwner(%s) = %q %v: not the upload's", r.Dataset, owner, ok)
	}
	if _, err := js.Resume(ctx, job, jobs.Caller{User: "user:admin", Admin: true}); err != nil {
		t.Fatal(err)
	}
	v = jobstest.WaitJob(t, js, job, func(v jobs.Job) bool { return !v.Live })
	if r, _ = db.GetRun(ctx, job); v.Status != kgeval.RunDone || r.Status != kgeval.RunDone || r.Dataset != "uploads/"+id {
		t.Errorf("resumed job run: job %s, stored %s, dataset %q", v.Status, r.Status, r.Dataset)
	}
	t.Logf("the cleaned job run resumed as a job: %s, dataset %s", r.Status, r.Dataset)

	// kgeval serve cleans at start.
	oldRun(t, db, cfg, late, path)
	var log bytes.Buffer
	s, sdb, err := app.NewServer(ctx, cfg, "test", &log, 0)
	if err != nil {
		t.Fatal(err)
	}
	_ = s
	defer sdb.Close(ctx)
	t.Logf("serve's start: %s", strings.TrimSpace(log.String()))
	if f := mustRecordSecrets(t, []string{late}, secrets)[late]; len(f) > 0 || !strings.Contains(log.String(), "rewrote ") {
		t.Errorf("after serve's start run %s holds %v; log %q", late, f, log.String())
	}
}
