package web_test

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/web"
)

// switchHealth is the real Neo4j's health check with a fault switch: while
// down is set it answers as a Neo4j that is gone.
type switchHealth struct {
	real web.Health
	down atomic.Bool
}

func (h *switchHealth) Check(ctx context.Context) (map[string]string, error) {
	if h.down.Load() {
		return downHealth{}.Check(ctx)
	}
	return h.real.Check(ctx)
}

// lockedBuffer is a log the server writes from its goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServer_HealthWatch checks that kgeval serve logs when Neo4j stops
// answering and when it is back, once each, from its own periodic check
// (web.Config.HealthEvery) without any request.
func TestServer_HealthWatch(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	h := &switchHealth{real: &graphstore.Health{DB: db}}
	var log lockedBuffer
	cfg := signInConfig(t, nil)
	cfg.Logger = slog.New(slog.NewTextHandler(&log, nil))
	cfg.HealthEvery = 50 * time.Millisecond
	s, err := web.NewServer(cfg, h, db)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ListenAndServe(ctx, "127.0.0.1:0", io.Discard) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ListenAndServe: %v", err)
		}
	}()
	waitFor := func(what string, n int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for strings.Count(log.String(), what) < n {
			if time.Now().After(deadline) {
				t.Fatalf("no %q (%d) in the log after 10 s:\n%s", what, n, log.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	time.Sleep(200 * time.Millisecond) // a few checks while Neo4j answers: nothing logged
	if l := log.String(); l != "" {
		t.Errorf("logged while Neo4j answers: %s", l)
	}
	h.down.Store(true)
	waitFor("neo4j is unavailable", 1)
	time.Sleep(200 * time.Millisecond) // more failed checks: still one line
	h.down.Store(false)
	waitFor("neo4j answers again", 1)
	t.Logf("log:\n%s", log.String())
	if n := strings.Count(log.String(), "neo4j is unavailable"); n != 1 {
		t.Errorf("%d lines say Neo4j is unavailable, want 1 per outage", n)
	}
}
