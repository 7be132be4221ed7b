package graphstore

import (
	"context"

	"github.com/kgeval/kgeval/cypher"
)

// DeleteRunGraphs deletes every stored pair graph, KG score and metric
// value of run.
func (db *DB) DeleteRunGraphs(ctx context.Context, run string) error {
	return db.deleteInBatches(ctx, run, "run_delete_scores", "run_delete_metric_scores", "run_delete_graphs")
}

// deleteInBatches runs each delete query (parameters $run and $limit,
// returning `deleted`) until it deletes nothing, so that a large run never
// needs one huge transaction.
func (db *DB) deleteInBatches(ctx context.Context, run string, queries ...string) error {
	for _, q := range queries {
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
