package graphstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/scoring/scoringtest"
)

// TestDB_Runs records a run with samples, graphs and scores, lists it,
// summarises it, and deletes it: every node of the run goes, nothing else.
func TestDB_Runs(t *testing.T) {
	db := MustOpenDB(t)
	ctx := context.Background()
	name := fmt.Sprintf("test-runs-%d", time.Now().UnixNano())
	other := MustRun(t, db)
	run := kgeval.Run{Name: name, Dataset: "d.jsonl", Fingerprint: "abc", Config: "{}", Engine: "gds", Status: kgeval.RunRunning, Samples: 1, Started: time.Now().UTC()}
	if err := db.CreateRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateRun(ctx, run); kgeval.ErrorCode(err) != kgeval.ECONFLICT {
		t.Errorf("second create: err %v, want ECONFLICT", err)
	}
	if err := db.WriteSamples(ctx, name, []kgeval.Sample{{ID: "s1", Question: "q", Contexts: []string{"c"}, Human: map[string]any{"x": 1.0}}}); err != nil {
		t.Fatal(err)
	}
	c := scoringtest.Cases()[0]
	for _, r := range []string{name, other} {
		if _, err := db.WritePairGraphs(ctx, r, []*kgeval.PairGraph{c.Graph}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := (&graphstore.GDS{DB: db}).Score(ctx, name, []*kgeval.PairGraph{c.Graph}, c.Params)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.WriteKGResults(ctx, name, kgeval.DefaultVariant, "gds", c.Params, res); err != nil {
		t.Fatal(err)
	}
	done, none, finished := kgeval.RunDone, "", time.Now().UTC()
	if err := db.UpdateRun(ctx, name, kgeval.RunUpdate{Status: &done, Error: &none, Finished: &finished, Stages: kgeval.Stages{"score": 1.5}, Calls: &kgeval.Calls{Calls: 3}}); err != nil {
		t.Fatal(err)
	}
	got, err := db.GetRun(ctx, name)
	if err != nil || got.Status != kgeval.RunDone || got.Fingerprint != "abc" || got.Stages["score"] != 1.5 || got.Calls == nil || got.Calls.Calls != 3 || got.Started.IsZero() || got.Finished.IsZero() {
		t.Errorf("GetRun: %+v %v", got, err)
	}
	runs, err := db.ListRuns(ctx)
	found := false
	for _, r := range runs {
		found = found || r.Name == name
	}
	if err != nil || !found {
		t.Errorf("ListRuns: %v, found %v", err, found)
	}
	sum, err := db.RunSummary(ctx, name, kgeval.DefaultVariant)
	if err != nil || len(sum) != 1 || sum[0].Scored != 1 || sum[0].Means[metricreg.MetricMultihop] == nil || *sum[0].Means[metricreg.MetricMultihop] != 1 {
		t.Errorf("RunSummary: %+v %v", sum, err)
	}
	rows := graphstoretest.ExportScores(t, name, kgeval.DefaultVariant)
	if len(rows) != 1 || rows[0].ID != "s1" {
		t.Fatalf("ExportScores: %+v", rows)
	}
	ex, err := db.ReadGraphExplanation(ctx, name, c.Graph.Sample, c.Graph.Pair)
	if err != nil {
		t.Fatal(err)
	}
	for i, cm := range ex.Communities {
		if cm == nil || *cm != res[0].Communities[i] {
			t.Errorf("node %d: stored community %v, computed %d", i, cm, res[0].Communities[i])
		}
	}
	for _, p := range res[0].Paths {
		got := ex.Paths[p.Node]
		if got.Passed != p.Passed || (got.Cost == nil) != (p.Cost == nil) || len(got.Path) != len(p.PathIDs) {
			t.Errorf("entity %s: stored %+v, computed %+v", p.Label, got, p)
		}
	}
	if err := db.DeleteRun(ctx, name); err != nil {
		t.Fatal(err)
	}
	if _, err := db.GetRun(ctx, name); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
		t.Errorf("after delete: %v", err)
	}
	if _, err := db.ReadPairGraph(ctx, name, c.Graph.Sample, c.Graph.Pair); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
		t.Errorf("graph of the deleted run: %v", err)
	}
	if sum, _ := db.RunSummary(ctx, name, kgeval.DefaultVariant); len(sum) != 0 {
		t.Errorf("scores of the deleted run remain: %+v", sum)
	}
	if g, err := db.ReadPairGraph(ctx, other, c.Graph.Sample, c.Graph.Pair); err != nil || len(g.Nodes) != len(c.Graph.Nodes) {
		t.Errorf("another run's graph was touched: %v", err)
	}
	if err := db.DeleteRun(ctx, name); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
		t.Errorf("delete twice: %v", err)
	}
}
