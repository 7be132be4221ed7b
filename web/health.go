package web

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/kgeval/kgeval"
)

// neo4jDown is what a page or an API answer says when Neo4j does not
// answer, in place of the store's message (which names the query and the
// server's Bolt address).
const neo4jDown = "Neo4j is down or restarting: the dashboard answers again once it is back (an admin sees why in /healthz and the server log)"

// healthWatch logs when Neo4j stops answering and when it answers again,
// once per change: ListenAndServe checks it every HealthEvery, and /healthz
// and every request that found Neo4j unreachable report what they saw.
type healthWatch struct {
	log *slog.Logger

	mu    sync.Mutex
	down  bool
	since time.Time
}

// saw records the outcome of one look at Neo4j: err nil (it answered), an
// error of kind unreachable or code EUNAVAILABLE (it did not), anything
// else (no news about Neo4j).
func (w *healthWatch) saw(err error) {
	down := err != nil && (kgeval.ErrorKind(err) == kgeval.KindUnreachable || kgeval.ErrorCode(err) == kgeval.EUNAVAILABLE)
	if err != nil && !down {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case down && !w.down:
		w.down, w.since = true, time.Now()
		w.log.Error("neo4j is unavailable: the dashboard answers 503 until it is back (deploy/neo4j/neo4j.sh start restarts a bundled Neo4j that died)", "err", err)
	case !down && w.down:
		w.down = false
		w.log.Info("neo4j answers again", "down_seconds", int(time.Since(w.since).Seconds()))
	}
}

// run checks h every every until ctx ends.
func (w *healthWatch) run(ctx context.Context, h Health, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			_, err := h.Check(cctx)
			cancel()
			if ctx.Err() == nil {
				w.saw(err)
			}
		}
	}
}
