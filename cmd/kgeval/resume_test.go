package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/metricreg"
)

// countingProxy stands between kgeval and the real model server and counts
// the chat answers it delivered in full, by request body: an answer whose
// client went away (a killed process) is not counted.
type countingProxy struct {
	mu     sync.Mutex
	bodies map[string]int
	total  int
}

func (p *countingProxy) handler(target *url.URL) http.Handler {
	rp := httputil.NewSingleHostReverseProxy(target)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := &statusRecorder{ResponseWriter: w, status: 200}
		rp.ServeHTTP(rec, r)
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") || rec.status != 200 || r.Context().Err() != nil {
			return
		}
		h := sha256.Sum256(body)
		p.mu.Lock()
		p.bodies[hex.EncodeToString(h[:])]++
		p.total++
		p.mu.Unlock()
	})
}

func (p *countingProxy) counts() (total int, repeated int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, n := range p.bodies {
		repeated += n - 1
	}
	return p.total, repeated
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) { s.status = code; s.ResponseWriter.WriteHeader(code) }
func (s *statusRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// resumeDataset has two samples whose contexts come pre-extracted, so that
// the model extracts six short texts: two questions, two answers, two
// references.
var resumeDataset = []map[string]any{
	{"id": "heath", "question": "What is another name for Erica vagans?",
		"answer": "Erica vagans is also called Cornish heath.", "reference": "Erica vagans is known as the Cornish heath.",
		"contexts": []string{"Erica vagans, the Cornish heath, is a species of flowering plant in the family Ericaceae."},
		"triplets": map[string]any{"contexts": [][][]string{{{"Erica vagans", "is also called", "Cornish heath"}, {"Erica vagans", "belongs to family", "Ericaceae"}}}}},
	{"id": "tower", "question": "Where is the Eiffel Tower?",
		"answer": "The Eiffel Tower stands in Paris.", "reference": "The Eiffel Tower is located in Paris, France.",
		"contexts": []string{"The Eiffel Tower is a wrought-iron lattice tower in Paris, France."},
		"triplets": map[string]any{"contexts": [][][]string{{{"Eiffel Tower", "is located in", "Paris"}, {"Paris", "is in", "France"}}}}},
}

// TestEvaluate_KillResume kills `kgeval evaluate` at several points (kill -9
// during extraction, SIGINT during extraction, kill -9 after the graphs are
// stored and before they are scored, kill -9 after the scores are written
// and before the run is marked done) and finishes it each time with
// --resume. The finished run must equal a clean run of the same dataset
// node for node and score for score, no model answer may be delivered twice,
// and the run's call accounting must match what the model server delivered.
// It uses the real model server of `make test` behind a counting proxy.
// A plumbing test: the scores are compared with a clean run's, whatever
// the model extracted (extraction quality lives in `make validity`).
func TestEvaluate_KillResume(t *testing.T) {
	base, model := os.Getenv("KGEVAL_LLM_BASE_URL"), os.Getenv("KGEVAL_LLM_MODEL")
	if base == "" || model == "" {
		t.Fatal("KGEVAL_LLM_BASE_URL and KGEVAL_LLM_MODEL are not set: run `make test`, which starts the local model server")
	}
	db := graphstoretest.MustOpenDB(t)
	ctx := context.Background()
	dir := t.TempDir()
	bin := filepath.Join(dir, "kgeval")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	// The dataset, and no cached answer for its texts.
	var lines []string
	var items []llm.ExtractItem
	for _, s := range resumeDataset {
		b, _ := json.Marshal(s)
		lines = append(lines, string(b))
		q := s["question"].(string)
		items = append(items, llm.ExtractItem{Text: q, Asked: true}, llm.ExtractItem{Text: s["answer"].(string), Question: q},
			llm.ExtractItem{Text: s["reference"].(string), Question: q})
	}
	data := filepath.Join(dir, "resume.jsonl")
	if err := os.WriteFile(data, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	x := &llm.Extractor{Client: llm.New(llm.Config{Model: model})}
	var keys []string
	for _, it := range items {
		keys = append(keys, x.Key(it))
	}
	cache := &graphstore.Cache{DB: db}
	if err := cache.Delete(ctx, keys); err != nil {
		t.Fatal(err)
	}
	cachedAnswers := func() int {
		m, err := cache.Get(ctx, keys)
		if err != nil {
			t.Fatal(err)
		}
		return len(m)
	}

	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	proxy := &countingProxy{bodies: map[string]int{}}
	srv := httptest.NewServer(proxy.handler(&url.URL{Scheme: target.Scheme, Host: target.Host}))
	defer srv.Close()

	suffix := make([]byte, 4)
	rand.Read(suffix)
	run, ref := "resume-"+hex.EncodeToString(suffix), "resume-ref-"+hex.EncodeToString(suffix)
	t.Cleanup(func() {
		for _, r := range []string{run, ref} {
			if err := db.DeleteRun(context.Background(), r); err != nil && kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
				t.Error(err)
			}
		}
	})
	start := func(name string, extra ...string) (*exec.Cmd, *bytes.Buffer) {
		args := append([]string{"evaluate", "--dataset", data, "--run", name, "--neo4j-uri", graphstoretest.URI(),
			"--llm-base-url", srv.URL + "/v1", "--concurrency", "1"}, extra...)
		cmd := exec.Command(bin, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		// The model extracts (extraction.method both; rules is the
		// default) and checks every claim (prob), as before issue 50.
		cmd.Env = append(os.Environ(), "KGEVAL_NEO4J_PASSWORD="+graphstoretest.Password(), "KGEVAL_LLM_MODEL="+model,
			"KGEVAL_EXTRACTION_METHOD=both", "KGEVAL_SCORING_VERIFY=prob")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, &out
	}
	// waitFor polls until cond holds, failing after a while.
	waitFor := func(what string, out *bytes.Buffer, cond func() bool) {
		deadline := time.Now().Add(10 * time.Minute)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s; output:\n%s", what, out)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	status := func() string {
		r, err := db.GetRun(ctx, run)
		if err != nil {
			t.Fatal(err)
		}
		return r.Status
	}
	killed := func(cmd *exec.Cmd, out *bytes.Buffer, sig syscall.Signal) {
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("process was not stopped (err %v); output:\n%s", err, out)
		}
		if ws := ee.Sys().(syscall.WaitStatus); sig == syscall.SIGKILL && (!ws.Signaled() || ws.Signal() != syscall.SIGKILL) {
			t.Fatalf("process ended with %v, want SIGKILL; output:\n%s", ee, out)
		}
		t.Logf("stopped with %v after %d answers delivered; output tail:\n%s", sig, proxy.total, tail(out.String(), 6))
	}

	// 1. kill -9 once the first answer is cached: the second call is in flight.
	cmd, out := start(run)
	waitFor("a first cached answer", out, func() bool { return cachedAnswers() >= 1 })
	cmd.Process.Signal(syscall.SIGKILL)
	killed(cmd, out, syscall.SIGKILL)
	if s := status(); s != kgeval.RunRunning {
		t.Errorf("status after kill -9 = %q, want %q (a killed process cannot record more)", s, kgeval.RunRunning)
	}

	// 2. A run that exists is refused without --resume.
	cmd, out = start(run)
	if err := cmd.Wait(); err == nil || !strings.Contains(out.String(), "--resume") {
		t.Errorf("second start without --resume: err %v, output %s", err, out)
	}

	// 3. SIGINT once three answers are cached.
	cmd, out = start(run, "--resume")
	waitFor("three cached answers", out, func() bool { return cachedAnswers() >= 3 })
	cmd.Process.Signal(syscall.SIGINT)
	killed(cmd, out, syscall.SIGINT)
	if s := status(); s != kgeval.RunInterrupted {
		t.Errorf("status after SIGINT = %q, want %q", s, kgeval.RunInterrupted)
	}

	// 4. kill -9 after the pair graphs are stored, before they are scored.
	cmd, out = start(run, "--resume", "--kill-at", "store")
	killed(cmd, out, syscall.SIGKILL)
	counts := graphstoretest.RunCounts(t, run)
	if counts["entities"] == 0 || counts["scores"] != 0 {
		t.Errorf("after the kill at store: %v, want graphs and no scores", counts)
	}

	// 5. kill -9 after the scores are written, before the run is marked done.
	cmd, out = start(run, "--resume", "--kill-at", "score")
	killed(cmd, out, syscall.SIGKILL)

	// 6. The last resume finds everything scored and marks the run done.
	cmd, out = start(run, "--resume")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("final resume: %v\n%s", err, out)
	}
	if !strings.Contains(out.String(), "resumed: 8 pair graphs") {
		t.Errorf("final resume did not keep the 8 scored graphs:\n%s", out)
	}
	delivered, repeated := proxy.counts()
	if repeated != 0 {
		t.Errorf("%d model answers were delivered twice", repeated)
	}
	if n := cachedAnswers(); n != len(keys) {
		t.Errorf("%d of %d texts have a cached extraction", n, len(keys))
	}
	rec, err := db.GetRun(ctx, run)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Calls == nil {
		t.Fatal("no calls recorded")
	}
	calls := *rec.Calls
	if rec.Status != kgeval.RunDone || rec.Resumes != 4 || int(calls.Calls) != delivered {
		t.Errorf("run record: status %s, resumes %d, calls %d; want done, 4, %d (delivered by the server)", rec.Status, rec.Resumes, calls.Calls, delivered)
	}
	// The texts of the whole evaluation, as the first attempt counted them
	// (the last resume, with nothing left to do, counted none).
	if texts := rec.Texts; texts == nil || texts.Total != len(keys) || texts.Question != 2 {
		t.Errorf("run record texts %+v; want total %d, 2 questions", texts, len(keys))
	}

	// 7. A clean run of the same dataset (all answers cached: no call) must
	// hold exactly what the resumed run holds.
	cmd, out = start(ref)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("reference run: %v\n%s", err, out)
	}
	if d, _ := proxy.counts(); d != delivered {
		t.Errorf("the reference run made %d model calls, want 0", d-delivered)
	}
	got, want := graphstoretest.RunCounts(t, run), graphstoretest.RunCounts(t, ref)
	for _, k := range []string{"samples", "entities", "relations", "similar_edges", "head_edges", "tail_edges", "scores"} {
		if got[k] != want[k] {
			t.Errorf("%s: resumed run %d, clean run %d", k, got[k], want[k])
		}
	}
	if got["samples"] != 2 || got["scores"] != 8 {
		t.Errorf("resumed run counts %v, want 2 samples and 8 scores", got)
	}
	a := graphstoretest.ExportScores(t, run, kgeval.DefaultVariant)
	b := graphstoretest.ExportScores(t, ref, kgeval.DefaultVariant)
	for i := range a {
		for pair, r := range a[i].Scores {
			w := b[i].Scores[pair]
			if fmtPtr(r.Value(metricreg.MetricMultihop)) != fmtPtr(w.Value(metricreg.MetricMultihop)) || r.Reason != w.Reason {
				t.Errorf("%s %s: multihop %s (%q), clean run %s (%q)", a[i].ID, pair, fmtPtr(r.Value(metricreg.MetricMultihop)), r.Reason, fmtPtr(w.Value(metricreg.MetricMultihop)), w.Reason)
			}
		}
	}
	t.Logf("%d model answers delivered in all for %d texts; resumed run %v", delivered, len(keys), got)
}

func fmtPtr(v *float64) string {
	if v == nil {
		return "null"
	}
	b, _ := json.Marshal(*v)
	return string(b)
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
