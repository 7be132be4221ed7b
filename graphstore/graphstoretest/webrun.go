package graphstoretest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/scoring"
	"github.com/kgeval/kgeval/scoring/scoringtest"
)

// WebRun is a stored run for the dashboard's reads, with what the native
// engine computed for it.
type WebRun struct {
	Name     string
	Settings graphstore.RunSettings
	Samples  []kgeval.Sample
	Results  map[string]map[string]kgeval.KGResult // sample -> pair -> result
}

// MustWebRun stores a run of n samples (systems "a" and "b" alternating) with
// two pairs, each pair graph taken in turn from the hand-worked scoring
// cases, scored by the native engine; it deletes the run when the test ends.
func MustWebRun(tb testing.TB, db *graphstore.DB, n int) *WebRun {
	tb.Helper()
	ctx := context.Background()
	name := fmt.Sprintf("test-web-%s-%d", strings.ReplaceAll(tb.Name(), "/", "_"), time.Now().UnixNano())
	pairs := []kgeval.Pair{{Name: "faithfulness", Input: kgeval.TextAnswer, Context: kgeval.TextContexts},
		{Name: "answer_relevancy", Input: kgeval.TextQuestion, Context: kgeval.TextAnswer}}
	cfg, _ := json.Marshal(map[string]any{"Scoring": map[string]any{"Pairs": pairs, "Delta": 0.5, "Tau": 0.7, "Metrics": []string{"kg", "ts"}}})
	if err := db.CreateRun(ctx, kgeval.Run{Name: name, Config: string(cfg), Engine: "native", Status: kgeval.RunDone, Samples: n, Started: time.Now().UTC()}); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := db.DeleteRun(context.Background(), name); err != nil {
			tb.Errorf("cleanup %s: %v", name, err)
		}
	})
	r := &WebRun{Name: name, Results: map[string]map[string]kgeval.KGResult{}}
	run, err := db.GetRun(ctx, name)
	if err != nil {
		tb.Fatal(err)
	}
	r.Settings = graphstore.Settings(run)
	cases := scoringtest.Cases()
	var graphs []*kgeval.PairGraph
	for i := range n {
		s := kgeval.Sample{ID: fmt.Sprintf("s%02d", i), Record: i + 1, Question: fmt.Sprintf("question %d <script>alert(1)</script>", i),
			Answer: fmt.Sprintf("answer %d", i), Reference: "ref", Contexts: []string{"c1", "c2"}, System: []string{"a", "b"}[i%2]}
		r.Samples = append(r.Samples, s)
		for j, p := range pairs {
			c := cases[(i*len(pairs)+j)%len(cases)]
			g := *c.Graph
			g.Sample, g.Pair = s.ID, p.Name
			graphs = append(graphs, &g)
		}
	}
	if err := db.WriteSamples(ctx, name, r.Samples); err != nil {
		tb.Fatal(err)
	}
	if _, err := db.WritePairGraphs(ctx, name, graphs); err != nil {
		tb.Fatal(err)
	}
	res, err := (&scoring.Native{Seed: 42}).Score(ctx, name, graphs, kgeval.DefaultGraphParams())
	if err != nil {
		tb.Fatal(err)
	}
	if err := db.WriteKGResults(ctx, name, graphstore.DefaultVariant, "native", kgeval.DefaultGraphParams(), res); err != nil {
		tb.Fatal(err)
	}
	for _, x := range res {
		if r.Results[x.Sample] == nil {
			r.Results[x.Sample] = map[string]kgeval.KGResult{}
		}
		r.Results[x.Sample][x.Pair] = x
	}
	return r
}
