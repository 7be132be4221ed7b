package graphstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
)

// TestCache_PutWithRunCalls stores answers and a run's call accounting together:
// after Put both are there, after Delete the answers are gone and the run
// keeps the last accounting written.
func TestCache_PutWithRunCalls(t *testing.T) {
	db := MustOpenDB(t)
	ctx := context.Background()
	name := fmt.Sprintf("test-cache-run-%d", time.Now().UnixNano())
	if err := db.CreateRun(ctx, kgeval.Run{Name: name, Dataset: "d.jsonl", Fingerprint: "abc", Config: "{}", Engine: "native", Status: kgeval.RunRunning, Started: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.DeleteRun(context.Background(), name) })
	n := 0
	c := &graphstore.Cache{DB: db, Run: name, Calls: func() kgeval.Calls {
		n++
		return kgeval.Calls{Calls: int64(n)}
	}}
	keys := make([]string, 0, 2500)
	entries := map[string][]byte{}
	for i := range 2500 { // more than one batch of 1000
		k := fmt.Sprintf("%s/%d", name, i)
		keys = append(keys, k)
		entries[k] = []byte(fmt.Sprintf(`{"i":%d}`, i))
	}
	t.Cleanup(func() { _ = c.Delete(context.Background(), keys) })
	if err := c.Put(ctx, entries); err != nil {
		t.Fatal(err)
	}
	got, err := c.Get(ctx, keys)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(keys) || string(got[keys[7]]) != `{"i":7}` {
		t.Errorf("got %d entries, [7] = %s; want %d, {\"i\":7}", len(got), got[keys[7]], len(keys))
	}
	rec, err := db.GetRun(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Calls == nil || *rec.Calls != (kgeval.Calls{Calls: 1}) {
		t.Errorf("run calls = %+v after one Put, want 1 call", rec.Calls)
	}
	if err := c.Delete(ctx, keys[:10]); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.Get(ctx, keys[:20]); len(got) != 10 {
		t.Errorf("after deleting 10 of 20: %d left, want 10", len(got))
	}
	// A cache without a run writes no run fields.
	plain := &graphstore.Cache{DB: db}
	if err := plain.Put(ctx, map[string][]byte{keys[0]: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if rec, _ := db.GetRun(ctx, name); rec.Calls == nil || rec.Calls.Calls != 1 || n != 1 {
		t.Errorf("plain Put changed the run: calls %+v, Calls called %d times", rec.Calls, n)
	}
}

// TestCache_RunTagging checks the runs recorded on cache entries: a Put and
// a Get hit each add the cache's run once (a set, however often), a miss
// creates nothing, concurrent Gets of two runs lose neither name, Entries
// filters by run and kind in key order and pages, Import counts new / kept
// / overwritten entries and is idempotent, and DeleteRun removes the run's
// name and nothing else.
func TestCache_RunTagging(t *testing.T) {
	db := MustOpenDB(t)
	ctx := context.Background()
	stamp := time.Now().UnixNano()
	kind := fmt.Sprintf("tagtest%d", stamp) // a kind of its own: Entries can select exactly this test's keys
	run := func(i int) string { return fmt.Sprintf("test-cache-tag-%d-%d", stamp, i) }
	key := func(i int) string { return fmt.Sprintf("%s:%03d", kind, i) }
	var keys []string
	for i := range 6 {
		keys = append(keys, key(i))
	}
	plain := &graphstore.Cache{DB: db}
	t.Cleanup(func() { _ = plain.Delete(context.Background(), keys) })
	only := kgeval.CacheFilter{Kinds: []string{kind}}
	entries := func(f kgeval.CacheFilter) map[string][]string {
		t.Helper()
		f.Kinds = only.Kinds
		got := map[string][]string{}
		after := ""
		for {
			page, err := plain.Entries(ctx, f, after, 2) // pages of 2: the paging is exercised
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				return got
			}
			for _, e := range page {
				if e.Key <= after {
					t.Fatalf("entries out of key order: %s after %s", e.Key, after)
				}
				after = e.Key
				got[e.Key] = e.Runs
			}
		}
	}

	r1 := &graphstore.Cache{DB: db, Run: run(1)}
	if err := r1.Put(ctx, map[string][]byte{key(0): []byte("a"), key(1): []byte("b"), key(2): []byte("c")}); err != nil {
		t.Fatal(err)
	}
	r2 := &graphstore.Cache{DB: db, Run: run(2)}
	for range 2 { // twice: the run is recorded once
		got, err := r2.Get(ctx, []string{key(1), key(2), key(5), key(1)})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || string(got[key(1)]) != "b" {
			t.Fatalf("Get = %v, want the 2 stored of 3 distinct keys", got)
		}
	}
	if err := r2.Put(ctx, map[string][]byte{key(2): []byte("c")}); err != nil { // a Put of a used entry adds nothing
		t.Fatal(err)
	}
	want := map[string][]string{key(0): {run(1)}, key(1): {run(1), run(2)}, key(2): {run(1), run(2)}}
	if got := entries(kgeval.CacheFilter{}); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("entries %v\nwant %v", got, want)
	}
	if got := entries(kgeval.CacheFilter{Runs: []string{run(2)}}); len(got) != 2 || got[key(0)] != nil {
		t.Errorf("entries used by run 2: %v, want keys 1 and 2", got)
	}
	if got := entries(kgeval.CacheFilter{Runs: []string{run(2), run(1)}}); len(got) != 3 {
		t.Errorf("entries used by run 1 or 2: %v, want 3", got)
	}

	// Two runs reading the same entries at once: both names stay.
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 3; i <= 4; i++ {
		c := &graphstore.Cache{DB: db, Run: run(i)}
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := c.Get(ctx, []string{key(2), key(0), key(1)}); err != nil {
					errs <- err
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for k, rs := range entries(kgeval.CacheFilter{}) {
		if n3, n4 := count(rs, run(3)), count(rs, run(4)); n3 != 1 || n4 != 1 {
			t.Errorf("%s: runs %v, want runs 3 and 4 once each", k, rs)
		}
	}

	// Import: 2 new, 1 kept as it was, 1 kept though it differs; again
	// with overwrite: that one overwritten, nothing new.
	imp := []kgeval.CacheEntry{{Key: key(0), Value: "a"}, {Key: key(1), Value: "B"}, {Key: key(3), Value: "d"}, {Key: key(4), Value: "e"}}
	n, err := plain.Import(ctx, imp, false)
	if err != nil || n != (kgeval.CacheImport{Created: 2, Kept: 2, Differing: 1}) {
		t.Fatalf("import: %+v %v", n, err)
	}
	if got, _ := plain.Get(ctx, []string{key(1)}); string(got[key(1)]) != "b" {
		t.Errorf("import without overwrite changed %s to %s", key(1), got[key(1)])
	}
	n, err = plain.Import(ctx, imp, true)
	if err != nil || n != (kgeval.CacheImport{Kept: 3, Overwritten: 1, Differing: 1}) {
		t.Fatalf("import --overwrite: %+v %v", n, err)
	}
	if got, _ := plain.Get(ctx, []string{key(1)}); string(got[key(1)]) != "B" {
		t.Errorf("import with overwrite left %s = %s", key(1), got[key(1)])
	}
	if got := entries(kgeval.CacheFilter{}); len(got) != 5 || got[key(3)] != nil || count(got[key(1)], run(1)) != 1 {
		t.Errorf("after import: %v (imported entries have no run; existing ones keep theirs)", got)
	}

	// DeleteRun takes the run's name off its entries and deletes none.
	if err := db.CreateRun(ctx, kgeval.Run{Name: run(1), Config: "{}", Engine: "native", Status: kgeval.RunDone, Started: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteRun(ctx, run(1)); err != nil {
		t.Fatal(err)
	}
	got := entries(kgeval.CacheFilter{})
	if len(got) != 5 || count(got[key(0)], run(1)) != 0 || count(got[key(1)], run(2)) != 1 {
		t.Errorf("after DeleteRun(run 1): %v", got)
	}
	st, err := plain.Stats(ctx, kgeval.CacheFilter{Runs: []string{run(3)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(st) != 1 || st[0] != (kgeval.CacheKindStats{Kind: kind, Entries: 3, Chars: 3, Used: 3}) {
		t.Errorf("stats of run 3: %+v", st)
	}
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}
