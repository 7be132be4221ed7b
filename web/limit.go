package web

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// signInLimiter counts sign-ins per key (a client address, a user name or
// an identity) in a token bucket (golang.org/x/time/rate): burst in a row, then one more per every.
// auth keeps one for failed sign-ins per (user name, client), per client
// and per user name, and one for successful sign-ins per client and per
// identity. While a key's
// bucket is empty, attempts are refused before any password is checked,
// with the time until the next one is allowed.
type signInLimiter struct {
	mu    sync.Mutex
	burst int
	every time.Duration
	max   int
	m     map[string]*rate.Limiter
}

func newSignInLimiter(burst int, every time.Duration, max int) *signInLimiter {
	return &signInLimiter{burst: burst, every: every, max: max, m: map[string]*rate.Limiter{}}
}

// wait returns how long key must wait before its next attempt (0: now).
func (l *signInLimiter) wait(key string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.m[key]
	if !ok {
		return 0
	}
	tokens := b.TokensAt(now)
	if tokens >= 1 {
		return 0
	}
	return time.Duration((1 - tokens) * float64(l.every))
}

// failedBefore says whether key has attempts on record: its bucket is
// not full (a full one is forgotten, as it holds no information).
func (l *signInLimiter) failedBefore(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.m[key]
	return ok && b.TokensAt(now) < float64(l.burst)
}

// count records an attempt of key: it takes a token when there is one (an
// attempt is counted only after wait allowed it; a race that finds the
// bucket empty leaves it empty).
func (l *signInLimiter) count(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.m[key]
	if !ok {
		if len(l.m) >= l.max && !l.prune(now) {
			return // every key tracked is locked out: keep them, drop this one
		}
		b = rate.NewLimiter(rate.Every(l.every), l.burst)
		l.m[key] = b
	}
	b.AllowN(now, 1)
}

// prune makes room: it forgets keys whose bucket is full again (they hold
// no information), then, when that is not enough, keys that are not locked
// out, so that a flood of new keys neither grows memory without bound nor
// frees a locked-out key. It reports whether there is room. Callers hold mu.
func (l *signInLimiter) prune(now time.Time) bool {
	for k, b := range l.m {
		if b.TokensAt(now) >= float64(l.burst) {
			delete(l.m, k)
		}
	}
	for k, b := range l.m {
		if len(l.m) < l.max {
			break
		}
		if b.TokensAt(now) >= 1 {
			delete(l.m, k)
		}
	}
	return len(l.m) < l.max
}
