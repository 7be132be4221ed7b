package analysis

import (
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
