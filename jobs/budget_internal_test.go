package jobs

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/dataset"
)

// TestBudget_Body checks the memory budget uploads share: an upload
// reserves its cost once its body is in; one that does not fit waits, and
// after the wait ends with EUNAVAILABLE, a RetryAfter (the API's 503 and
// Retry-After) and the reason; a smaller one that fits goes through
// meanwhile; once the holder gives its reservation back, the budget is
// free again.
func TestBudget_Body(t *testing.T) {
	costs := map[string]int64{"hold.jsonl": 60 << 20, "big.jsonl": 60 << 20, "small.jsonl": 10 << 20, "huge.parquet": -1}
	b := newBudgetOf(100<<20, func(name string, size int64) int64 { return costs[name] }, nil)
	b.wait = 300 * time.Millisecond
	read := func(name string) (func(), error) {
		body, release := b.body(context.Background(), name, strings.NewReader(`{"question": "q"}`+"\n"))
		_, err := io.Copy(io.Discard, body)
		return release, err
	}

	releaseHold, err := read("hold.jsonl") // holds 60 of the 100 MiB
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	releaseBig, err := read("big.jsonl")
	waited := time.Since(start)
	releaseBig()
	want := "the server is busy reading other uploads: this one needs 60.0 MiB of the 100.0 MiB they share (web.upload_memory_bytes), which did not come free within 1 s; retry in 1 s"
	if kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE || kgeval.RetryAfter(err) != time.Second || kgeval.ErrorMessage(err) != want {
		t.Errorf("over the budget: %v (retry after %s)", err, kgeval.RetryAfter(err))
	}
	if waited < b.wait {
		t.Errorf("answered after %s, before the wait", waited)
	}
	t.Logf("over the budget after %s: %v", waited.Round(time.Millisecond), err)

	releaseSmall, err := read("small.jsonl")
	if err != nil {
		t.Errorf("10 MiB fits beside 60 of 100: %v", err)
	}
	releaseSmall()
	releaseHuge, err := read("huge.parquet")
	releaseHuge()
	if kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE {
		t.Errorf("an unbounded cost takes the whole budget, which is held: %v", err)
	}

	releaseHold()
	for _, name := range []string{"big.jsonl", "huge.parquet"} {
		release, err := read(name)
		if err != nil {
			t.Errorf("%s once the budget is free: %v", name, err)
		}
		release()
	}
	if free := b.sem.TryAcquire(100 << 20); !free {
		t.Errorf("the budget is not all given back")
	}
}

// TestBudget_File checks what loading a stored upload reserves: its
// meter's cost (the structure of its records included), the static cost
// without a meter, ETOOLARGE over the whole budget, ENOTFOUND for a file
// that is gone; and that a job's load waits for uploads being read, the
// same budget.
func TestBudget_File(t *testing.T) {
	opt := dataset.Options{MaxRecords: 100000, MaxDecodedBytes: 64 << 20, MaxDepth: 32, MaxValues: 20000, MaxFileValues: 2000000}
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.jsonl")
	os.WriteFile(plain, []byte(strings.Repeat(`{"question": "q", "contexts": ["c"]}`+"\n", 1000)), 0o600)
	objects := filepath.Join(dir, "objects.jsonl")
	line := `{"question": "q", "metadata": {"x": [` + strings.TrimSuffix(strings.Repeat(`{"a":0},`, 9990), ",") + "]}}\n"
	os.WriteFile(objects, []byte(strings.Repeat(line, 100)), 0o600)

	b := newBudget(512<<20, opt)
	static := b.weight("plain.jsonl", 37000)
	w, err := b.fileWeight("plain.jsonl", plain)
	if err != nil || w <= static || w > static+1<<20+int64(opt.MaxValues)*400 {
		t.Errorf("plain: %d, %v; static %d", w, err, static)
	}
	_, err = b.fileWeight("objects.jsonl", objects)
	if kgeval.ErrorCode(err) != kgeval.ETOOLARGE || !strings.Contains(kgeval.ErrorMessage(err), "more than the 512.0 MiB uploads and jobs share") {
		t.Errorf("objects: %v", err)
	}
	t.Logf("objects.jsonl: %v", err)
	if _, err := b.file(context.Background(), "gone.jsonl", filepath.Join(dir, "gone.jsonl")); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
		t.Errorf("gone: %v", err)
	}
	noMeter := newBudgetOf(512<<20, dataset.UploadCost(opt), nil)
	if w, err := noMeter.fileWeight("objects.jsonl", objects); err != nil || w != noMeter.weight("objects.jsonl", int64(len(line)*100)) {
		t.Errorf("without a meter: %d, %v", w, err)
	}

	// An upload being read holds all but less than the file's weight: the
	// load waits, then ends with EUNAVAILABLE; once it is given back the
	// load reserves its weight and gives it back in turn.
	b.wait = 200 * time.Millisecond
	if !b.sem.TryAcquire(b.total - w + 1) {
		t.Fatal("budget not free")
	}
	if _, err := b.file(context.Background(), "plain.jsonl", plain); kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE || kgeval.RetryAfter(err) <= 0 {
		t.Errorf("load beside a held budget: %v", err)
	}
	b.sem.Release(b.total - w + 1)
	release, err := b.file(context.Background(), "plain.jsonl", plain)
	if err != nil {
		t.Fatal(err)
	}
	if b.sem.TryAcquire(b.total - w + 1) {
		t.Errorf("the load reserved less than its weight %d", w)
	}
	release()
	if !b.sem.TryAcquire(b.total) {
		t.Errorf("the load's reservation was not given back")
	}
}
