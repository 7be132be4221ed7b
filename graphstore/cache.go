package graphstore

import (
	"context"
	"slices"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
	"github.com/neo4j/neo4j-go-driver/v5/neo4j"
)

// Queries, resolved when the package loads.
var (
	qCacheGetRun  = statement("cache_get_run")
	qCacheGet     = statement("cache_get")
	qCachePut     = statement("cache_put")
	qCacheDelete  = statement("cache_delete")
	qCacheEntries = statement("cache_entries")
	qCacheImport  = statement("cache_import")
	qCacheStats   = statement("cache_stats")
)

// Cache keeps model answers and embeddings in Neo4j as (:CacheEntry {key,
// value}) nodes: the database a team already shares, so no text is ever sent
// to a model twice, across runs and across people.
//
// When Run is set, every entry a Get finds and every entry a Put writes
// records the run in its `runs` property (a set: each name once), so that
// `kgeval cache export --run` can write exactly what a run used. A Get with
// Run is then a write transaction, one per batch of keys; it locks only the
// entries that lack the run.
//
// When Run and Calls are set, every Put also records Calls() as the run's
// call accounting in the same transaction: a process killed right after an
// answer is cached cannot lose the count of the call that produced it.
type Cache struct {
	DB    *DB
	Run   string
	Calls func() kgeval.Calls
	// Shard, when set, is the shard of a sharded run whose worker uses the
	// cache: Calls() goes to that shard's field (ShardCache).
	Shard *int
}

var (
	_ kgeval.Cache        = (*Cache)(nil)
	_ kgeval.CacheService = (*Cache)(nil)
)

// RunCache returns the cache of one evaluation: c recording run on the
// entries it reads and writes, and calls() as the run's call accounting
// with every Put.
func (c *Cache) RunCache(run string, calls func() kgeval.Calls) kgeval.Cache {
	return &Cache{DB: c.DB, Run: run, Calls: calls}
}

// ShardCache is RunCache for shard i of a sharded run: calls() is the
// shard's accounting and goes to the shard's own field of the run record.
func (c *Cache) ShardCache(run string, i int, calls func() kgeval.Calls) kgeval.Cache {
	return &Cache{DB: c.DB, Run: run, Calls: calls, Shard: &i}
}

const cacheBatch = 1000

// Get returns the stored values of keys (and records Run on them, see
// Cache).
func (c *Cache) Get(ctx context.Context, keys []string) (map[string][]byte, error) {
	out := make(map[string][]byte, len(keys))
	if c.Run != "" {
		// Keys in one order, so that concurrent Gets lock in one order.
		keys = slices.Clone(keys)
		slices.Sort(keys)
		keys = slices.Compact(keys)
	}
	for lo := 0; lo < len(keys); lo += cacheBatch {
		part := keys[lo:min(lo+cacheBatch, len(keys))]
		ks := make([]any, len(part))
		for i, k := range part {
			ks[i] = k
		}
		var recs []*neo4j.Record
		var err error
		if c.Run != "" {
			recs, err = c.DB.write(ctx, qCacheGetRun, map[string]any{"keys": ks, "run": c.Run})
		} else {
			recs, err = c.DB.read(ctx, qCacheGet, map[string]any{"keys": ks})
		}
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
	keys := make([]string, 0, len(entries))
	for k := range entries {
		keys = append(keys, k)
	}
	slices.Sort(keys) // one lock order for concurrent Puts
	for _, k := range keys {
		rows = append(rows, map[string]any{"key": k, "value": string(entries[k])})
		if len(rows) == cacheBatch {
			batches = append(batches, rows)
			rows = make([]any, 0, cacheBatch)
		}
	}
	if len(rows) > 0 {
		batches = append(batches, rows)
	}
	var fields map[string]any
	if c.Run != "" && c.Calls != nil {
		calls := c.Calls()
		var err error
		if c.Shard != nil {
			fields, err = shardFields(*c.Shard, kgeval.RunUpdate{Calls: &calls})
		} else {
			fields, err = runFields(kgeval.RunUpdate{Calls: &calls})
		}
		if err != nil {
			return err
		}
	}
	if len(batches) == 0 && fields == nil {
		return nil
	}
	sess := c.DB.driver.NewSession(ctx, neo4j.SessionConfig{DatabaseName: c.DB.cfg.Database, AccessMode: neo4j.AccessModeWrite})
	defer sess.Close(ctx)
	_, err := sess.ExecuteWrite(ctx, func(tx neo4j.ManagedTransaction) (any, error) {
		var run any // null: no run to record
		if c.Run != "" {
			run = c.Run
		}
		for _, b := range batches {
			if err := runConsume(ctx, tx, qCachePut, map[string]any{"rows": b, "run": run}); err != nil {
				return nil, err
			}
		}
		if fields != nil {
			return nil, runConsume(ctx, tx, qRunUpdate, map[string]any{"name": c.Run, "fields": fields})
		}
		return nil, nil
	}, neo4j.WithTxTimeout(c.DB.cfg.QueryTimeout))
	return mapError(err, "write cache")
}

// runConsume runs one statement in tx and discards its result.
func runConsume(ctx context.Context, tx neo4j.ManagedTransaction, q cypher.Statement, params map[string]any) error {
	res, err := tx.Run(ctx, q.Query, params)
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
	_, err := c.DB.write(ctx, qCacheDelete, map[string]any{"keys": ks})
	return mapError(err, "delete cache entries")
}

// cacheParams are the query parameters of a filter.
func cacheParams(f kgeval.CacheFilter) map[string]any {
	prefixes, runs := make([]any, len(f.Kinds)), make([]any, len(f.Runs))
	for i, k := range f.Kinds {
		prefixes[i] = k + ":"
	}
	for i, r := range f.Runs {
		runs[i] = r
	}
	return map[string]any{"prefixes": prefixes, "runs": runs}
}

// Entries returns at most limit entries that f selects, in key order,
// starting after the key after ("" for the first page): page through the
// cache with the last key of each page.
func (c *Cache) Entries(ctx context.Context, f kgeval.CacheFilter, after string, limit int) ([]kgeval.CacheEntry, error) {
	p := cacheParams(f)
	p["after"], p["limit"] = after, limit
	recs, err := c.DB.read(ctx, qCacheEntries, p)
	if err != nil {
		return nil, mapError(err, "read cache entries")
	}
	out := make([]kgeval.CacheEntry, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		e := kgeval.CacheEntry{Key: asString(m["key"])}
		if rs, ok := m["runs"].([]any); ok {
			for _, r := range rs {
				e.Runs = append(e.Runs, asString(r))
			}
		}
		switch v := m["value"].(type) {
		case string:
			e.Value = v
		case []byte:
			e.Value = string(v)
		}
		out = append(out, e)
	}
	return out, nil
}

// Import stores entries (distinct keys) with MERGE, one transaction per
// batch of 1000: a new key is created; an existing key keeps its value
// unless overwrite is set. Importing the same entries again changes nothing,
// so an interrupted import is finished by running it again. Entries are
// recorded with no run (the runs of another store mean nothing here).
func (c *Cache) Import(ctx context.Context, entries []kgeval.CacheEntry, overwrite bool) (kgeval.CacheImport, error) {
	var n kgeval.CacheImport
	for lo := 0; lo < len(entries); lo += cacheBatch {
		part := entries[lo:min(lo+cacheBatch, len(entries))]
		rows := make([]any, len(part))
		for i, e := range part {
			rows[i] = map[string]any{"key": e.Key, "value": e.Value}
		}
		recs, err := c.DB.write(ctx, qCacheImport, map[string]any{"rows": rows, "overwrite": overwrite})
		if err != nil {
			return n, mapError(err, "import cache entries")
		}
		m := recs[0].AsMap()
		b := kgeval.CacheImport{Created: int(asInt(m["created"])), Differing: int(asInt(m["differing"]))}
		if overwrite {
			b.Overwritten = b.Differing
		}
		b.Kept = len(part) - b.Created - b.Overwritten
		n = n.Add(b)
	}
	return n, nil
}

// Stats counts the entries f selects (by run; f.Kinds is not used) per
// kind, sorted by kind.
func (c *Cache) Stats(ctx context.Context, f kgeval.CacheFilter) ([]kgeval.CacheKindStats, error) {
	p := cacheParams(f)
	p["sep"], p["none"] = ":", kgeval.NoKind
	recs, err := c.DB.read(ctx, qCacheStats, p)
	if err != nil {
		return nil, mapError(err, "count cache entries")
	}
	out := make([]kgeval.CacheKindStats, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, kgeval.CacheKindStats{Kind: asString(m["kind"]), Entries: int(asInt(m["entries"])), Chars: asInt(m["chars"]), Used: int(asInt(m["used"]))})
	}
	return out, nil
}
