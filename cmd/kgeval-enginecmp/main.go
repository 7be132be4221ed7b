// Command kgeval-enginecmp scores a generated corpus of pair graphs with the
// GDS and native engines, timing both, and writes the graphs and results as
// JSON for scripts/compare_networkx.py, which scores the same graphs with
// NetworkX and compares. `make bench` and `make compare` run it.
//
// Usage: kgeval-enginecmp -n 500 -out bench/engines.json
// Neo4j comes from KGEVAL_NEO4J_URI / KGEVAL_NEO4J_PASSWORD.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/scoring"
	"github.com/kgeval/kgeval/scoring/scoringtest"
)

type output struct {
	Graphs     []*kgeval.PairGraph `json:"graphs"`
	Params     kgeval.GraphParams  `json:"params"`
	GDS        []kgeval.KGResult   `json:"gds"`
	Native     []kgeval.KGResult   `json:"native"`
	Seconds    map[string]float64  `json:"seconds"`
	WriteRows  int                 `json:"write_rows"`
	GDSVersion string              `json:"gds_version"`
}

func main() {
	n := flag.Int("n", 500, "number of generated pair graphs")
	seed := flag.Uint64("seed", 2510, "corpus seed")
	batch := flag.Int("batch", 0, "GDS engine batch size (0: the engine's default)")
	group := flag.Int("group", 0, "GDS engine community group size (0: the engine's default)")
	communities := flag.String("communities", "", "GDS engine community mode: batch (the default), louvain-per-graph or leiden-per-graph")
	out := flag.String("out", "engines.json", "output JSON file")
	flag.Parse()
	if err := run(*n, *seed, *batch, *group, *communities, *out); err != nil {
		fmt.Fprintln(os.Stderr, "kgeval-enginecmp:", err)
		os.Exit(1)
	}
}

func run(n int, seed uint64, batch, group int, communities, out string) error {
	ctx := context.Background()
	pw := os.Getenv("KGEVAL_NEO4J_PASSWORD")
	if pw == "" {
		b, err := os.ReadFile(".kgeval/neo4j/password")
		if err != nil {
			return fmt.Errorf("set KGEVAL_NEO4J_PASSWORD or start the bundled Neo4j (make neo4j-start)")
		}
		pw = strings.TrimSpace(string(b))
	}
	uri := os.Getenv("KGEVAL_NEO4J_URI")
	if uri == "" {
		uri = "bolt://127.0.0.1:7687"
	}
	db, err := graphstore.Open(ctx, graphstore.Config{URI: uri, User: "neo4j", Password: pw, QueryTimeout: 10 * time.Minute})
	if err != nil {
		return err
	}
	defer db.Close(ctx)
	if err := db.Migrate(ctx); err != nil {
		return err
	}
	info, err := db.Info(ctx)
	if err != nil {
		return err
	}
	graphs := scoringtest.Random(n, seed)
	p := kgeval.DefaultGraphParams()
	run := fmt.Sprintf("enginecmp-%d", time.Now().UnixNano())
	defer db.DeleteRunGraphs(context.Background(), run)
	o := output{Graphs: graphs, Params: p, Seconds: map[string]float64{}, GDSVersion: info.GDSVersion}

	t := time.Now()
	if o.WriteRows, err = db.WritePairGraphs(ctx, run, graphs); err != nil {
		return err
	}
	o.Seconds["write"] = time.Since(t).Seconds()

	engine := &graphstore.GDS{DB: db, BatchSize: batch, CommunityGroup: group, Communities: communities}
	if _, err := engine.Score(ctx, run, graphs[:min(10, n)], p); err != nil { // warm-up
		return err
	}
	warm := engine.Stats()
	t = time.Now()
	if o.GDS, err = engine.Score(ctx, run, graphs, p); err != nil {
		return err
	}
	o.Seconds["gds"] = time.Since(t).Seconds()
	printStages(o.Seconds["write"], warm, engine.Stats())

	t = time.Now()
	o.Native, _ = (&scoring.Native{}).Score(ctx, run, graphs, p)
	o.Seconds["native"] = time.Since(t).Seconds()

	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := json.NewEncoder(f).Encode(o); err != nil {
		return err
	}
	fmt.Printf("%d pair graphs: write %.2fs (%d rows), gds %.2fs, native %.3fs -> %s\n",
		n, o.Seconds["write"], o.WriteRows, o.Seconds["gds"], o.Seconds["native"], out)
	return nil
}

// printStages prints the GDS engine's time per stage in the timed run (the
// warm-up's taken off): the store (the graphs' write), the projection, the
// Dijkstra and community calls (at once in batch mode) with their results
// streamed back, the verdicts' pattern query, the drops.
func printStages(write float64, warm, st graphstore.GDSStats) {
	ms := func(a, b time.Duration) string { return (b - a).Round(time.Millisecond).String() }
	fmt.Printf("gds stages: store %.2fs, project %s, dijkstra %s, project communities %s, communities %s, verdicts %s, drop %s (%d batches; dijkstra and communities overlap in batch mode)\n",
		write, ms(warm.ProjectPaths, st.ProjectPaths), ms(warm.Dijkstra, st.Dijkstra), ms(warm.ProjectComm, st.ProjectComm), ms(warm.Louvain, st.Louvain),
		ms(warm.Verdicts, st.Verdicts), ms(warm.Drop, st.Drop), st.Batches-warm.Batches)
}
