package graphstore

import (
	"context"
	"fmt"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// SentinelForTest creates two nodes and a relationship tagged tag that the
// console's security tests try to change (see webcypher_test.go).
func (db *DB) SentinelForTest(ctx context.Context, tag string) error {
	_, err := db.write(ctx, cypher.MustGet("web_test_sentinel_create"), map[string]any{"tag": tag, "a": "alpha", "b": "beta"})
	return mapError(err, "create sentinels")
}

// SentinelStateForTest returns everything a write attempt against the
// sentinels of tag could have changed, as one comparable map; projection is
// a GDS graph that must survive.
func (db *DB) SentinelStateForTest(ctx context.Context, tag, projection string) (map[string]any, error) {
	recs, err := db.read(ctx, cypher.MustGet("web_test_sentinel_state"), map[string]any{"tag": tag, "projection": projection})
	if err != nil {
		return nil, mapError(err, "read sentinels")
	}
	return recs[0].AsMap(), nil
}

// DeleteSentinelForTest removes the sentinels of tag.
func (db *DB) DeleteSentinelForTest(ctx context.Context, tag string) error {
	_, err := db.write(ctx, cypher.MustGet("web_test_sentinel_delete"), map[string]any{"tag": tag})
	return mapError(err, "delete sentinels")
}

// CountsForTest returns how many nodes and relationships the database holds.
func (db *DB) CountsForTest(ctx context.Context) (nodes, rels int64, err error) {
	recs, err := db.read(ctx, cypher.MustGet("web_test_counts"), nil)
	if err != nil {
		return 0, 0, mapError(err, "count")
	}
	m := recs[0].AsMap()
	return asInt(m["nodes"]), asInt(m["rels"]), nil
}

// RunConsoleUnguardedForTest runs a console query without the plan check,
// so that a test can show what the READ transaction refuses on its own, and
// what it lets through (LOAD CSV, procedures) that the plan check must stop.
func (db *DB) RunConsoleUnguardedForTest(ctx context.Context, query string, lim kgeval.ConsoleLimits) (*kgeval.ConsoleResult, error) {
	return db.runConsole(ctx, query, lim, false)
}

// kgevalLabels and kgevalTypes are the node labels and relationship types
// kgeval and its tests write (see package cypher; CONFLICTS comes with the
// literal-conflict edges on main). A type added there must be added here, or
// the snapshot counts what parallel tests write.
var (
	kgevalLabels = []any{"Run", "Sample", "Entity", "Relation", "PairScore", "MetricScore", "kgeval.CacheEntry", "WebSentinel"}
	kgevalTypes  = []any{"REL", "SIMILAR", "CONFLICTS", "WEB_SENTINEL"}
)

// ConsoleSnapshotForTest returns what a console attack could change beyond
// the sentinels, as one comparable map: nodes and relationships outside
// kgeval's labels and types, the labels and types in use outside them, the
// GDS graphs that are not kgeval's live projections, every index and
// constraint index, and the database users. Test packages running in
// parallel write kgeval's own labels and projections only, so the snapshot
// stays put while they run.
func (db *DB) ConsoleSnapshotForTest(ctx context.Context) (map[string]any, error) {
	recs, err := db.read(ctx, cypher.MustGet("web_test_snapshot"), map[string]any{"labels": kgevalLabels, "types": kgevalTypes, "prefix": ProjectionPrefix})
	if err != nil {
		return nil, mapError(err, "snapshot")
	}
	snap := recs[0].AsMap()
	recs, err = db.read(ctx, cypher.MustGet("web_test_snapshot_schema"), nil)
	if err != nil {
		return nil, mapError(err, "snapshot indexes")
	}
	var indexes []string
	for _, r := range recs {
		name, _ := r.Get("name")
		typ, _ := r.Get("type")
		indexes = append(indexes, fmt.Sprint(name, " ", typ))
	}
	snap["indexes"] = indexes
	res, err := neo4j.ExecuteQuery(ctx, db.driver, cypher.MustGet("web_test_snapshot_users"), nil, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase("system"), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return nil, mapError(err, "snapshot users")
	}
	var users []string
	for _, r := range res.Records {
		u, _ := r.Get("user")
		users = append(users, fmt.Sprint(u))
	}
	snap["users"] = users
	return snap, nil
}

// ConsolePlanForTest returns the operators of a query's EXPLAIN plan as
// the console reads them, depth first.
func (db *DB) ConsolePlanForTest(ctx context.Context, query string) ([]string, error) {
	recs, err := neo4j.ExecuteQuery(ctx, db.driver, "EXPLAIN "+query, nil, neo4j.EagerResultTransformer,
		neo4j.ExecuteQueryWithDatabase(db.cfg.Database), neo4j.ExecuteQueryWithReadersRouting())
	if err != nil {
		return nil, mapError(err, "explain")
	}
	plan, err := readPlan(recs.Summary.Plan())
	if err != nil {
		return nil, err
	}
	var ops []string
	var walk func(n *planNode)
	walk = func(n *planNode) {
		ops = append(ops, n.Operator)
		for i := range n.Children {
			walk(&n.Children[i])
		}
	}
	walk(plan)
	return ops, nil
}
