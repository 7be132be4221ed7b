package pipeline_test

import (
	"context"
	"fmt"
	"github.com/kgeval/kgeval/configs/configstest"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/minilm"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/scoring"
)

// Synthetic samples for the pipeline benchmark: pre-extracted triplets over
// a vocabulary of two-word labels, shaped like extractions of short RAG
// answers (question 2 triplets, answer and reference 4, three passages of 5).
var (
	adjectives = strings.Fields("red ancient northern coastal royal modern small public central golden early famous eastern western southern wild urban rural sacred frozen")
	nouns      = strings.Fields("river castle museum forest harbour temple bridge valley tower market garden island mountain library railway palace village canal desert lake")
	relations  = strings.Fields("is located in was built by belongs to is part of flows into borders was founded in is named after contains is known for")
)

func synthSamples(n int, seed uint64) []kgeval.Sample {
	r := rand.New(rand.NewPCG(seed, 1))
	label := func() string {
		return adjectives[r.IntN(len(adjectives))] + " " + nouns[r.IntN(len(nouns))] + " " + strconv.Itoa(r.IntN(12))
	}
	tri := func(k int) []kgeval.Triplet {
		ts := make([]kgeval.Triplet, k)
		for i := range ts {
			ts[i] = kgeval.Triplet{Subject: label(), Relation: relations[r.IntN(len(relations))], Object: label()}
		}
		return ts
	}
	out := make([]kgeval.Sample, n)
	for i := range out {
		ctx := [][]kgeval.Triplet{tri(5), tri(5), tri(5)}
		ans := tri(4)
		ans[0] = ctx[0][0] // answers repeat some context facts, as grounded ones do
		st := kgeval.SampleTriplets{Question: tri(2), Answer: ans, Reference: tri(4), Contexts: ctx}
		out[i] = kgeval.Sample{ID: fmt.Sprintf("synth-%04d", i), Question: "q", Answer: "a", Reference: "r",
			Contexts: []string{"c1", "c2", "c3"}, Triplets: &st}
	}
	return out
}

// peakRSS returns the process's peak resident set size in MiB (VmHWM).
func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// BenchmarkEvaluate_1000 runs the storage and scoring path of the pipeline
// (no LLM: triplets are pre-extracted) on 1,000 synthetic samples, 4 pair
// graphs each, against the real Neo4j and the in-process encoder, and reports
// samples per second for each stage and the process's peak memory. The
// labels are new on every run (a fresh seed), so the encoder really embeds.
// Set KGEVAL_BENCH_SAMPLES to change the count.
func BenchmarkEvaluate_1000(b *testing.B) {
	n := 1000
	if v, err := strconv.Atoi(os.Getenv("KGEVAL_BENCH_SAMPLES")); err == nil && v > 0 {
		n = v
	}
	m, err := minilm.Load(configstest.EncoderDir(b))
	if err != nil {
		b.Fatal(err)
	}
	db := graphstoretest.MustOpenDB(b)
	for _, e := range []struct {
		name   string
		engine kgeval.KGEngine
	}{
		{"native", &scoring.Native{Seed: 42}},
		// The default scoring.communities, batch: one community call per
		// batch, each graph's communities its own.
		{"gds", &graphstore.GDS{DB: db}},
		// louvain-per-graph: one Louvain call per pair graph, the default
		// before the batch mode.
		{"gds-louvain-per-graph", &graphstore.GDS{DB: db, Communities: graphstore.CommunitiesLouvainPerGraph}},
	} {
		engine := e.engine
		b.Run(e.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				samples := synthSamples(n, uint64(time.Now().UnixNano()))
				run := fmt.Sprintf("bench-pipeline-%s-%d", engine.Name(), time.Now().UnixNano())
				ev := &pipeline.Evaluator{Extractor: noExtraction{b}, Embedder: m, Store: db, Engine: engine,
					Params: kgeval.DefaultGraphParams(), Pairs: kgeval.DefaultPairs()}
				start := time.Now()
				rep, err := ev.Evaluate(context.Background(), run, samples)
				if err != nil {
					b.Fatal(err)
				}
				total := time.Since(start)
				b.StopTimer()
				if err := db.DeleteRunGraphs(context.Background(), run); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if len(rep.Results) != 4*n {
					b.Fatalf("%d results, want %d", len(rep.Results), 4*n)
				}
				for _, st := range []string{"embed", "store", "score", "claims"} {
					b.ReportMetric(float64(n)/rep.Stages[st].Seconds(), st+"-samples/s")
				}
				b.ReportMetric(float64(n)/total.Seconds(), "all-samples/s")
				b.ReportMetric(float64(rep.EmbedTexts), "labels")
				b.ReportMetric(float64(rep.GraphRows), "rows")
			}
			b.ReportMetric(peakRSS(), "peak-RSS-MiB")
		})
	}
}
