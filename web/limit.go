package web

import (
	"math"
	"sync"
	"time"
)

// signInLimiter counts sign-ins per key (a client address, a user name or
// an identity) in a token bucket: burst in a row, then one more per every.
// auth keeps one for failed sign-ins per client and per user name, and one
// for successful sign-ins per client and per identity. While a key's
// bucket is empty, attempts are refused before any password is checked,
// with the time until the next one is allowed.
type signInLimiter struct {
	mu    sync.Mutex
	burst float64
	every time.Duration
	max   int
	m     map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newSignInLimiter(burst int, every time.Duration, max int) *signInLimiter {
	return &signInLimiter{burst: float64(burst), every: every, max: max, m: map[string]*bucket{}}
}

// refill brings b up to now. Callers hold mu.
func (l *signInLimiter) refill(b *bucket, now time.Time) {
	b.tokens = math.Min(l.burst, b.tokens+float64(now.Sub(b.at))/float64(l.every))
	b.at = now
}

// wait returns how long key must wait before its next attempt (0: now).
func (l *signInLimiter) wait(key string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.m[key]
	if !ok {
		return 0
	}
	l.refill(b, now)
	if b.tokens >= 1 {
		return 0
	}
	return time.Duration((1 - b.tokens) * float64(l.every))
}

// count records an attempt of key.
func (l *signInLimiter) count(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.m[key]
	if !ok {
		if len(l.m) >= l.max && !l.prune(now) {
			return // every key tracked is locked out: keep them, drop this one
		}
		b = &bucket{tokens: l.burst, at: now}
		l.m[key] = b
	}
	l.refill(b, now)
	b.tokens = math.Max(0, b.tokens-1)
}

// prune makes room: it forgets keys whose bucket is full again (they hold
// no information), then, when that is not enough, keys that are not locked
// out, so that a flood of new keys neither grows memory without bound nor
// frees a locked-out key. It reports whether there is room. Callers hold mu.
func (l *signInLimiter) prune(now time.Time) bool {
	for k, b := range l.m {
		l.refill(b, now)
		if b.tokens >= l.burst {
			delete(l.m, k)
		}
	}
	for k, b := range l.m {
		if len(l.m) < l.max {
			break
		}
		if b.tokens >= 1 {
			delete(l.m, k)
		}
	}
	return len(l.m) < l.max
}
