package graphstore

import (
	"context"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
)

// Cache keeps model answers and embeddings in Neo4j as (:CacheEntry {key,
// value}) nodes: the database a team already shares, so no text is ever sent
// to a model twice, across runs and across people.
type Cache struct{ DB *DB }

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

// Put stores entries.
func (c *Cache) Put(ctx context.Context, entries map[string][]byte) error {
	rows := make([]any, 0, len(entries))
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		_, err := c.DB.write(ctx, cypher.MustGet("cache_put"), map[string]any{"rows": rows})
		rows = rows[:0]
		return mapError(err, "write cache")
	}
	for k, v := range entries {
		rows = append(rows, map[string]any{"key": k, "value": string(v)})
		if len(rows) == cacheBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
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
