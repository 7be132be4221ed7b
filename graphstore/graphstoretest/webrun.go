package graphstoretest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/scoring"
	"github.com/kgeval/kgeval/scoring/scoringtest"
)

// WebRun is a stored run for the dashboard's reads, with what the native
// engine computed for it.
type WebRun struct {
	Name     string
	Settings analysis.Display
	Samples  []kgeval.Sample
	Results  map[string]map[string]kgeval.KGResult // sample -> pair -> result
	// Metrics are the stored metric values: sample -> metric -> value.
	Metrics map[string]map[string]kgeval.MetricScore
	// Sweep holds the results of each stored sweep variant.
	Sweep map[string][]kgeval.KGResult
}

// Sweep variants MustWebRun stores, with their parameters.
var WebSweep = map[string]kgeval.GraphParams{
	"tau=0.7,delta=0.3": {Tau: 0.7, Delta: 0.3, StructuralWeight: 0.9, StructuralCost: 0.1, Directed: true},
	"tau=0.7,delta=1.5": {Tau: 0.7, Delta: 1.5, StructuralWeight: 0.9, StructuralCost: 0.1, Directed: true},
}

// MustWebRun stores a run of n samples (systems "a" and "b" alternating) with
// two pairs, each pair graph taken in turn from the hand-worked scoring
// cases, scored by the native engine (and for each WebSweep variant), and
// three other metrics per sample (see webMetrics); it deletes the run when
// the test ends.
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
	r.Settings = analysis.DisplayOf(run)
	cases := scoringtest.Cases()
	var graphs []*kgeval.PairGraph
	for i := range n {
		s := kgeval.Sample{ID: fmt.Sprintf("s%02d", i), Record: i + 1, Question: fmt.Sprintf("question %d <script>alert(1)</script>", i),
			Answer: fmt.Sprintf("answer %d", i), Reference: "ref", Contexts: []string{"c1", "c2"}, System: []string{"a", "b"}[i%2]}
		r.Samples = append(r.Samples, s)
		for j, p := range pairs {
			c := cases[(i*len(pairs)+j)%len(cases)]
			g := *c.Graph
			g.Sample, g.Pair, g.Input, g.Context = s.ID, p.Name, p.Input, p.Context
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
	if err := db.WriteKGResults(ctx, name, kgeval.DefaultVariant, "native", kgeval.DefaultGraphParams(), res); err != nil {
		tb.Fatal(err)
	}
	for _, x := range res {
		if r.Results[x.Sample] == nil {
			r.Results[x.Sample] = map[string]kgeval.KGResult{}
		}
		r.Results[x.Sample][x.Pair] = x
	}
	r.Sweep = map[string][]kgeval.KGResult{}
	for v, p := range WebSweep {
		res, err := (&scoring.Native{Seed: 42}).Score(ctx, name, graphs, p)
		if err != nil {
			tb.Fatal(err)
		}
		if err := db.WriteKGResults(ctx, name, v, "native", p, res); err != nil {
			tb.Fatal(err)
		}
		r.Sweep[v] = res
	}
	ms := webMetrics(r.Samples)
	if err := db.WriteMetricScores(ctx, name, ms); err != nil {
		tb.Fatal(err)
	}
	r.Metrics = map[string]map[string]kgeval.MetricScore{}
	for _, m := range ms {
		if r.Metrics[m.Sample] == nil {
			r.Metrics[m.Sample] = map[string]kgeval.MetricScore{}
		}
		r.Metrics[m.Sample][m.Metric] = m
	}
	return r
}

// webMetrics makes three metric values per sample: ts_groundedness_avg in
// [0, 1] with an explanation of one best match (null for every fourth
// sample, "no triplets extracted from answer"), bert_score_f1 on a 0-100
// scale with precision and recall, and llm_faithfulness, always null ("no
// LLM judge configured").
func webMetrics(samples []kgeval.Sample) []kgeval.MetricScore {
	var out []kgeval.MetricScore
	for i, s := range samples {
		ts := kgeval.MetricScore{Sample: s.ID, Metric: "ts_groundedness_avg", Family: metricreg.FamilyTS}
		if i%4 == 3 {
			ts.Reason = "no triplets extracted from answer"
			ts.Explanation = []byte(`{"query":"answer","candidates":"contexts","matches":null}`)
		} else {
			v := float64(i%5) / 4
			ts.Value = &v
			ts.Explanation, _ = json.Marshal(map[string]any{"query": "answer", "candidates": "contexts", "matches": []map[string]any{
				{"query": fmt.Sprintf("answer %d is <b>true</b>", i), "best": fmt.Sprintf("context %d says so", i), "best_index": 0, "cos": v, "weight": 1}}})
		}
		f1 := float64(10 * (i%7 + 1))
		bert := kgeval.MetricScore{Sample: s.ID, Metric: "bert_score_f1", Family: metricreg.FamilyRAGAS, Value: &f1,
			Explanation: []byte(fmt.Sprintf(`{"precision":%g,"recall":%g,"f1":%g}`, f1/100, f1/100, f1/100))}
		llm := kgeval.MetricScore{Sample: s.ID, Metric: "llm_faithfulness", Family: metricreg.FamilyLLM, Reason: "no LLM judge configured"}
		out = append(out, ts, bert, llm)
	}
	return out
}
