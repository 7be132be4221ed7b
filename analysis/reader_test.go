package analysis_test

import (
	"context"
	"sync"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/readmodel"
)

// countingReads counts the run-record and summary reads of a store.
type countingReads struct {
	analysis.Source
	mu              sync.Mutex
	getRun, summary int
}

func (s *countingReads) GetRun(ctx context.Context, name string) (kgeval.Run, error) {
	s.mu.Lock()
	s.getRun++
	s.mu.Unlock()
	return s.Source.GetRun(ctx, name)
}

func (s *countingReads) RunSummary(ctx context.Context, run, variant string) ([]readmodel.PairSummary, error) {
	s.mu.Lock()
	s.summary++
	s.mu.Unlock()
	return s.Source.RunSummary(ctx, run, variant)
}

// TestReader_Overview: the overview reads the run once; a finished run's
// view is cached, a running run's is read again every time.
func TestReader_Overview(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	r := graphstoretest.MustWebRun(t, db, 4)
	st := &countingReads{Source: db}
	rd := analysis.NewReader(st, analysis.ReaderOptions{})
	ctx := context.Background()
	for range 2 {
		ov, err := rd.Overview(ctx, r.Name, analysis.OverviewOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if ov.View.Run.Name != r.Name || ov.View.Record.Name != r.Name || len(ov.View.Summary) != 2 || ov.Stats == nil || ov.Sweep == nil {
			t.Fatalf("overview: %+v", ov)
		}
	}
	if st.getRun != 2 || st.summary != 1 {
		t.Errorf("finished run, two overviews: GetRun %d (want 2), RunSummary %d (want 1)", st.getRun, st.summary)
	}
	running := kgeval.RunRunning
	if err := db.UpdateRun(ctx, r.Name, kgeval.RunUpdate{Status: &running}); err != nil {
		t.Fatal(err)
	}
	st.getRun, st.summary = 0, 0
	for range 2 {
		if _, err := rd.View(ctx, r.Name, kgeval.DefaultVariant); err != nil {
			t.Fatal(err)
		}
	}
	if st.getRun != 2 || st.summary != 2 {
		t.Errorf("running run, two views: GetRun %d, RunSummary %d (want 2 each: not cached)", st.getRun, st.summary)
	}
	if _, err := rd.View(ctx, "no-such-run", kgeval.DefaultVariant); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
		t.Errorf("unknown run: %v", err)
	}
}
