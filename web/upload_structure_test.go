package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kgeval/kgeval/app"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/dataset/datasettest"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/jobs"
	"github.com/kgeval/kgeval/web"
)

// uploadsIn lists the stored uploads (not owners.json) in a state
// directory's uploads folder.
func uploadsIn(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "uploads"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.Name() != "owners.json" {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestServer_StructureBomb posts JSON structure bombs (one record that
// holds millions of tiny objects) to the dashboard as `kgeval serve` runs
// it, in a child process with the default limits, GOMEMLIMIT at 1 GiB and
// its address space capped 1 GiB over its size once started (stricter than
// the 4 GiB server the bombs first crashed): three 31 MiB JSONL files whose
// one record holds {"metadata": {"x": [{}, {}, ... 10.8 million times]}}
// (each cost about 1 GB, three crashed the server) are posted at once and
// each gets 413 naming the record, the field and the cap; then one within
// the caps whose records hold a million small objects (600 MiB once
// decoded, by its Meter) gets 413 before it is decoded, and a dataset with
// human and metadata fields loads. The server stays up, grows by less than
// 300 MB a request, and keeps no file of an upload it refused.
func TestServer_StructureBomb(t *testing.T) {
	dir := t.TempDir()
	child := startServeChild(t, dir, 1<<30)
	t.Logf("server pid %d: idle RSS %.1f MiB, address space capped at idle + 1 GiB, GOMEMLIMIT 1 GiB", child.pid, float64(child.idleRSS)/(1<<20))

	var bomb bytes.Buffer
	bomb.ReadFrom(datasettest.StructureBomb(10_800_000))
	start := time.Now()
	var wg sync.WaitGroup
	res := make([]uploadResult, 3)
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res[i] = postUpload(child.base, fmt.Sprintf("m%d.jsonl", i), bytes.NewReader(bomb.Bytes()))
		}()
	}
	wg.Wait()
	t.Logf("3 uploads of %.1f MiB at once answered in %s", float64(bomb.Len())/(1<<20), time.Since(start).Round(time.Millisecond))
	for i, r := range res {
		want := fmt.Sprintf("dataset m%d.jsonl: the records hold more than 2,000,000 values (dataset.max_file_values): stopped at record 1, field metadata.x", i)
		if r.status != http.StatusRequestEntityTooLarge || r.body["error"] != want || r.body["code"] != "too_large" {
			t.Errorf("%s: %d %v, want 413 %q", r.name, r.status, r.body, want)
		}
		t.Logf("%s: %d in %s: %s", r.name, r.status, r.took.Round(time.Millisecond), r.body["error"])
	}
	child.alive(t, "after the three bombs")
	grew := child.grew()
	t.Logf("after the three bombs: server alive, peak RSS +%.1f MiB", float64(grew)/(1<<20))
	if grew > 300e6 {
		t.Errorf("peak RSS grew by %d MB for three requests, want at most 300 MB", grew/1e6)
	}

	// Within every cap, but a million one-member objects: the Meter's cost
	// is over the whole budget.
	var costly bytes.Buffer
	line := `{"question": "q", "metadata": {"x": [` + strings.TrimSuffix(strings.Repeat(`{"a":0},`, 9990), ",") + "]}}\n"
	for range 100 {
		costly.WriteString(line)
	}
	r := postUpload(child.base, "costly.jsonl", &costly)
	msg, _ := r.body["error"].(string)
	t.Logf("%s (%.1f MiB, 2.0 M values within the caps): %d in %s: %s", r.name, float64(len(line)*100)/(1<<20), r.status, r.took.Round(time.Millisecond), msg)
	if r.status != http.StatusRequestEntityTooLarge || !strings.Contains(msg, "more than the 512.0 MiB all uploads share (web.upload_memory_bytes)") {
		t.Errorf("costly: %d %v", r.status, r.body)
	}

	var labelled bytes.Buffer
	for i := range 5000 {
		fmt.Fprintf(&labelled, `{"id": "%d", "question": "What grows in region %d?", "contexts": ["Heath grows in region %d."], "answer": "Heath.", "human": {"faithfulness": 1, "notes": {"rater": "a", "scores": [1, 0.5]}}, "metadata": {"source": "wiki", "tags": ["plant", "region"]}}`+"\n", i, i, i)
	}
	r = postUpload(child.base, "labelled.jsonl", &labelled)
	t.Logf("labelled.jsonl: %d in %s: %v records, %v valid", r.status, r.took.Round(time.Millisecond), r.body["records"], r.body["valid"])
	if r.status != 200 || r.body["valid"] != float64(5000) {
		t.Errorf("labelled: %d %v", r.status, r.body)
	}
	child.alive(t, "at the end")
	if files := uploadsIn(t, dir); len(files) != 1 {
		t.Errorf("uploads kept: %v, want only labelled.jsonl's", files)
	}
	t.Logf("at the end: peak RSS +%.1f MiB; uploads folder: %d file(s)", float64(child.grew())/(1<<20), len(uploadsIn(t, dir)))
}

// TestServer_UploadInterrupted checks what a crash during an upload leaves:
// a server that dies while it reads an upload left its file in the uploads
// folder, counted against nobody's quota. The upload is recorded (owner,
// reading) before its body is read, and the next start removes the file and
// the record.
func TestServer_UploadInterrupted(t *testing.T) {
	dir := t.TempDir()
	child := startServeChild(t, dir, 0)
	pr, pw := io.Pipe()
	go postUpload(child.base, "cut.jsonl", pr)
	chunk := bytes.Repeat([]byte(`{"question": "What grows on moors?", "answer": "Heath."}`+"\n"), 1000)
	for range 20 {
		pw.Write(chunk)
	}
	// The server stores what arrives: wait until it is on disk, then kill
	// it mid-upload.
	deadline := time.Now().Add(30 * time.Second)
	for {
		if files := uploadsIn(t, dir); len(files) == 1 {
			if st, err := os.Stat(filepath.Join(dir, "uploads", files[0])); err == nil && st.Size() > 0 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no upload file after 30 s: %v", uploadsIn(t, dir))
		}
		time.Sleep(20 * time.Millisecond)
	}
	child.cmd.Process.Kill()
	<-child.exited
	pw.Close()
	owners, _ := os.ReadFile(filepath.Join(dir, "uploads", "owners.json"))
	t.Logf("killed mid-upload: left %v; owners.json: %s", uploadsIn(t, dir), bytes.Join(bytes.Fields(owners), []byte(" ")))
	if !bytes.Contains(owners, []byte(`"reading": true`)) || !bytes.Contains(owners, []byte(`"owner": "token:ci"`)) {
		t.Errorf("the upload being read is not recorded with its owner: %s", owners)
	}

	restarted := startServeChild(t, dir, 0)
	restarted.alive(t, "restarted")
	owners, _ = os.ReadFile(filepath.Join(dir, "uploads", "owners.json"))
	t.Logf("restarted: uploads folder %v; owners.json: %s", uploadsIn(t, dir), bytes.Join(bytes.Fields(owners), []byte(" ")))
	if files := uploadsIn(t, dir); len(files) != 0 || bytes.Contains(owners, []byte("reading")) {
		t.Errorf("after the restart: files %v, owners %s; want the cut upload gone", files, owners)
	}
	req, _ := http.NewRequest("GET", restarted.base+"/api/jobs", nil)
	req.Header.Set("Authorization", "Bearer "+childToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Uploads jobs.UploadUsage `json:"uploads"`
	}
	json.NewDecoder(resp.Body).Decode(&list)
	if list.Uploads.Files != 0 || list.Uploads.Bytes != 0 {
		t.Errorf("token:ci's quota after the restart: %+v", list.Uploads)
	}
}

// TestServer_UploadQuotaInFlight checks that the upload quota counts the
// uploads still being read: 14 uploads at once of 10 to 20 MB each kept 130
// to 280 MB against a quota of 100 to 256 MiB, because the quota counted
// only the uploads kept. An upload now reserves its declared length before
// it is read, and each byte as it arrives when it declares none: with a
// quota of 100 MiB, the uploads kept hold at most 100 MiB and the others
// get 413 with the quota's reason, whether they declared their length (half
// of them) or not.
func TestServer_UploadQuotaInFlight(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	cfg, err := configs.Load("", nil)
	if err != nil {
		t.Fatal(err)
	}
	// Job plumbing, not the claims' model check (make factcheck measures
	// that): no claim question waits on the shared model server.
	cfg.Scoring.Verify = "off"
	const quota = 100 << 20
	cfg.Neo4j.URI, cfg.Neo4j.Password = graphstoretest.URI(), graphstoretest.Password()
	cfg.Web.StateDir = t.TempDir()
	cfg.Web.Tokens = []configs.WebToken{{Name: "alice", SHA256: web.HashToken(childToken)}}
	cfg.Web.UploadQuotaBytes = quota
	s, sdb, err := app.NewServer(context.Background(), cfg, "test", io.Discard, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sdb.Close(context.Background()) })
	_ = db
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)

	files := make([][]byte, 14)
	for i := range files {
		// 10 to 20 MB, in records of about 224 bytes: the largest holds
		// 89,000, under dataset.max_records (100,000), so an upload read
		// while the quota still has room is kept, not refused for its
		// records (at 197 bytes the largest held 101,500 and was).
		size := 10e6 + i*10e6/13
		var b bytes.Buffer
		for n := 0; b.Len() < size; n++ {
			fmt.Fprintf(&b, `{"id": "%d-%d", "question": "What does plant %d grow in?", "contexts": ["Plant %d grows in region %d, on moors and heaths where the soil is poor and acid. It flowers in late summer."], "answer": "Region %d."}`+"\n", i, n, n, n, n, n)
		}
		files[i] = b.Bytes()
	}
	start := time.Now()
	res := make([]uploadResult, len(files))
	var wg sync.WaitGroup
	for i, data := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var body io.Reader = bytes.NewReader(data) // Content-Length declared
			if i%2 == 1 {
				body = io.MultiReader(bytes.NewReader(data)) // chunked: none
			}
			res[i] = postUpload(srv.URL, fmt.Sprintf("u%02d.jsonl", i), body)
		}()
	}
	wg.Wait()
	var kept, offered int64
	count := map[int]int{}
	for i, r := range res {
		offered += int64(len(files[i]))
		count[r.status]++
		msg, _ := r.body["error"].(string)
		switch {
		case r.status == 200 && r.body["id"] != "":
			kept += int64(len(files[i]))
		case r.status == http.StatusRequestEntityTooLarge && strings.HasPrefix(msg, "upload quota: your uploads hold") && strings.Contains(msg, "at most 100.0 MiB per user (web.upload_quota_bytes)"):
			t.Logf("%s (%.1f MB, declared %v): 413 in %s: %s", r.name, float64(len(files[i]))/1e6, i%2 == 0, r.took.Round(time.Millisecond), msg[:strings.Index(msg, ";")])
		case r.status == 0 && (strings.Contains(msg, "connection reset by peer") || strings.Contains(msg, "broken pipe")):
			// The server answered 413 and closed the connection while this
			// client was still sending the body; the reset can reach the
			// client before the answer does (1 run in 6 or 8 here). The
			// upload was not kept: the usage check below counts it.
			t.Logf("%s (%.1f MB, declared %v): refused mid-body, the client saw %q", r.name, float64(len(files[i]))/1e6, i%2 == 0, msg)
		default:
			t.Errorf("%s: %d %v", r.name, r.status, r.body)
		}
	}
	t.Logf("14 uploads at once, %.1f MB offered, answered in %s: %v by status; kept %.1f MB of a %.1f MB quota",
		float64(offered)/1e6, time.Since(start).Round(time.Millisecond), count, float64(kept)/1e6, float64(quota)/1e6)
	if kept > quota || count[http.StatusRequestEntityTooLarge] == 0 {
		t.Errorf("kept %d bytes of a quota of %d; %d refused", kept, quota, count[http.StatusRequestEntityTooLarge])
	}
	req, _ := http.NewRequest("GET", srv.URL+"/api/jobs", nil)
	req.Header.Set("Authorization", "Bearer "+childToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Uploads jobs.UploadUsage `json:"uploads"`
	}
	json.NewDecoder(resp.Body).Decode(&list)
	if list.Uploads.Bytes != kept || list.Uploads.Files != count[200] || list.Uploads.Reading != 0 {
		t.Errorf("usage %+v, want %d files of %d bytes, none reading", list.Uploads, count[200], kept)
	}
	if stored := uploadsIn(t, cfg.Web.StateDir); len(stored) != count[200] {
		t.Errorf("uploads folder holds %d files, %d uploads were kept", len(stored), count[200])
	}
}
