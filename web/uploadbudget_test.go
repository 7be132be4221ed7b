package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/jobs"
)

// holdJobs is a jobs.Service whose Upload reads the body and then, for an upload
// named hold.jsonl, blocks until release is closed (fault injection: a
// parse that takes its time while holding its memory).
type holdJobs struct {
	jobs.Service // nil: the other methods are not called
	held         chan string
	release      chan struct{}
}

func (h *holdJobs) Upload(ctx context.Context, _ jobs.Caller, name string, _ int64, body io.Reader) (jobs.Upload, error) {
	n, err := io.Copy(io.Discard, body)
	if err != nil {
		return jobs.Upload{}, err
	}
	if name == "hold.jsonl" {
		h.held <- name
		<-h.release
	}
	return jobs.Upload{Name: name, Bytes: n, Rejected: []kgeval.Rejection{}}, nil
}

// TestServer_UploadBudget checks the memory budget uploads share: an upload
// reserves its cost once its body is in; one that does not fit waits, and
// after the wait gets 503 with Retry-After and the reason; a smaller one
// that fits goes through meanwhile; once the holder returns, the budget is
// free again.
func TestServer_UploadBudget(t *testing.T) {
	const token = "budget-test-token"
	jobs := &holdJobs{held: make(chan string, 1), release: make(chan struct{})}
	costs := map[string]int64{"hold.jsonl": 60 << 20, "big.jsonl": 60 << 20, "small.jsonl": 10 << 20, "huge.parquet": -1}
	s, err := NewServer(Config{Version: "test", Jobs: jobs, UploadMemoryBytes: 100 << 20,
		UploadCost: func(name string, size int64) int64 { return costs[name] },
		Auth:       AuthConfig{Tokens: map[string]string{HashToken(token): "ci"}, SessionKey: []byte(strings.Repeat("k", 64))}}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.budget.wait = 300 * time.Millisecond
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	upload := func(name string) (*http.Response, map[string]any) {
		req, _ := http.NewRequest("POST", srv.URL+"/api/uploads?name="+name, strings.NewReader(`{"question": "q"}`+"\n"))
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		json.NewDecoder(resp.Body).Decode(&body)
		return resp, body
	}

	done := make(chan int)
	go func() {
		resp, _ := upload("hold.jsonl")
		done <- resp.StatusCode
	}()
	<-jobs.held // hold.jsonl holds 60 of the 100 MiB

	start := time.Now()
	resp, body := upload("big.jsonl")
	waited := time.Since(start)
	want := "the server is busy reading other uploads: this one needs 60.0 MiB of the 100.0 MiB they share (web.upload_memory_bytes), which did not come free within 1 s; retry in 1 s"
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") != "1" || body["error"] != want || body["code"] != "unavailable" {
		t.Errorf("over the budget: %d, Retry-After %q, %v", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
	if waited < 300*time.Millisecond {
		t.Errorf("answered after %s, before the wait", waited)
	}
	t.Logf("over the budget: %d after %s, Retry-After %s: %s", resp.StatusCode, waited.Round(time.Millisecond), resp.Header.Get("Retry-After"), body["error"])

	if resp, body := upload("small.jsonl"); resp.StatusCode != 200 {
		t.Errorf("10 MiB fits beside 60 of 100: %d %v", resp.StatusCode, body)
	}
	if resp, _ := upload("huge.parquet"); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("an unbounded cost takes the whole budget, which is held: %d", resp.StatusCode)
	}

	close(jobs.release)
	if code := <-done; code != 200 {
		t.Errorf("the holder: %d", code)
	}
	for _, name := range []string{"big.jsonl", "huge.parquet"} {
		if resp, body := upload(name); resp.StatusCode != 200 {
			t.Errorf("%s once the budget is free: %d %v", name, resp.StatusCode, body)
		}
	}
	if free := s.budget.sem.TryAcquire(100 << 20); !free {
		t.Errorf("the budget is not all given back")
	}
}

// TestUploadBudget_FileWeight checks what loading a stored upload
// reserves: its Meter's cost (the structure of its records included),
// the static cost without a meter, 413 over the whole budget, 404 for a
// file that is gone.
func TestUploadBudget_FileWeight(t *testing.T) {
	opt := dataset.Options{MaxRecords: 100000, MaxDecodedBytes: 64 << 20, MaxDepth: 32, MaxValues: 20000, MaxFileValues: 2000000}
	meter := func(name string) UploadMeter {
		if m := dataset.NewMeter(name, opt); m != nil {
			return m
		}
		return nil
	}
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.jsonl")
	os.WriteFile(plain, []byte(strings.Repeat(`{"question": "q", "contexts": ["c"]}`+"\n", 1000)), 0o600)
	objects := filepath.Join(dir, "objects.jsonl")
	line := `{"question": "q", "metadata": {"x": [` + strings.TrimSuffix(strings.Repeat(`{"a":0},`, 9990), ",") + "]}}\n"
	os.WriteFile(objects, []byte(strings.Repeat(line, 100)), 0o600)

	b := newUploadBudget(512<<20, dataset.UploadCost(opt), meter)
	static := b.weight("plain.jsonl", 37000)
	if w, err := b.fileWeight("plain.jsonl", plain); err != nil || w <= static || w > static+1<<20+int64(opt.MaxValues)*400 {
		t.Errorf("plain: %d, %v; static %d", w, err, static)
	}
	_, err := b.fileWeight("objects.jsonl", objects)
	if kgeval.ErrorCode(err) != kgeval.ETOOLARGE || !strings.Contains(kgeval.ErrorMessage(err), "more than the 512.0 MiB uploads and jobs share") {
		t.Errorf("objects: %v", err)
	}
	t.Logf("objects.jsonl: %v", err)
	if _, err := b.fileWeight("gone.jsonl", filepath.Join(dir, "gone.jsonl")); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
		t.Errorf("gone: %v", err)
	}
	noMeter := newUploadBudget(512<<20, dataset.UploadCost(opt), nil)
	if w, err := noMeter.fileWeight("objects.jsonl", objects); err != nil || w != noMeter.weight("objects.jsonl", int64(len(line)*100)) {
		t.Errorf("without a meter: %d, %v", w, err)
	}
}
