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
