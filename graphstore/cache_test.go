package graphstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
)

// TestCache_PutWithRunFields stores answers and a run's fields together:
// after Put both are there, after Delete the answers are gone and the run
// keeps the last fields written.
func TestCache_PutWithRunFields(t *testing.T) {
	db := MustOpenDB(t)
	ctx := context.Background()
	name := fmt.Sprintf("test-cache-run-%d", time.Now().UnixNano())
	if err := db.CreateRun(ctx, kgeval.Run{Name: name, Dataset: "d.jsonl", Fingerprint: "abc", Config: "{}", Engine: "native", Status: kgeval.RunRunning, Started: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.DeleteRun(context.Background(), name) })
	n := 0
	c := &graphstore.Cache{DB: db, Run: name, RunFields: func() map[string]any {
		n++
		return map[string]any{"calls": fmt.Sprintf(`{"calls":%d}`, n)}
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
	if rec.Calls != `{"calls":1}` {
		t.Errorf("run calls = %q after one Put, want {\"calls\":1}", rec.Calls)
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
	if rec, _ := db.GetRun(ctx, name); rec.Calls != `{"calls":1}` || n != 1 {
		t.Errorf("plain Put changed the run: calls %q, RunFields called %d times", rec.Calls, n)
	}
}
