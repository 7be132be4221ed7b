package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/jobs"
)

// memoryUse is what the process's heap did while a function ran: the peak
// of its in-use bytes over where it began, sampled every 2 ms, and the
// bytes allocated in all.
type memoryUse struct{ peak, alloc int64 }

func (m memoryUse) String() string {
	return fmt.Sprintf("heap peak +%.1f MB, %.1f MB allocated", float64(m.peak)/1e6, float64(m.alloc)/1e6)
}

// measure runs f and returns its memory use (the server runs in this
// process: httptest).
func measure(f func()) memoryUse {
	runtime.GC()
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		peak := m0.HeapInuse
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-stop:
				done <- peak
				return
			case <-t.C:
			}
		}
	}()
	f()
	close(stop)
	peak := <-done
	var m1 runtime.MemStats
	runtime.ReadMemStats(&m1)
	return memoryUse{peak: int64(peak) - int64(m0.HeapInuse), alloc: int64(m1.TotalAlloc - m0.TotalAlloc)}
}

// startAll posts the n job requests bodies(i) at once as c and returns
// their statuses and bodies.
func startAll(c *client, n int, body func(i int) string) ([]int, []string) {
	codes, bodies := make([]int, n), make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, b := c.post("/api/jobs", "application/json", strings.NewReader(body(i)))
			codes[i], bodies[i] = resp.StatusCode, b
		}()
	}
	wg.Wait()
	return codes, bodies
}

// TestServer_JobsCheapChecksFirst checks that a job's start makes its cheap
// checks first: POST /api/jobs used to read the whole upload before it
// checked that the run exists (409) or that jobs run (429), outside the
// memory budget; four at once on a large upload crashed the server. Now
// those checks, and the owner's (403), come before the upload is read: four
// requests at once on a 26 MB upload get 409, 429 or 403 with the server's
// heap all but unmoved. Of four starts that pass them, two (the job slots)
// read the upload, once each, and two get 429.
func TestServer_JobsCheapChecksFirst(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, js := accessServer(t, db, nil)
	alice, bob := signedIn(t, srv.URL, "alice"), signedIn(t, srv.URL, "bob")

	data := jobRecords(60000, false)
	large, err := js.Upload(context.Background(), jobs.Caller{User: "user:alice"}, "large.jsonl", -1, strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	data = ""
	t.Logf("large upload: %.1f MB, %d records", float64(large.Bytes)/1e6, large.Valid)
	small := mustUpload(t, alice, "small.jsonl", jobRecords(40, false))
	run := fmt.Sprintf("web-f2-%d", time.Now().UnixNano())
	js.Delay = 0
	mustStart(t, db, alice, small.ID, run)
	waitFor(t, alice, run, "done", func(v jobs.Job) bool { return !v.Live })

	start := func(upload, run string) string {
		return `{"upload": "` + upload + `", "run": "` + run + `", "engine": "native", "cache_only": true}`
	}
	check := func(what string, c *client, want int, msg string, body func(i int) string) {
		t.Helper()
		var codes []int
		var bodies []string
		use := measure(func() { codes, bodies = startAll(c, 4, body) })
		t.Logf("%s: 4 at once: %v, %s", what, codes, use)
		for i, code := range codes {
			if code != want || !strings.Contains(bodies[i], msg) {
				t.Errorf("%s: %d %s, want %d with %q", what, code, bodies[i], want, msg)
			}
		}
		if use.peak > 300e6 || use.alloc > 300e6 {
			t.Errorf("%s: %s, want under 300 MB", what, use)
		}
		if use.alloc > large.Bytes/2 {
			t.Errorf("%s: %s for a %d-byte upload: it was read", what, use, large.Bytes)
		}
	}
	check("existing run", alice, http.StatusConflict, "exists: choose another name", func(int) string { return start(large.ID, run) })
	check("another user's upload", bob, http.StatusForbidden, "is another user's", func(i int) string { return start(large.ID, fmt.Sprintf("%s-bob-%d", run, i)) })

	// One job runs and at most one may: the four others get 429 unread.
	js.Delay, js.MaxRunning = 250*time.Millisecond, 1
	busy := run + "-busy"
	mustStart(t, db, alice, small.ID, busy)
	check("jobs running", alice, http.StatusTooManyRequests, "at most 1 at once", func(i int) string { return start(large.ID, fmt.Sprintf("%s-%d", busy, i)) })
	if resp, body := alice.post("/api/jobs/"+url.PathEscape(busy)+"/cancel", "application/json", nil); resp.StatusCode != 200 {
		t.Fatalf("cancel: %d %s", resp.StatusCode, body)
	}

	// Four starts that pass those checks: two take the job slots and read
	// the upload, once each, inside the upload memory budget (here all of
	// it each: one at a time); the other two get 429 unread. (One user may
	// hold one slot, TestServer_JobsFairSlots: lifted here, so that alice
	// alone fills both.)
	js.Delay, js.MaxRunning, js.MaxPerUser = 0, 2, 0
	var reads []string
	for i := range 4 {
		name := fmt.Sprintf("%s-read-%d", run, i)
		t.Cleanup(func() { _ = db.DeleteRun(context.Background(), name) })
		reads = append(reads, name)
	}
	var codes []int
	use := measure(func() {
		codes, _ = startAll(alice, 4, func(i int) string {
			return `{"upload": "` + large.ID + `", "run": "` + reads[i] + `", "engine": "native", "limit": 3}`
		})
	})
	t.Logf("4 starts at once that read the upload: %v, %s", codes, use)
	ok := 0
	for i, code := range codes {
		switch code {
		case 200:
			ok++
			if v := waitFor(t, alice, reads[i], "done", func(v jobs.Job) bool { return !v.Live }); v.Status != kgeval.RunDone || v.Samples != 3 {
				t.Errorf("job on the large upload: %+v", v)
			}
		case http.StatusTooManyRequests:
		default:
			t.Errorf("start %s: %d", reads[i], code)
		}
	}
	if ok != 2 || use.peak > int64(ok)*300e6 {
		t.Errorf("4 starts at once: %d read the upload (want 2, the job slots), %s (want under 300 MB each)", ok, use)
	}
}

// TestServer_JobsUploadOwner checks whose uploads a job may evaluate: a
// user could start a job on another user's upload and leave an interrupted
// run that kept it past its cleanup age. Now a job evaluates only the
// caller's own uploads (403 otherwise, both ways between alice and bob) and
// an admin's any; an admin's interrupted run on alice's upload does not
// keep it past web.upload_cleanup_age, while alice's own interrupted run
// keeps hers.
func TestServer_JobsUploadOwner(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, js := accessServer(t, db, func(c *configs.Config) { c.Web.UploadCleanupAge = time.Hour })
	alice, bob, root := signedIn(t, srv.URL, "alice"), signedIn(t, srv.URL, "bob"), signedIn(t, srv.URL, "root")
	aliceUp := mustUpload(t, alice, "alice.jsonl", jobRecords(40, false))
	aliceOwn := mustUpload(t, alice, "alice-own.jsonl", jobRecords(40, false))
	bobUp := mustUpload(t, bob, "bob.jsonl", jobRecords(3, false))
	run := fmt.Sprintf("web-f6-%d", time.Now().UnixNano())

	for _, tc := range []struct {
		who    string
		c      *client
		upload string
	}{{"bob on alice's", bob, aliceUp.ID}, {"alice on bob's", alice, bobUp.ID}} {
		resp, body := tc.c.post("/api/jobs", "application/json", strings.NewReader(`{"upload": "`+tc.upload+`", "run": "`+run+`-x", "engine": "native"}`))
		t.Logf("%s upload: %d %s", tc.who, resp.StatusCode, body)
		if resp.StatusCode != 403 || !strings.Contains(body, "is another user's: a job may evaluate only your own uploads (an admin may use any)") ||
			!strings.Contains(body, kgeval.EFORBIDDEN) {
			t.Errorf("%s upload: %d %s", tc.who, resp.StatusCode, body)
		}
	}
	if _, err := db.GetRun(context.Background(), run+"-x"); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
		t.Errorf("a refused start left a run: %v", err)
	}

	// The admin may use alice's upload; alice her own. Both runs are
	// interrupted.
	js.Delay = 250 * time.Millisecond
	interrupt := func(c *client, owner, upload, name string) {
		t.Helper()
		if v := mustStart(t, db, c, upload, name); v.Owner != owner {
			t.Errorf("job %s: owner %q", name, v.Owner)
		}
		waitFor(t, c, name, "progress", func(v jobs.Job) bool { return v.Live && v.Done > 0 })
		if resp, body := c.post("/api/jobs/"+url.PathEscape(name)+"/cancel", "application/json", nil); resp.StatusCode != 200 {
			t.Fatalf("cancel %s: %d %s", name, resp.StatusCode, body)
		}
	}
	interrupt(root, "user:root", aliceUp.ID, run+"-root")
	interrupt(alice, "user:alice", aliceOwn.ID, run+"-alice")

	// Past the cleanup age, the admin's interrupted run does not keep
	// alice's upload; alice's own does.
	js.Delay = 0
	aged := time.Now().Add(-2 * time.Hour)
	for _, id := range []string{aliceUp.ID, aliceOwn.ID} {
		if err := os.Chtimes(filepath.Join(js.Dir, id), aged, aged); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := js.CleanupUploads(context.Background())
	t.Logf("cleanup past the age: removed %v", removed)
	if err != nil || len(removed) != 1 || removed[0] != aliceUp.ID {
		t.Errorf("cleanup removed %v (%v), want only %s, which only the admin's interrupted run used", removed, err, aliceUp.ID)
	}
	var list struct {
		Uploads jobs.UploadUsage `json:"uploads"`
	}
	if alice.getJSON("/api/jobs", &list); list.Uploads.Files != 1 {
		t.Errorf("alice's usage after the cleanup: %+v, want 1 file", list.Uploads)
	}
	resp, body := root.post("/api/jobs/"+url.PathEscape(run+"-root")+"/resume", "application/json", nil)
	t.Logf("admin resume without the upload: %d %s", resp.StatusCode, body)
	if resp.StatusCode != 404 || !strings.Contains(body, "is gone") {
		t.Errorf("admin resume of a run whose upload is gone: %d %s", resp.StatusCode, body)
	}
	if resp, body := alice.post("/api/jobs/"+url.PathEscape(run+"-alice")+"/resume", "application/json", nil); resp.StatusCode != 200 {
		t.Fatalf("alice resume: %d %s", resp.StatusCode, body)
	}
	if v := waitFor(t, alice, run+"-alice", "done", func(v jobs.Job) bool { return !v.Live }); v.Status != kgeval.RunDone {
		t.Errorf("alice's resumed run: %+v", v)
	}
}

// TestServer_JobsFairSlots checks that one user cannot hold both job slots
// (issue 49, N4: two jobs of one user on a large upload gave every other
// user's start 429 for 17 minutes). Alice's first job runs; her second is
// refused with 429, a Retry-After estimated from her job's progress and a
// message saying when her slot frees up; bob's job is admitted beside hers;
// then both slots are taken and root's start gets 429 with the estimate
// from the two running jobs. Once alice's job ends she starts again.
func TestServer_JobsFairSlots(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, js := accessServer(t, db, nil)
	alice, bob, root := signedIn(t, srv.URL, "alice"), signedIn(t, srv.URL, "bob"), signedIn(t, srv.URL, "root")
	upA, upB, upR := mustUpload(t, alice, "a.jsonl", jobRecords(40, false)), mustUpload(t, bob, "b.jsonl", jobRecords(40, false)),
		mustUpload(t, root, "r.jsonl", jobRecords(3, false))
	run := fmt.Sprintf("web-n4-%d", time.Now().UnixNano())
	js.Delay = 300 * time.Millisecond // 40 records: each job runs for seconds
	start := func(c *client, upload, name string) (int, string, string) {
		t.Helper()
		t.Cleanup(func() { _ = db.DeleteRun(context.Background(), name) })
		resp, body := c.post("/api/jobs", "application/json", strings.NewReader(`{"upload": "`+upload+`", "run": "`+name+`", "metrics": [], "engine": "native"}`))
		return resp.StatusCode, resp.Header.Get("Retry-After"), body
	}
	refused := func(who string, code int, retry, body, msg string) {
		t.Helper()
		t.Logf("%s: %d, Retry-After %s s: %s", who, code, retry, body)
		if secs, err := strconv.Atoi(retry); code != http.StatusTooManyRequests || err != nil || secs < 5 || secs > 3600 ||
			!strings.Contains(body, msg) || !strings.Contains(body, "frees up in "+retry+" s at the earliest") {
			t.Errorf("%s: %d, Retry-After %q, %s; want 429, Retry-After 5..3600 s and %q with that wait", who, code, retry, body, msg)
		}
	}
	if code, _, body := start(alice, upA.ID, run+"-alice-1"); code != 200 {
		t.Fatalf("alice's first job: %d %s", code, body)
	}
	waitFor(t, alice, run+"-alice-1", "a rate", func(v jobs.Job) bool { return v.Live && v.ETA >= 0 })
	code, retry, body := start(alice, upA.ID, run+"-alice-2")
	refused("alice's second job while her first runs", code, retry, body, "at most 1 per user, so that other users get a slot")
	code, _, body = start(bob, upB.ID, run+"-bob")
	t.Logf("bob's job beside alice's: %d", code)
	if code != 200 {
		t.Fatalf("bob's job while alice's runs: %d %s, want 200", code, body)
	}
	waitFor(t, bob, run+"-bob", "a rate", func(v jobs.Job) bool { return !v.Live || v.ETA >= 0 })
	code, retry, body = start(root, upR.ID, run+"-root")
	refused("root's job with both slots taken", code, retry, body, "2 jobs are running or starting (at most 2 at once)")

	js.Delay = 0
	waitFor(t, alice, run+"-alice-1", "done", func(v jobs.Job) bool { return !v.Live })
	if code, _, body := start(alice, upA.ID, run+"-alice-2"); code != 200 {
		t.Errorf("alice's second job once her first ended: %d %s", code, body)
	}
	for _, r := range []string{run + "-alice-2", run + "-bob"} {
		if v := waitFor(t, root, r, "done", func(v jobs.Job) bool { return !v.Live }); v.Status != kgeval.RunDone {
			t.Errorf("%s: %+v", r, v)
		}
	}
}
