package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/app"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/jobs"
	"github.com/kgeval/kgeval/web"
)

// jobRecords returns n JSONL records with given triplets (no model call),
// then, if broken, one without a question (record n+1).
func jobRecords(n int, broken bool) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `{"id": "web-job-%d", "question": "What is plant %d called?", "contexts": ["Plant %d is called heath %d."], "answer": "Heath %d.", "reference": "Heath %d", "triplets": {"question": [["plant %d", "is called", "unknown"]], "answer": [["plant %d", "is called", "heath %d"]], "reference": [["plant %d", "is called", "heath %d"]], "contexts": [[["plant %d", "is called", "heath %d"], ["plant %d", "grows in", "region %d"]]]}}`+"\n",
			i, i, i, i, i, i, i, i, i, i, i, i, i, i, i)
	}
	if broken {
		b.WriteString(`{"id": "broken", "answer": "no question"}` + "\n")
	}
	return b.String()
}

// jobsServer is MustServer with the real jobs of package app (uploads of at
// most 64 KiB) or, when fake is set, with fake.
func jobsServer(t *testing.T, db *graphstore.DB, fake jobs.Service) (*httptest.Server, *jobs.Jobs) {
	t.Helper()
	hash, err := web.HashPassword(testPassword)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := configs.Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Job plumbing, not the claims' model check (make factcheck measures
	// that): no claim question waits on the shared model server.
	cfg.Scoring.Verify = "off"
	cfg.Scoring.Engine = "native"
	var js *jobs.Jobs
	var j jobs.Service = fake
	if fake == nil {
		if js, err = app.NewJobs(context.Background(), cfg, db, t.TempDir()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { js.Close(30 * time.Second) })
		js.Delay = 250 * time.Millisecond
		j = js
	}
	s, err := web.NewServer(web.Config{Version: "test", Jobs: j, UploadMaxBytes: 64 << 10, Auth: web.AuthConfig{
		Users:  map[string]string{testUser: hash},
		Tokens: map[string]string{web.HashToken(testToken): "ci"},
		Admins: map[string]bool{"token:ci": true}, SessionKey: []byte(strings.Repeat("k", 64)), InsecureCookies: true,
	}}, &graphstore.Health{DB: db}, db)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return srv, js
}

func decode[T any](t *testing.T, body string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("%v in %.300s", err, body)
	}
	return v
}

// TestServer_Jobs drives the jobs API as the browser does (a signed-in
// user with the CSRF token) against the real jobs and Neo4j: an upload with
// a broken record listed by number, the size limit, a job started, its
// progress seen, cancelled and resumed to done, the run deleted by an
// admin only.
func TestServer_Jobs(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, _ := jobsServer(t, db, nil)
	c := &client{tb: t, base: srv.URL}
	c.signIn()
	admin := &client{tb: t, base: srv.URL, token: testToken}
	csrf := func() map[string]string { return map[string]string{"X-CSRF-Token": c.csrf} }
	post := func(path, ctype, body string, hdr map[string]string) (*http.Response, string) {
		h := map[string]string{"Content-Type": ctype}
		for k, v := range hdr {
			h[k] = v
		}
		return c.do("POST", path, strings.NewReader(body), h)
	}

	resp, page := c.get("/jobs")
	if resp.StatusCode != 200 || !strings.Contains(page, `id="upload-form"`) || !strings.Contains(page, `value="semantic_similarity"`) || strings.Contains(page, `data-admin`) {
		t.Errorf("jobs page: %d %.300s", resp.StatusCode, page)
	}
	if strings.Contains(page, `id="delete-run"`) {
		t.Errorf("a non-admin is offered the run picker to delete runs")
	}

	// Uploads: CSRF, format, size limit, the rejected record by number.
	data := jobRecords(40, true)
	if resp, body := post("/api/uploads?name=data.jsonl", "application/octet-stream", data, nil); resp.StatusCode != 403 {
		t.Errorf("upload without CSRF: %d %s", resp.StatusCode, body)
	}
	if resp, body := post("/api/uploads?name=data.sh", "application/octet-stream", data, csrf()); resp.StatusCode != 400 {
		t.Errorf("upload of a .sh: %d %s", resp.StatusCode, body)
	}
	big := jobRecords(200, false)
	resp, body := post("/api/uploads?name=big.jsonl", "application/octet-stream", big, csrf())
	t.Logf("upload of %d bytes: %d %s", len(big), resp.StatusCode, body)
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("upload over the limit: %d %s", resp.StatusCode, body)
	}
	// A body of unknown length is cut at the limit while it is read.
	resp, body = c.do("POST", "/api/uploads?name=big.jsonl", io.MultiReader(strings.NewReader(big)), map[string]string{"X-CSRF-Token": c.csrf, "Content-Type": "application/octet-stream"})
	t.Logf("chunked upload of %d bytes: %d %s", len(big), resp.StatusCode, body)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(body, "web.upload_max_bytes") {
		t.Errorf("chunked upload over the limit: %d %s", resp.StatusCode, body)
	}
	resp, body = post("/api/uploads?name=data.jsonl", "application/octet-stream", data, csrf())
	if resp.StatusCode != 200 {
		t.Fatalf("upload: %d %s", resp.StatusCode, body)
	}
	up := decode[jobs.Upload](t, body)
	t.Logf("upload: %d records, %d valid, rejected %+v", up.Records, up.Valid, up.Rejected)
	if up.Records != 41 || up.Valid != 40 || len(up.Rejected) != 1 || up.RejectedTotal != 1 || up.Rejected[0].Record != 41 || !strings.Contains(up.Rejected[0].Reason, "missing question") {
		t.Fatalf("upload %+v", up)
	}

	// Start: only the metrics and engines offered, a sane run name.
	run := fmt.Sprintf("web-jobs-%d", time.Now().UnixNano())
	t.Cleanup(func() { _ = db.DeleteRun(context.Background(), run) })
	for _, bad := range []string{
		`{"upload": "` + up.ID + `", "run": "` + run + `", "metrics": ["http://evil.example/model"]}`,
		`{"upload": "` + up.ID + `", "run": "` + run + `", "engine": "spark"}`,
		`{"upload": "` + up.ID + `", "run": "a\u202eb"}`,
		`{"upload": "../../session.key", "run": "` + run + `"}`,
	} {
		if resp, body := post("/api/jobs", "application/json", bad, csrf()); resp.StatusCode != 400 {
			t.Errorf("start %s: %d %s", bad, resp.StatusCode, body)
		}
	}
	start := `{"upload": "` + up.ID + `", "run": "` + run + `", "metrics": [], "engine": "native"}`
	if resp, _ := post("/api/jobs", "application/json", start, nil); resp.StatusCode != 403 {
		t.Errorf("start without CSRF: %d", resp.StatusCode)
	}
	if resp, body = post("/api/jobs", "application/json", start, csrf()); resp.StatusCode != 200 {
		t.Fatalf("start: %d %s", resp.StatusCode, body)
	}
	path := "/api/jobs/" + url.PathEscape(run)
	wait := func(what string, ok func(jobs.Job) bool) jobs.Job {
		deadline := time.Now().Add(2 * time.Minute)
		for {
			_, body := c.get(path)
			v := decode[jobs.Job](t, body)
			if ok(v) {
				return v
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: waited 2 minutes, last %+v", what, v)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	first := wait("progress", func(v jobs.Job) bool { return v.Live && v.Done > 0 })
	t.Logf("progress: %s %d/%d", first.Stage, first.Done, first.Total)
	_, body = c.get("/api/jobs")
	list := decode[struct {
		Jobs    []jobs.Job   `json:"jobs"`
		Options jobs.Options `json:"options"`
	}](t, body)
	if len(list.Jobs) == 0 || list.Jobs[0].Run != run || len(list.Options.Metrics) == 0 {
		t.Errorf("list: %.400s", body)
	}
	if resp, body := post(path+"/cancel", "application/json", "", nil); resp.StatusCode != 403 {
		t.Errorf("cancel without CSRF: %d %s", resp.StatusCode, body)
	}
	resp, body = post(path+"/cancel", "application/json", "", csrf())
	cancelled := decode[jobs.Job](t, body)
	t.Logf("cancel: %d, status %s at %s %d/%d", resp.StatusCode, cancelled.Status, cancelled.Stage, cancelled.Done, cancelled.Total)
	if resp.StatusCode != 200 || cancelled.Status != kgeval.RunInterrupted || !cancelled.Resumable {
		t.Fatalf("cancel: %d %s", resp.StatusCode, body)
	}
	if resp, body = post(path+"/resume", "application/json", "", csrf()); resp.StatusCode != 200 {
		t.Fatalf("resume: %d %s", resp.StatusCode, body)
	}
	done := wait("done", func(v jobs.Job) bool { return !v.Live })
	t.Logf("resumed: %s, %d resumes", done.Status, done.Resumes)
	if done.Status != kgeval.RunDone || done.Resumes != 1 {
		t.Fatalf("resumed: %+v", done)
	}

	// The admin's jobs page offers every stored run for deletion.
	if resp, page := admin.get("/jobs"); resp.StatusCode != 200 || !strings.Contains(page, `<option value="`+run+`">`) {
		t.Errorf("admin jobs page: %d, no option for %s", resp.StatusCode, run)
	}

	// Delete: admins only, with CSRF for a session.
	if resp, body := c.do("DELETE", "/api/runs/"+url.PathEscape(run), nil, csrf()); resp.StatusCode != 403 {
		t.Errorf("delete by a non-admin: %d %s", resp.StatusCode, body)
	}
	if resp, body := admin.do("DELETE", "/api/runs/"+url.PathEscape(run), nil, nil); resp.StatusCode != 200 {
		t.Errorf("delete by the admin: %d %s", resp.StatusCode, body)
	}
	if resp, _ := c.get("/api/runs/" + url.PathEscape(run)); resp.StatusCode != 404 {
		t.Errorf("deleted run: %d", resp.StatusCode)
	}
	if resp, _ := admin.do("DELETE", "/api/runs/"+url.PathEscape(run), nil, nil); resp.StatusCode != 404 {
		t.Errorf("second delete: %d", resp.StatusCode)
	}
}

// failingJobs injects faults: every call fails with EUNAVAILABLE.
type failingJobs struct{ jobs.Service }

func (failingJobs) Options() jobs.Options {
	return jobs.Options{Metrics: []string{}, Engines: []string{"native"}, Engine: "native"}
}
func (failingJobs) Upload(context.Context, jobs.Caller, string, int64, io.Reader) (jobs.Upload, error) {
	return jobs.Upload{}, kgeval.Errorf(kgeval.EUNAVAILABLE, "disk full")
}
func (failingJobs) Start(context.Context, jobs.Caller, jobs.Request) (jobs.Job, error) {
	return jobs.Job{}, kgeval.Errorf(kgeval.EUNAVAILABLE, "neo4j down")
}

// TestServer_JobsFaults checks that a failing jobs service gives its error
// and status, and that a server without jobs has no jobs page.
func TestServer_JobsFaults(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, _ := jobsServer(t, db, failingJobs{})
	c := &client{tb: t, base: srv.URL, token: testToken}
	resp, body := c.do("POST", "/api/uploads?name=a.jsonl", strings.NewReader("{}"), nil)
	if resp.StatusCode != 503 || !strings.Contains(body, "disk full") {
		t.Errorf("upload: %d %s", resp.StatusCode, body)
	}
	resp, body = c.do("POST", "/api/jobs", strings.NewReader(`{"upload": "x", "run": "r"}`), map[string]string{"Content-Type": "application/json"})
	if resp.StatusCode != 503 || !strings.Contains(body, "neo4j down") {
		t.Errorf("start: %d %s", resp.StatusCode, body)
	}
	plain, _ := MustServer(t, db, &graphstore.Health{DB: db})
	c = &client{tb: t, base: plain.URL, token: testToken}
	if resp, _ := c.get("/api/jobs"); resp.StatusCode != 404 {
		t.Errorf("no jobs: %d", resp.StatusCode)
	}
}
