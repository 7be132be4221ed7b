package graphstore

import (
	"context"

	"github.com/kgeval/kgeval/cypher"
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

// RunConsoleUncheckedForTest runs a console query without the text guard, so
// that a test can show the EXPLAIN check and the read transaction refusing
// writes on their own.
func (db *DB) RunConsoleUncheckedForTest(ctx context.Context, query string, lim ConsoleLimits) (*ConsoleResult, error) {
	return db.runReadOnly(ctx, query, lim)
}
