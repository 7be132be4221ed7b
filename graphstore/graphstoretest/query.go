package graphstoretest

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// The helpers below run the test-only queries in testdata/ (test_*.cypher,
// kept out of package cypher so that the binary does not carry them) through
// a driver of their own, so that *graphstore.DB carries no method that only
// tests use.

//go:embed testdata/*.cypher
var testQueries embed.FS

// Query returns the test-only query in testdata/name.cypher and panics when
// there is none, so that a misspelt name fails the test at once.
func Query(name string) string {
	b, err := testQueries.ReadFile("testdata/" + name + ".cypher")
	if err != nil {
		panic(fmt.Errorf("test query %q: %w", name, err))
	}
	return strings.TrimSpace(string(b))
}

// QueryNames returns the name of every test-only query, sorted.
func QueryNames() []string {
	entries, _ := testQueries.ReadDir("testdata")
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".cypher"); ok {
			names = append(names, n)
		}
	}
	return names
}

// MustQuery runs the test-only query called name (see Query) against
// database (empty: "neo4j") and returns its records as maps; it fails tb on
// error.
func MustQuery(tb testing.TB, database, name string, params map[string]any) []map[string]any {
	tb.Helper()
	return mustRun(tb, database, name, Query(name), params)
}

// mustRun runs query (called name in failures) against database (empty:
// "neo4j") and returns its records as maps; it fails tb on error.
func mustRun(tb testing.TB, database, name, query string, params map[string]any) []map[string]any {
	tb.Helper()
	if database == "" {
		database = "neo4j"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	drv, err := neo4j.NewDriverWithContext(URI(), neo4j.BasicAuth("neo4j", Password(), ""))
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	defer drv.Close(context.Background())
	res, err := neo4j.ExecuteQuery(ctx, drv, query, params, neo4j.EagerResultTransformer, neo4j.ExecuteQueryWithDatabase(database))
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	out := make([]map[string]any, len(res.Records))
	for i, r := range res.Records {
		out[i] = r.AsMap()
	}
	return out
}

// MustSentinel creates two nodes and a relationship tagged tag that the
// console's security tests try to change, and removes them when the test
// ends.
func MustSentinel(tb testing.TB, tag string) {
	tb.Helper()
	MustQuery(tb, "", "test_sentinel_create", map[string]any{"tag": tag, "a": "alpha", "b": "beta"})
	tb.Cleanup(func() { MustQuery(tb, "", "test_sentinel_delete", map[string]any{"tag": tag}) })
}

// MustHub creates a complete graph of n nodes tagged tag, around which a
// few hops make millions of paths, and removes it when the test ends.
func MustHub(tb testing.TB, tag string, n int) {
	tb.Helper()
	MustQuery(tb, "", "test_hub_create", map[string]any{"tag": tag, "n": n})
	tb.Cleanup(func() { MustQuery(tb, "", "test_sentinel_delete", map[string]any{"tag": tag}) })
}

// SentinelState returns everything a write attempt against the sentinels
// of tag could have changed, as one comparable map; projection is a GDS
// graph that must survive.
func SentinelState(tb testing.TB, tag, projection string) map[string]any {
	tb.Helper()
	return MustQuery(tb, "", "test_sentinel_state", map[string]any{"tag": tag, "projection": projection})[0]
}

// Counts returns how many nodes and relationships the database holds.
func Counts(tb testing.TB) (nodes, rels int64) {
	tb.Helper()
	m := MustQuery(tb, "", "test_counts", nil)[0]
	return m["nodes"].(int64), m["rels"].(int64)
}

// kgevalLabels and kgevalTypes are the node labels and relationship types
// kgeval and its tests write (see package cypher). A type added there must
// be added here, or the snapshot counts what parallel tests write.
var (
	kgevalLabels = []any{"Run", "Sample", "Entity", "Relation", "PairScore", "MetricScore", "CacheEntry", "WebSentinel"}
	kgevalTypes  = []any{"REL", "SIMILAR", "CONFLICTS", "WEB_SENTINEL"}
)

// ConsoleSnapshot returns what a console attack could change beyond the
// sentinels, as one comparable map: nodes and relationships outside
// kgeval's labels and types, the labels and types in use outside them, the
// GDS graphs that are not kgeval's live projections, every index and
// constraint index, and the database users. Test packages running in
// parallel write kgeval's own labels and projections only, so the snapshot
// stays put while they run.
func ConsoleSnapshot(tb testing.TB) map[string]any {
	tb.Helper()
	snap := MustQuery(tb, "", "test_console_snapshot", map[string]any{"labels": kgevalLabels, "types": kgevalTypes, "prefix": graphstore.ProjectionPrefix})[0]
	var indexes, users []string
	for _, r := range MustQuery(tb, "", "test_console_snapshot_schema", nil) {
		indexes = append(indexes, fmt.Sprint(r["name"], " ", r["type"]))
	}
	for _, r := range MustQuery(tb, "system", "test_console_snapshot_users", nil) {
		users = append(users, fmt.Sprint(r["user"]))
	}
	snap["indexes"], snap["users"] = indexes, users
	return snap
}

// MustProjection creates a tiny GDS projection called name (a projection a
// crashed process left behind, or one that must survive) and drops it, if
// it is still there, when the test ends.
func MustProjection(tb testing.TB, name string) {
	tb.Helper()
	MustQuery(tb, "", "test_gds_project", map[string]any{"name": name})
	tb.Cleanup(func() { mustRun(tb, "", "gds_drop", cypher.MustGet("gds_drop"), map[string]any{"name": name}) })
}

// DropRelationRunIndex drops the relation_run index, so that a test can run
// the migrations against a missing index.
func DropRelationRunIndex(tb testing.TB) {
	tb.Helper()
	MustQuery(tb, "", "test_drop_relation_run_index", nil)
}

// RunCounts returns how many samples, entities, relations, edges and scores
// run holds, by kind.
func RunCounts(tb testing.TB, run string) map[string]int {
	tb.Helper()
	out := map[string]int{}
	for _, m := range MustQuery(tb, "", "test_run_counts", map[string]any{"run": run}) {
		out[m["kind"].(string)] = int(m["n"].(int64))
	}
	return out
}

// ExportScores returns one row per sample of run, in record order, with the
// scores of variant, read in one query whose per-sample lookups grow with
// the square of the run's size: an independent check of
// graphstore.DB.RunScores, which commands use.
func ExportScores(tb testing.TB, run, variant string) []readmodel.SampleScores {
	tb.Helper()
	str := func(x any) string { s, _ := x.(string); return s }
	num := func(x any) *float64 {
		if v, ok := x.(float64); ok {
			return &v
		}
		return nil
	}
	out := []readmodel.SampleScores{}
	for _, m := range MustQuery(tb, "", "test_sample_scores", map[string]any{"run": run, "variant": variant}) {
		rec, _ := m["record"].(int64)
		row := readmodel.SampleScores{ID: str(m["id"]), Record: int(rec), System: str(m["system"]), Question: str(m["question"]), Human: str(m["human"]),
			Scores: map[string]kgeval.KGResult{}, Metrics: map[string]kgeval.MetricScore{}}
		ms, _ := m["metrics"].([]any)
		for _, x := range ms {
			if p, _ := x.(map[string]any); p != nil {
				s := kgeval.MetricScore{Sample: row.ID, Metric: str(p["metric"]), Family: str(p["family"]), Value: num(p["value"]), Reason: str(p["reason"])}
				row.Metrics[s.Metric] = s
			}
		}
		scores, _ := m["scores"].([]any)
		for _, x := range scores {
			p, _ := x.(map[string]any)
			if p == nil {
				continue
			}
			r := kgeval.KGResult{Sample: row.ID, Pair: str(p["pair"]), Reason: str(p["reason"])}
			for _, name := range metricreg.KGMetricNames {
				r.SetValue(name, num(p[name]))
			}
			if s := str(p["reasons"]); s != "" {
				if err := json.Unmarshal([]byte(s), &r.Reasons); err != nil {
					tb.Fatalf("reasons of %s/%s: %v", row.ID, r.Pair, err)
				}
			}
			row.Scores[r.Pair] = r
		}
		out = append(out, row)
	}
	return out
}
