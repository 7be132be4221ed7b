// Command webbench is a load generator for the dashboard's API: it stores a
// run of -samples samples (default 10,000) with four pairs of KG scores
// computed by the native engine on generated pair graphs and 19 other
// metric values per sample (12 triplet-similarity values with explanations,
// 2 encoder metrics on a 0-100 scale, 5 LLM-judged metrics left null, some
// values null), serves the API on loopback with token auth exactly as
// `kgeval serve` does, and hits the run summary, the run stats, the sample
// list (plain, filtered and sorted by a KG score deep in the list, and
// sorted by another metric), the triage (plain and filtered) and one
// sample from -c concurrent clients for -d each. It prints p50, p99,
// max latency and throughput per endpoint as a Markdown table, and deletes
// the run unless -keep.
//
//	go run ./web/webbench -samples 10000 -c 4 -d 10s
//
// Neo4j is reached through KGEVAL_NEO4J_URI and KGEVAL_NEO4J_PASSWORD.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/scoring"
	"github.com/kgeval/kgeval/scoring/scoringtest"
	"github.com/kgeval/kgeval/web"
)

func main() {
	n := flag.Int("samples", 10000, "samples in the run")
	conc := flag.Int("c", 4, "concurrent clients")
	dur := flag.Duration("d", 10*time.Second, "duration per endpoint")
	keep := flag.Bool("keep", false, "keep the run (named bench-web-N) for the next time")
	flag.Parse()
	if err := run(*n, *conc, *dur, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "webbench:", err)
		os.Exit(1)
	}
}

func run(n, conc int, dur time.Duration, keep bool) error {
	ctx := context.Background()
	uri := os.Getenv("KGEVAL_NEO4J_URI")
	if uri == "" {
		uri = "bolt://127.0.0.1:7687"
	}
	db, err := graphstore.Open(ctx, graphstore.Config{URI: uri, User: "neo4j", Password: os.Getenv("KGEVAL_NEO4J_PASSWORD"), MaxConnections: 2 * conc})
	if err != nil {
		return err
	}
	defer db.Close(ctx)
	if err := db.Migrate(ctx); err != nil {
		return err
	}
	name, err := ensureRun(ctx, db, n)
	if err != nil {
		return err
	}
	if !keep {
		defer db.DeleteRun(context.Background(), name)
	}

	token := web.NewToken()
	key := make([]byte, 64)
	s, err := web.NewServer(web.Config{Version: "bench", Auth: web.AuthConfig{Tokens: map[string]string{web.HashToken(token): "bench"}, SessionKey: key}},
		&graphstore.Health{DB: db}, db)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: s.Handler()}
	go srv.Serve(ln)
	defer srv.Close()
	base := "http://" + ln.Addr().String() + "/api/runs/" + name

	fmt.Printf("Dashboard API on loopback, run of %d samples (4 pairs, 19 other metrics), %d concurrent clients, %v per endpoint, token auth:\n\n", n, conc, dur)
	fmt.Println("| endpoint | requests | req/s | p50 | p99 | max | errors |")
	fmt.Println("|---|---|---|---|---|---|---|")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conc}}
	for _, ep := range endpoints(n) {
		if err := bench(client, base, token, ep, conc, dur); err != nil {
			return err
		}
	}
	return nil
}

// ensureRun returns the name of the bench run of n samples, storing it
// again unless a complete one is there.
func ensureRun(ctx context.Context, db *graphstore.DB, n int) (string, error) {
	name := fmt.Sprintf("bench-web-%d", n)
	if r, err := db.GetRun(ctx, name); err != nil || r.Samples != n || r.Status != kgeval.RunDone || r.Dataset != dataset {
		t0 := time.Now()
		if err == nil {
			if err := db.DeleteRun(ctx, name); err != nil {
				return "", err
			}
		}
		if err := store(ctx, db, name, n); err != nil {
			return "", err
		}
		fmt.Fprintf(os.Stderr, "webbench: stored run %s (%d samples, %d scores, %d metric values) in %v\n", name, n, 4*n, 19*n, time.Since(t0).Round(time.Millisecond))
	}
	return name, nil
}

// endpoint is one line of the bench table: a name and a path under the
// run's API (a %04d in it gets a new number each request).
type endpoint struct{ name, path string }

// endpoints returns the endpoints measured on a run of n samples.
func endpoints(n int) []endpoint {
	return []endpoint{
		{"run summary", ""},
		{"sample list, first page", "/samples?limit=50"},
		{"sample list, score range, sorted by score, offset n/2", fmt.Sprintf("/samples?pair=faithfulness&metric=multihop&min=0.2&max=0.9&sort=score&order=desc&limit=50&offset=%d", n/4)},
		{"sample list, sorted by ts_groundedness_avg, offset n/2", fmt.Sprintf("/samples?metric=ts_groundedness_avg&sort=score&order=desc&limit=50&offset=%d", n/2)},
		{"run stats (KG and 19 other metrics)", "/stats"},
		{"triage (worst 10 per pair with the why of 3, cached after the first)", "/triage"},
		{"triage, system filter, sorted by multihop", "/triage?system=dense&sort=multihop&order=desc"},
		{"triage, a new multihop range each request (not cached; the run's index is)", "/triage?metric=multihop&min=0.%04d&max=1"},
		{"one sample with its metric values", "/samples/gen-04242"},
		{"correlations (31 variables, cached after the first)", "/correlations"},
	}
}

// bench warms ep up with three requests, then has conc clients request it
// for dur and prints its line of the table.
func bench(client *http.Client, base, token string, ep endpoint, conc int, dur time.Duration) error {
	var seq atomic.Int64
	get := func() error {
		p := ep.path
		if strings.Contains(p, "%04d") {
			p = fmt.Sprintf(p, seq.Add(1)%10000)
		}
		req, _ := http.NewRequest("GET", base+p, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != 200 {
			return fmt.Errorf("%s: %s", ep.path, resp.Status)
		}
		return nil
	}
	for i := range 3 { // warm the query plans, connections and cache
		t := time.Now()
		if err := get(); err != nil {
			return err
		}
		if i == 0 {
			fmt.Fprintf(os.Stderr, "webbench: %s: first request %v\n", ep.name, time.Since(t).Round(time.Millisecond))
		}
	}
	var mu sync.Mutex
	var lat []time.Duration
	errs := 0
	stop := time.Now().Add(dur)
	var wg sync.WaitGroup
	t0 := time.Now()
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(stop) {
				t := time.Now()
				err := get()
				d := time.Since(t)
				mu.Lock()
				lat = append(lat, d)
				if err != nil {
					errs++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	el := time.Since(t0)
	slices.Sort(lat)
	q := func(p float64) time.Duration { return lat[min(len(lat)-1, int(p*float64(len(lat))))] }
	fmt.Printf("| %s | %d | %.0f | %s | %s | %s | %d |\n", ep.name, len(lat), float64(len(lat))/el.Seconds(),
		ms(q(0.50)), ms(q(0.99)), ms(lat[len(lat)-1]), errs)
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

// dataset marks a stored bench run as holding what this version of store
// writes; a kept run from an older version is stored again.
const dataset = "generated (KG scores and 19 metrics)"

// store records a run of n samples with the scores of 200 generated pair
// graphs, computed by the native engine, spread over its samples and pairs,
// and generated metric values. Only scores are stored, not the graphs: the
// summary, stats and sample list read samples and scores.
func store(ctx context.Context, db *graphstore.DB, name string, n int) error {
	if err := db.CreateRun(ctx, kgeval.Run{Name: name, Dataset: dataset, Engine: "native", Status: kgeval.RunRunning, Samples: n, Started: time.Now().UTC()}); err != nil {
		return err
	}
	graphs := scoringtest.Random(200, 7)
	res, err := (&scoring.Native{Seed: 42}).Score(ctx, name, graphs, kgeval.DefaultGraphParams())
	if err != nil {
		return err
	}
	pairs := kgeval.DefaultPairs()
	samples := make([]kgeval.Sample, n)
	var scores []kgeval.KGResult
	for i := range samples {
		id := fmt.Sprintf("gen-%05d", i)
		samples[i] = kgeval.Sample{ID: id, Record: i + 1, Question: "question " + id, Answer: "answer " + id,
			Contexts: []string{strings.Repeat("context ", 20)}, System: []string{"bm25", "dense", "hybrid"}[i%3]}
		for j, p := range pairs {
			r := res[(i*len(pairs)+j)%len(res)]
			r.Sample, r.Pair, r.Communities = id, p.Name, nil
			if (i+j)%17 == 0 { // some null scores, as empty extractions give
				r.Reason = "no triplets extracted from answer"
				r.SetValue(metricreg.MetricMultihop, nil)
				r.SetValue(metricreg.MetricCommunityOverlap, nil)
				r.SetValue(metricreg.MetricCommunityCoverage, nil)
			}
			scores = append(scores, r)
		}
	}
	if err := db.WriteSamples(ctx, name, samples); err != nil {
		return err
	}
	if err := db.WriteKGResults(ctx, name, kgeval.DefaultVariant, "native", kgeval.DefaultGraphParams(), scores); err != nil {
		return err
	}
	if err := db.WriteMetricScores(ctx, name, metricValues(samples)); err != nil {
		return err
	}
	done, none, finished := kgeval.RunDone, "", time.Now().UTC()
	return db.UpdateRun(ctx, name, kgeval.RunUpdate{Status: &done, Error: &none, Finished: &finished, Stages: kgeval.Stages{}, Calls: &kgeval.Calls{}})
}

// metricValues generates 19 metric values per sample, deterministic in the
// sample's index: 4 triplet-similarity metrics times 3 aggregates sharing
// one explanation of three best matches (null when the answer "had no
// triplets", every 13th sample), semantic_similarity and bert_score_f1 on a
// 0-100 scale, and 5 LLM-judged metrics null for want of a judge.
func metricValues(samples []kgeval.Sample) []kgeval.MetricScore {
	var out []kgeval.MetricScore
	for i, s := range samples {
		x := float64((i*7919)%1000) / 1000
		for b, base := range []string{"ts_context_relevancy", "ts_groundedness", "ts_completeness", "ts_answer_relevancy"} {
			expl, _ := json.Marshal(map[string]any{"query": "answer", "candidates": "contexts", "matches": []map[string]any{
				{"query": "A is B", "best": "A is also called B", "best_index": 0, "cos": 0.9, "weight": 0.5},
				{"query": "B has C", "best": "B contains C", "best_index": 2, "cos": 0.7, "weight": 0.25},
				{"query": "C near D", "best": "D borders C", "best_index": 4, "cos": 0.4, "weight": 0.25}}})
			for a, agg := range []string{"avg", "weighted", "minimax"} {
				m := kgeval.MetricScore{Sample: s.ID, Metric: base + "_" + agg, Family: metricreg.FamilyTS, Explanation: expl}
				if i%13 == 0 && b > 0 {
					m.Reason, m.Explanation = "no triplets extracted from answer", nil
				} else {
					m.Value = kgeval.Float(math.Mod(x+0.1*float64(b)+0.05*float64(a), 1))
				}
				out = append(out, m)
			}
		}
		bert, _ := json.Marshal(map[string]float64{"precision": x, "recall": 1 - x/2, "f1": x})
		out = append(out, kgeval.MetricScore{Sample: s.ID, Metric: "semantic_similarity", Family: metricreg.FamilyRAGAS, Value: kgeval.Float(100 * x)},
			kgeval.MetricScore{Sample: s.ID, Metric: "bert_score_f1", Family: metricreg.FamilyRAGAS, Value: kgeval.Float(100 * math.Sqrt(x)), Explanation: bert})
		for _, m := range []string{"llm_response_relevancy", "llm_faithfulness", "llm_factual_correctness", "faithfulness_validation", "factual_correctness_validation"} {
			out = append(out, kgeval.MetricScore{Sample: s.ID, Metric: m, Family: metricreg.FamilyLLM, Reason: "no LLM judge configured"})
		}
	}
	return out
}
