package graphstore

import (
	"context"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// Cache keeps model answers and embeddings in Neo4j as (:CacheEntry {key,
// value}) nodes: the database a team already shares, so no text is ever sent
// to a model twice, across runs and across people.
//
// When Run and RunFields are set, every Put also sets RunFields() on that
// run's record in the same transaction: evaluate keeps its call accounting
// there, so a process killed right after an answer is cached cannot lose
// the count of the call that produced it.
type Cache struct {
	DB        *DB
	Run       string
	RunFields func() map[string]any
}

var _ kgeval.Cache = (*Cache)(nil)

const cacheBatch = 1000

// Get returns the stored values of keys.
func (c *Cache) Get(ctx context.Context, keys []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(keys))
	for lo := 0; lo < len(keys); lo += cacheBatch {
		part := keys[lo:min(lo+cacheBatch, len(keys))]
		ks := make([]any, len(part))
		for i, k := range part {
			ks[i] = k
		}
		recs, err := c.DB.read(ctx, cypher.MustGet("cache_get"), map[string]any{"keys": ks})
		if err != nil {
			return nil, mapError(err, "read cache")
		}
		for _, r := range recs {
			k, _ := r.Get("key")
			v, _ := r.Get("value")
			switch b := v.(type) {
			case []byte:
				out[k.(string)] = b
			case string:
				out[k.(string)] = []byte(b)
			}
		}
	}
	return out, nil
}

// Put stores entries (and the run's fields, see Cache) in one transaction.
func (c *Cache) Put(ctx context.Context, entries map[string][]byte) error {
	var batches [][]any
	rows := make([]any, 0, min(len(entries), cacheBatch))
	for k, v := range entries {
		rows = append(rows, map[string]any{"key": k, "value": string(v)})
		if len(rows) == cacheBatch {
			batches = append(batches, rows)
			rows = make([]any, 0, cacheBatch)
		}
	}
	if len(rows) > 0 {
		batches = append(batches, rows)
	}
	var fields map[string]any
	if c.Run != "" && c.RunFields != nil {
		fields = c.RunFields()
	}
	if len(batches) == 0 && fields == nil {
		return nil
	}
	sess := c.DB.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: c.DB.cfg.Database, AccessMode: neo4j.AccessModeWrite})
	defer sess.Close(ctx)
	_, err := sess.ExecuteWrite(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		for _, b := range batches {
			if err := runConsume(ctx, tx, cypher.MustGet("cache_put"), map[string]any{"rows": b}); err != nil {
				return nil, err
			}
		}
		if fields != nil {
			return nil, runConsume(ctx, tx, cypher.MustGet("run_update"), map[string]any{"name": c.Run, "fields": fields})
		}
		return nil, nil
	}, neo4j.WithTxTimeout(c.DB.cfg.QueryTimeout))
	return mapError(err, "write cache")
}

// runConsume runs one statement in tx and discards its result.
func runConsume(ctx context.Context, tx neo4j.ManagedTransaction, q string, params map[string]any) error {
	res, err := tx.Run(ctx, q, params)
	if err != nil {
		return err
	}
	_, err = res.Consume(ctx)
	return err
}

// Delete removes entries (a deleted answer is asked for again).
func (c *Cache) Delete(ctx context.Context, keys []string) error {
	ks := make([]any, len(keys))
	for i, k := range keys {
		ks[i] = k
	}
	_, err := c.DB.write(ctx, cypher.MustGet("cache_delete"), map[string]any{"keys": ks})
	return mapError(err, "delete cache entries")
}
