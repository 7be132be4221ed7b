package graphstore

import (
	"context"

	"github.com/kgeval/kgeval/cypher"
)

// DeleteRunGraphs deletes every stored pair graph and KG score of run, in batches so that
// a large run does not need one huge transaction.
func (db *DB) DeleteRunGraphs(ctx context.Context, run string) error {
	for _, q := range []string{"run_delete_scores", "run_delete_graphs"} {
		for {
			recs, err := db.write(ctx, cypher.MustGet(q), map[string]any{"run": run, "limit": 10000})
			if err != nil {
				return mapError(err, "delete run "+run)
			}
			if n, _ := recs[0].Get("deleted"); asInt(n) == 0 {
				break
			}
		}
	}
	return nil
}
