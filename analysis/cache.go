package analysis

import (
	"strconv"
	"time"

	"github.com/hashicorp/golang-lru/v2/expirable"
	"golang.org/x/sync/singleflight"

	"github.com/kgeval/kgeval"
)

// runCache keeps what a Reader derives from a finished run (summary,
// distributions, the order of a sample list) so that paging through 10,000
// samples does not sort them again for every page. Entries are keyed by the
// run's name, start, finish and status, so a replaced or resumed run gets
// new keys; running runs are never cached; entries expire after ttl anyway
// (a sweep may add scores to a finished run), and past max entries the
// least recently used goes (an expiring LRU). Callers asking for one key
// while it is computed share that computation (singleflight).
type runCache struct {
	lru     *expirable.LRU[string, any]
	flights singleflight.Group
}

func newRunCache(ttl time.Duration, max int) *runCache {
	return &runCache{lru: expirable.NewLRU[string, any](max, nil, ttl)}
}

// key returns the cache key of what parts name for run r, and false when r
// may still change.
func (c *runCache) key(r kgeval.Run, parts ...string) (string, bool) {
	if r.Status != kgeval.RunDone {
		return "", false
	}
	return kgeval.JoinKey(append([]string{r.Name, strconv.FormatInt(r.Started.UnixNano(), 10), strconv.FormatInt(r.Finished.UnixNano(), 10)}, parts...)...), true
}

// cached returns what fn computes for key, computing it at most once per
// ttl when ok (the run is finished); otherwise it just calls fn.
// Callers that ask for the same key while it is being computed wait for
// that computation and share its result; an error is not cached.
func cached[T any](c *runCache, key string, ok bool, fn func() (T, error)) (T, error) {
	if !ok {
		return fn()
	}
	if v, hit := c.lru.Get(key); hit {
		return v.(T), nil
	}
	v, err, _ := c.flights.Do(key, func() (any, error) {
		v, err := fn()
		if err == nil {
			c.lru.Add(key, v)
		}
		return v, err
	})
	if err != nil {
		var zero T
		return zero, err
	}
	return v.(T), nil
}
