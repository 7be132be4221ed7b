package graphstore

import (
	"context"

	"github.com/kgeval/kgeval/cypher"
)

// ProjectForTest creates a tiny projection called name (tests use it to
// simulate a projection a crashed process left behind).
func (db *DB) ProjectForTest(ctx context.Context, name string) error {
	_, err := db.write(ctx, cypher.MustGet("gds_project_test_graph"), map[string]any{"name": name})
	return mapError(err, "project "+name)
}

// DropIndexForTest drops the relation_run index (a fixed statement), so that
// a test can run the migrations against a missing index.
func (db *DB) DropIndexForTest(ctx context.Context) error {
	_, err := db.write(ctx, cypher.MustGet("test_drop_relation_run_index"), nil)
	return mapError(err, "drop index")
}

// DropProjectionForTest drops the projection called name, if it exists.
func (db *DB) DropProjectionForTest(ctx context.Context, name string) error {
	_, err := db.write(ctx, cypher.MustGet("gds_drop"), map[string]any{"name": name})
	return mapError(err, "drop projection "+name)
}
