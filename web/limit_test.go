package web

import (
	"fmt"
	"testing"
	"time"
)

// TestSignInLimiter checks the token bucket per key: burst attempts in a
// row, then one per every; a full bucket is forgotten to make room, a
// locked-out key is kept and a new key dropped when every key is locked.
func TestSignInLimiter(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	l := newSignInLimiter(3, 10*time.Second, 2)
	for i := range 3 {
		if w := l.wait("a", t0); w != 0 {
			t.Fatalf("attempt %d: wait %v, want 0", i+1, w)
		}
		l.count("a", t0)
	}
	if w := l.wait("a", t0); w != 10*time.Second {
		t.Fatalf("after the burst: wait %v, want 10s", w)
	}
	if w := l.wait("a", t0.Add(4*time.Second)); w != 6*time.Second {
		t.Fatalf("4 s later: wait %v, want 6s", w)
	}
	if w := l.wait("a", t0.Add(10*time.Second)); w != 0 {
		t.Fatalf("10 s later: wait %v, want 0", w)
	}
	l.count("a", t0.Add(10*time.Second))
	if w := l.wait("a", t0.Add(10*time.Second)); w != 10*time.Second {
		t.Fatalf("after one more: wait %v, want 10s", w)
	}
	if w := l.wait("other", t0); w != 0 {
		t.Fatalf("another key: wait %v, want 0", w)
	}
	// Room for 2 keys: b is locked out beside a, so c is dropped.
	for range 3 {
		l.count("b", t0.Add(10*time.Second))
	}
	l.count("c", t0.Add(10*time.Second))
	if _, ok := l.m["c"]; ok || len(l.m) != 2 {
		t.Fatalf("keys %v: want a and b kept, c dropped", keys(l))
	}
	// An hour later both buckets are full again and are forgotten.
	l.count("c", t0.Add(time.Hour))
	if _, ok := l.m["c"]; !ok || len(l.m) != 1 {
		t.Fatalf("keys %v: want only c", keys(l))
	}
}

func keys(l *signInLimiter) string { return fmt.Sprint(len(l.m), " keys") }
