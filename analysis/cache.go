package analysis

import (
	"strconv"
	"sync"
	"time"

	"github.com/kgeval/kgeval"
)

// runCache keeps what a Reader derives from a finished run (summary,
// distributions, the order of a sample list) so that paging through 10,000
// samples does not sort them again for every page. Entries are keyed by the
// run's name, start, finish and status, so a replaced or resumed run gets
// new keys; running runs are never cached; entries expire after ttl anyway
// (a sweep may add scores to a finished run).
type runCache struct {
	mu  sync.Mutex
	ttl time.Duration
	max int
	m   map[string]cacheItem
	// flights are the computations under way, by key: a second caller
	// waits for the first instead of computing the same thing again.
	flights map[string]*flight
}

type flight struct {
	done chan struct{}
	v    any
	err  error
}

type cacheItem struct {
	v   any
	exp time.Time
}

func newRunCache(ttl time.Duration, max int) *runCache {
	return &runCache{ttl: ttl, max: max, m: map[string]cacheItem{}, flights: map[string]*flight{}}
}

// key returns the cache key of what parts name for run r, and false when r
// may still change.
func (c *runCache) key(r kgeval.Run, parts ...string) (string, bool) {
	if r.Status != kgeval.RunDone {
		return "", false
	}
	return kgeval.JoinKey(append([]string{r.Name, strconv.FormatInt(r.Started.UnixNano(), 10), strconv.FormatInt(r.Finished.UnixNano(), 10)}, parts...)...), true
}

func (c *runCache) get(key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.m[key]
	if !ok || time.Now().After(it.exp) {
		return nil, false
	}
	return it.v, true
}

func (c *runCache) put(key string, v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if len(c.m) >= c.max {
		var oldest string
		for k, it := range c.m {
			if now.After(it.exp) {
				delete(c.m, k)
			} else if oldest == "" || it.exp.Before(c.m[oldest].exp) {
				oldest = k
			}
		}
		if len(c.m) >= c.max {
			delete(c.m, oldest)
		}
	}
	c.m[key] = cacheItem{v: v, exp: now.Add(c.ttl)}
}

// cached returns what fn computes for key, computing it at most once per
// ttl when ok (the run is finished); otherwise it just calls fn.
// Callers that ask for the same key while it is being computed wait for
// that computation and share its result.
func cached[T any](c *runCache, key string, ok bool, fn func() (T, error)) (T, error) {
	if !ok {
		return fn()
	}
	if v, hit := c.get(key); hit {
		return v.(T), nil
	}
	c.mu.Lock()
	if f, busy := c.flights[key]; busy {
		c.mu.Unlock()
		<-f.done
		if f.err != nil {
			var zero T
			return zero, f.err
		}
		if v, isT := f.v.(T); isT {
			return v, nil
		}
		return fn() // the first caller panicked
	}
	f := &flight{done: make(chan struct{})}
	c.flights[key] = f
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.flights, key)
		c.mu.Unlock()
		close(f.done)
	}()
	v, err := fn()
	f.v, f.err = v, err
	if err == nil {
		c.put(key, v)
	}
	return v, err
}
