package analysis

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
)

// TestCached_OneComputation checks that callers asking for one key while
// it is computed share that computation, and that a run still running is
// never cached.
func TestCached_OneComputation(t *testing.T) {
	c := newRunCache(time.Minute, 8)
	done := kgeval.Run{Name: "r", Status: kgeval.RunDone}
	key, ok := c.key(done, "triage")
	var calls atomic.Int32
	release := make(chan struct{})
	var wg sync.WaitGroup
	got := make([]int, 5)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := cached(c, key, ok, func() (int, error) {
				calls.Add(1)
				<-release
				return 42, nil
			})
			if err != nil {
				t.Error(err)
			}
			got[i] = v
		}()
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("%d computations, want 1", calls.Load())
	}
	for i, v := range got {
		if v != 42 {
			t.Errorf("caller %d got %d", i, v)
		}
	}
	running := kgeval.Run{Name: "r", Status: kgeval.RunRunning}
	key, ok = c.key(running, "triage")
	for range 2 {
		if _, err := cached(c, key, ok, func() (int, error) { calls.Add(1); return 1, nil }); err != nil {
			t.Fatal(err)
		}
	}
	if calls.Load() != 3 {
		t.Errorf("a running run was cached: %d computations, want 3", calls.Load())
	}
}

// TestCached_ExpiresAndEvicts checks that an entry is computed again after
// the ttl, that past max entries the least recently used one goes, and
// that an error is not cached.
func TestCached_ExpiresAndEvicts(t *testing.T) {
	c := newRunCache(200*time.Millisecond, 2)
	calls := map[string]int{}
	get := func(part string) {
		t.Helper()
		key, ok := c.key(kgeval.Run{Name: "r", Status: kgeval.RunDone}, part)
		if _, err := cached(c, key, ok, func() (string, error) { calls[part]++; return part, nil }); err != nil {
			t.Fatal(err)
		}
	}
	get("a")
	get("b")
	get("a") // a is the most recently used
	get("c") // evicts b
	get("a")
	get("b")
	if calls["a"] != 1 || calls["b"] != 2 || calls["c"] != 1 {
		t.Errorf("computations %v, want a 1, b 2 (evicted by c), c 1", calls)
	}
	time.Sleep(300 * time.Millisecond)
	get("a")
	if calls["a"] != 2 {
		t.Errorf("a computed %d times after its ttl, want 2", calls["a"])
	}
	key, ok := c.key(kgeval.Run{Name: "r", Status: kgeval.RunDone}, "err")
	n := 0
	for range 2 {
		if _, err := cached(c, key, ok, func() (int, error) { n++; return 0, errors.New("down") }); err == nil {
			t.Fatal("no error")
		}
	}
	if n != 2 {
		t.Errorf("a failed computation ran %d times for two calls, want 2 (errors are not cached)", n)
	}
}
