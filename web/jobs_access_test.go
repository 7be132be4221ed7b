package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
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

// accessServer is a server with the real jobs of package app on Neo4j
// (uploads of at most 64 KiB), three users signing in with testPassword —
// alice and bob, who are not admins, and root, who is — and the admin
// token ci; set changes the configuration first (quota, cleanup).
func accessServer(t *testing.T, db *graphstore.DB, set func(*configs.Config)) (*httptest.Server, *jobs.Jobs) {
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
	if set != nil {
		set(cfg)
	}
	js, err := app.NewJobs(context.Background(), cfg, db, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { js.Close(30 * time.Second) })
	s, err := web.NewServer(web.Config{Version: "test", Jobs: js, UploadMaxBytes: 64 << 10, Auth: web.AuthConfig{
		Users:  map[string]string{"alice": hash, "bob": hash, "root": hash},
		Tokens: map[string]string{web.HashToken(testToken): "ci"},
		Admins: map[string]bool{"user:root": true, "token:ci": true}, SessionKey: []byte(strings.Repeat("k", 64)), InsecureCookies: true,
	}}, &graphstore.Health{DB: db}, db)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return srv, js
}

// signedIn returns a browser-like client signed in as user, holding its
// page's CSRF token.
func signedIn(t *testing.T, base, user string) *client {
	t.Helper()
	c := &client{tb: t, base: base}
	c.get("/login")
	resp, _ := c.postForm("/login", url.Values{"csrf_token": {c.csrf}, "user": {user}, "password": {testPassword}, "next": {"/"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-in of %s: %d", user, resp.StatusCode)
	}
	c.get("/")
	return c
}

// post sends body to path with the client's CSRF token.
func (c *client) post(path, ctype string, body io.Reader) (*http.Response, string) {
	c.tb.Helper()
	return c.do("POST", path, body, map[string]string{"X-CSRF-Token": c.csrf, "Content-Type": ctype})
}

// mustUpload uploads data as name and returns the upload.
func mustUpload(t *testing.T, c *client, name, data string) jobs.Upload {
	t.Helper()
	resp, body := c.post("/api/uploads?name="+name, "application/octet-stream", strings.NewReader(data))
	if resp.StatusCode != 200 {
		t.Fatalf("upload %s: %d %s", name, resp.StatusCode, body)
	}
	up := decode[jobs.Upload](t, body)
	if up.ID == "" {
		t.Fatalf("upload %s not kept: %s", name, body)
	}
	return up
}

// mustStart starts a job of upload as run, deleted when the test ends.
func mustStart(t *testing.T, db *graphstore.DB, c *client, upload, run string) jobs.Job {
	t.Helper()
	t.Cleanup(func() { _ = db.DeleteRun(context.Background(), run) })
	resp, body := c.post("/api/jobs", "application/json", strings.NewReader(`{"upload": "`+upload+`", "run": "`+run+`", "metrics": [], "engine": "native"}`))
	if resp.StatusCode != 200 {
		t.Fatalf("start %s: %d %s", run, resp.StatusCode, body)
	}
	return decode[jobs.Job](t, body)
}

// waitFor polls the job of run as c until ok says so (2 minutes at most).
func waitFor(t *testing.T, c *client, run string, what string, ok func(jobs.Job) bool) jobs.Job {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		_, body := c.get("/api/jobs/" + url.PathEscape(run))
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

// TestServer_JobsOwner checks who may cancel and resume a job: its starter
// and admins; another signed-in user gets 403 with the reason, while the
// job runs and once it is interrupted; a job whose starter is not recorded
// is for admins only.
func TestServer_JobsOwner(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, js := accessServer(t, db, nil)
	js.Delay = 250 * time.Millisecond
	alice, bob, root := signedIn(t, srv.URL, "alice"), signedIn(t, srv.URL, "bob"), signedIn(t, srv.URL, "root")

	up := mustUpload(t, alice, "owned.jsonl", jobRecords(40, false))
	run := fmt.Sprintf("web-owner-%d", time.Now().UnixNano())
	started := mustStart(t, db, alice, up.ID, run)
	if started.Owner != "user:alice" || started.User != "alice" {
		t.Errorf("started job: owner %q, user %q", started.Owner, started.User)
	}
	path := "/api/jobs/" + url.PathEscape(run)
	cancel, resume := path+"/cancel", path+"/resume"
	// Its run is recorded once the pipeline reports progress.
	waitFor(t, alice, run, "progress", func(v jobs.Job) bool { return v.Live && v.Done > 0 })

	// Another user: 403 on cancel and resume of a running job; the job
	// runs on, and its owner is shown to everyone.
	for _, p := range []string{cancel, resume} {
		resp, body := bob.post(p, "application/json", nil)
		t.Logf("bob POST %s: %d %s", p[len(path):], resp.StatusCode, body)
		if resp.StatusCode != 403 || !strings.Contains(body, "only user:alice, who started it, or an admin may") || !strings.Contains(body, kgeval.EFORBIDDEN) {
			t.Errorf("bob POST %s: %d %s", p, resp.StatusCode, body)
		}
	}
	if v := waitFor(t, bob, run, "running", func(jobs.Job) bool { return true }); !v.Live || v.Owner != "user:alice" {
		t.Errorf("job after bob's attempts: live %v, owner %q", v.Live, v.Owner)
	}

	// The starter cancels; another user still may not resume.
	resp, body := alice.post(cancel, "application/json", nil)
	t.Logf("alice cancel: %d, status %s", resp.StatusCode, decode[jobs.Job](t, body).Status)
	if resp.StatusCode != 200 || decode[jobs.Job](t, body).Status != kgeval.RunInterrupted {
		t.Fatalf("alice cancel: %d %s", resp.StatusCode, body)
	}
	if resp, body := bob.post(resume, "application/json", nil); resp.StatusCode != 403 {
		t.Errorf("bob resume of an interrupted job: %d %s", resp.StatusCode, body)
	}

	// An admin may do both; the job stays alice's.
	resp, body = root.post(resume, "application/json", nil)
	t.Logf("root (admin) resume: %d", resp.StatusCode)
	if resp.StatusCode != 200 || decode[jobs.Job](t, body).Owner != "user:alice" {
		t.Fatalf("admin resume: %d %s", resp.StatusCode, body)
	}
	resp, body = root.post(cancel, "application/json", nil)
	t.Logf("root (admin) cancel: %d, status %s", resp.StatusCode, decode[jobs.Job](t, body).Status)
	if resp.StatusCode != 200 || decode[jobs.Job](t, body).Status != kgeval.RunInterrupted {
		t.Fatalf("admin cancel: %d %s", resp.StatusCode, body)
	}

	// The starter resumes it to done.
	js.Delay = 0
	if resp, body := alice.post(resume, "application/json", nil); resp.StatusCode != 200 {
		t.Fatalf("alice resume: %d %s", resp.StatusCode, body)
	}
	done := waitFor(t, alice, run, "done", func(v jobs.Job) bool { return !v.Live })
	t.Logf("alice resume: %s after %d resumes, owner %s", done.Status, done.Resumes, done.Owner)
	// (The admin's resume, cancelled at once, may end before it counts.)
	if done.Status != kgeval.RunDone || done.Resumes < 1 || done.Owner != "user:alice" {
		t.Errorf("resumed: %+v", done)
	}

	// A job started with no recorded starter (as the CLI's runs, or
	// those of a server before owners were kept) is for admins only.
	js.Delay = 250 * time.Millisecond
	orphan := run + "-orphan"
	t.Cleanup(func() { _ = db.DeleteRun(context.Background(), orphan) })
	if _, err := js.Start(context.Background(), jobs.Caller{Admin: true}, jobs.Request{Upload: up.ID, Run: orphan, Engine: "native"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, root, orphan, "progress", func(v jobs.Job) bool { return v.Live && v.Done > 0 })
	for _, c := range []*client{alice, bob} {
		resp, body := c.post("/api/jobs/"+url.PathEscape(orphan)+"/cancel", "application/json", nil)
		if resp.StatusCode != 403 || !strings.Contains(body, "only an admin may cancel") || !strings.Contains(body, "not recorded") {
			t.Errorf("cancel of a job without owner by a user: %d %s", resp.StatusCode, body)
		}
	}
	resp, body = root.post("/api/jobs/"+url.PathEscape(orphan)+"/cancel", "application/json", nil)
	t.Logf("job without owner: users 403, admin cancel %d", resp.StatusCode)
	if resp.StatusCode != 200 {
		t.Errorf("admin cancel of a job without owner: %d %s", resp.StatusCode, body)
	}
}

// uploadFiles counts the stored uploads in dir.
func uploadFiles(t *testing.T, dir string) int {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if regexp.MustCompile(`^[0-9a-f]{32}\.jsonl$`).MatchString(e.Name()) {
			n++
		}
	}
	return n
}

// TestServer_UploadQuota checks the per-user upload quota: at the file
// limit 429, over the byte limit 413 (declared or found while reading),
// each with the limit and how to free space; other users are not affected,
// and the cleanup frees the quota.
func TestServer_UploadQuota(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, js := accessServer(t, db, func(c *configs.Config) {
		c.Web.UploadQuotaFiles, c.Web.UploadQuotaBytes = 3, 10<<10
	})
	alice, bob := signedIn(t, srv.URL, "alice"), signedIn(t, srv.URL, "bob")
	small, big := jobRecords(2, false), jobRecords(15, false)
	if 3*len(small) > 10<<10 || len(big) > 10<<10 || 2*len(big) <= 10<<10 {
		t.Fatalf("test data of %d and %d bytes do not fit the quota of 10 KiB", len(small), len(big))
	}

	// Files: three, then 429 before the body is read.
	for i := range 3 {
		mustUpload(t, alice, fmt.Sprintf("small-%d.jsonl", i), small)
	}
	resp, body := alice.post("/api/uploads?name=small-3.jsonl", "application/octet-stream", strings.NewReader(small))
	t.Logf("4th upload: %d %s", resp.StatusCode, body)
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(body, "you keep 3 uploads, at most 3 per user (web.upload_quota_files)") ||
		!strings.Contains(body, "removed 24h after it was made") || !strings.Contains(body, kgeval.ETOOMANY) {
		t.Errorf("upload over the file quota: %d %s", resp.StatusCode, body)
	}
	var list struct {
		You     string           `json:"you"`
		Uploads jobs.UploadUsage `json:"uploads"`
	}
	if code := alice.getJSON("/api/jobs", &list); code != 200 || list.You != "user:alice" || list.Uploads.Files != 3 || list.Uploads.MaxFiles != 3 ||
		list.Uploads.Bytes != int64(3*len(small)) || list.Uploads.MaxBytes != 10<<10 || list.Uploads.CleanupAgeSeconds != 86400 {
		t.Errorf("alice's usage: %d %+v", code, list)
	}

	// Bytes: bob has his own quota; a second big upload passes it, 413
	// whether its length is declared (refused unread) or not (cut while
	// read, not kept).
	mustUpload(t, bob, "big.jsonl", big)
	resp, body = bob.post("/api/uploads?name=big2.jsonl", "application/octet-stream", strings.NewReader(big))
	t.Logf("declared upload over the byte quota: %d %s", resp.StatusCode, body)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(body, "at most 10.0 KiB per user (web.upload_quota_bytes)") ||
		!strings.Contains(body, "this one brings at least") || !strings.Contains(body, kgeval.ETOOLARGE) {
		t.Errorf("declared upload over the byte quota: %d %s", resp.StatusCode, body)
	}
	before := uploadFiles(t, js.Dir)
	resp, body = bob.post("/api/uploads?name=big3.jsonl", "application/octet-stream", io.MultiReader(strings.NewReader(big)))
	t.Logf("chunked upload over the byte quota: %d %s", resp.StatusCode, body)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(body, "web.upload_quota_bytes") {
		t.Errorf("chunked upload over the byte quota: %d %s", resp.StatusCode, body)
	}
	if after := uploadFiles(t, js.Dir); after != before {
		t.Errorf("an upload over the quota was kept: %d files, then %d", before, after)
	}
	mustUpload(t, bob, "small.jsonl", small) // what fits still does

	// The cleanup frees alice's quota: her uploads, a day and more old and
	// used by no run, are removed, and she may upload again.
	old := time.Now().Add(-25 * time.Hour)
	entries, _ := os.ReadDir(js.Dir)
	for _, e := range entries {
		os.Chtimes(filepath.Join(js.Dir, e.Name()), old, old)
	}
	removed, err := js.CleanupUploads(context.Background())
	t.Logf("cleanup of day-old uploads: removed %d, %v", len(removed), err)
	if err != nil || len(removed) != 5 {
		t.Errorf("cleanup removed %d uploads, want 5 (3 of alice, 2 of bob): %v", len(removed), err)
	}
	if code := alice.getJSON("/api/jobs", &list); code != 200 || list.Uploads.Files != 0 || list.Uploads.Bytes != 0 {
		t.Errorf("alice's usage after the cleanup: %+v", list.Uploads)
	}
	mustUpload(t, alice, "again.jsonl", small)
}

// TestServer_UploadCleanup checks the cleanup that runs while the server
// serves: an upload older than web.upload_cleanup_age that no run needs,
// and one of a done run, are removed; one of an interrupted run (it may be
// resumed) and a new one are kept.
func TestServer_UploadCleanup(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, js := accessServer(t, db, func(c *configs.Config) {
		c.Web.UploadCleanupAge, c.Web.UploadCleanupInterval = time.Hour, 100*time.Millisecond
	})
	alice := signedIn(t, srv.URL, "alice")
	unused := mustUpload(t, alice, "unused.jsonl", jobRecords(3, false))
	fresh := mustUpload(t, alice, "fresh.jsonl", jobRecords(3, false))
	doneUp := mustUpload(t, alice, "done.jsonl", jobRecords(3, false))
	stopped := mustUpload(t, alice, "interrupted.jsonl", jobRecords(40, false))

	run := fmt.Sprintf("web-cleanup-%d", time.Now().UnixNano())
	js.Delay = 0
	mustStart(t, db, alice, doneUp.ID, run+"-done")
	if v := waitFor(t, alice, run+"-done", "done", func(v jobs.Job) bool { return !v.Live }); v.Status != kgeval.RunDone {
		t.Fatalf("done run: %+v", v)
	}
	js.Delay = 250 * time.Millisecond
	mustStart(t, db, alice, stopped.ID, run+"-interrupted")
	waitFor(t, alice, run+"-interrupted", "progress", func(v jobs.Job) bool { return v.Live && v.Done > 0 })
	if resp, body := alice.post("/api/jobs/"+url.PathEscape(run+"-interrupted")+"/cancel", "application/json", nil); resp.StatusCode != 200 {
		t.Fatalf("cancel: %d %s", resp.StatusCode, body)
	}

	twoHours := time.Now().Add(-2 * time.Hour)
	for _, up := range []jobs.Upload{unused, doneUp, stopped} {
		if err := os.Chtimes(filepath.Join(js.Dir, up.ID), twoHours, twoHours); err != nil {
			t.Fatal(err)
		}
	}
	exists := func(id string) bool {
		_, err := os.Stat(filepath.Join(js.Dir, id))
		return err == nil
	}
	start := time.Now()
	for exists(unused.ID) || exists(doneUp.ID) {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("the cleanup did not run within 10 s (every 100 ms): unused kept %v, done kept %v", exists(unused.ID), exists(doneUp.ID))
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("cleanup while serving, after %v: unused old upload removed, done run's removed; interrupted run's kept %v, new kept %v",
		time.Since(start).Round(time.Millisecond), exists(stopped.ID), exists(fresh.ID))
	if !exists(stopped.ID) || !exists(fresh.ID) {
		t.Errorf("kept: interrupted run's upload %v, new upload %v; want both", exists(stopped.ID), exists(fresh.ID))
	}
	if resp, _ := alice.get("/api/runs/" + url.PathEscape(run+"-done")); resp.StatusCode != 200 {
		t.Errorf("the done run without its upload: %d", resp.StatusCode)
	}
	var list struct {
		Uploads jobs.UploadUsage `json:"uploads"`
	}
	if alice.getJSON("/api/jobs", &list); list.Uploads.Files != 2 {
		t.Errorf("alice's usage after the cleanup: %+v, want 2 files", list.Uploads)
	}
	// The interrupted run still resumes from its upload.
	js.Delay = 0
	if resp, body := alice.post("/api/jobs/"+url.PathEscape(run+"-interrupted")+"/resume", "application/json", nil); resp.StatusCode != 200 {
		t.Fatalf("resume: %d %s", resp.StatusCode, body)
	}
	if v := waitFor(t, alice, run+"-interrupted", "done", func(v jobs.Job) bool { return !v.Live }); v.Status != kgeval.RunDone {
		t.Errorf("resumed after the cleanup: %+v", v)
	}
}

// TestServer_UploadIDsShown checks who sees an upload's id in listings: GET
// /api/jobs listed every job's upload id to every signed-in user, who could
// start a job on it. An upload's id is shown only to its owner and admins:
// others see whose upload a job or run evaluates, in the jobs list, a job,
// the runs list and page, a run and a comparison of runs.
func TestServer_UploadIDsShown(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, js := accessServer(t, db, nil)
	js.Delay = 0
	alice, bob, root := signedIn(t, srv.URL, "alice"), signedIn(t, srv.URL, "bob"), signedIn(t, srv.URL, "root")
	upA := mustUpload(t, alice, "a.jsonl", jobRecords(3, false))
	upB := mustUpload(t, alice, "b.jsonl", jobRecords(4, false))
	run := fmt.Sprintf("web-ids-%d", time.Now().UnixNano())
	for _, r := range []struct{ run, upload string }{{run + "-a", upA.ID}, {run + "-b", upB.ID}} { // one job of alice's at a time
		mustStart(t, db, alice, r.upload, r.run)
		if v := waitFor(t, alice, r.run, "done", func(v jobs.Job) bool { return !v.Live }); v.Status != kgeval.RunDone {
			t.Fatalf("%s: %+v", r.run, v)
		}
	}
	ids := upA.ID[:32] + "|" + upB.ID[:32]
	paths := []string{"/api/jobs", "/api/jobs/" + run + "-a", "/api/runs", "/", "/api/runs/" + run + "-a", "/runs/" + run + "-a",
		"/api/compare?a=" + run + "-a&b=" + run + "-b", "/compare?a=" + run + "-a&b=" + run + "-b"}
	for _, p := range paths {
		resp, body := bob.get(p)
		shown := regexp.MustCompile(ids).FindAllString(body, -1)
		t.Logf("bob GET %s: %d, upload ids shown %d, %q shown %d times", p, resp.StatusCode, len(shown), "upload of user:alice", strings.Count(body, "upload of user:alice"))
		if resp.StatusCode != 200 || len(shown) > 0 || !strings.Contains(body, "upload of user:alice") {
			t.Errorf("bob GET %s: %d, ids %v", p, resp.StatusCode, shown)
		}
		for name, c := range map[string]*client{"alice": alice, "root": root} {
			if resp, body := c.get(p); resp.StatusCode != 200 || !regexp.MustCompile(ids).MatchString(body) || strings.Contains(body, "upload of user:") {
				t.Errorf("%s GET %s: %d, the ids not shown", name, p, resp.StatusCode)
			}
		}
	}
}
