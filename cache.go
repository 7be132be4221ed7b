package kgeval

import "context"

// Cache is a persistent key-value store for model answers and embeddings,
// shared by a team (kgeval keeps it in Neo4j).
type Cache interface {
	// Get returns the values stored under keys; missing keys are absent from
	// the map. Errors: EUNAVAILABLE when the store cannot be reached.
	Get(ctx context.Context, keys []string) (map[string][]byte, error)
	// Put stores values; an existing key is overwritten. Errors:
	// EUNAVAILABLE when the store cannot be reached.
	Put(ctx context.Context, entries map[string][]byte) error
}

// CacheFilter selects cache entries: by kind, the key's prefix up to the
// first ':' ("extract", "embed", "judge"), and by the runs that used them.
// An empty list selects all.
type CacheFilter struct {
	Kinds []string
	Runs  []string
}

// CacheEntry is one stored answer or vector, with the runs that used it.
type CacheEntry struct {
	Key   string
	Value string
	Runs  []string
}

// CacheImport counts what an import did: keys Created; keys that existed
// and were Kept as they were; keys Overwritten with another value. Differing
// counts the existing keys whose stored value differs from the imported
// one (kept, or overwritten with overwrite).
type CacheImport struct {
	Created, Kept, Overwritten, Differing int
}

// Add returns the sum of i and o.
func (i CacheImport) Add(o CacheImport) CacheImport {
	return CacheImport{i.Created + o.Created, i.Kept + o.Kept, i.Overwritten + o.Overwritten, i.Differing + o.Differing}
}

// CacheKindStats describes the entries of one kind: how many, the
// characters of their values, and how many some run used.
type CacheKindStats struct {
	Kind    string
	Entries int
	Chars   int64
	Used    int
}

// NoKind is the kind of a key without ':'.
const NoKind = "(none)"

// CacheService keeps the shared model cache: the Cache of every evaluation,
// and the entries `kgeval cache` exports, imports and counts.
type CacheService interface {
	Cache
	// RunCache is the cache of one evaluation: every entry it reads or
	// writes records run as one that used it, and every Put records
	// calls() as the run's call accounting in the same transaction.
	RunCache(run string, calls func() Calls) Cache
	// Delete removes entries (a deleted answer is asked for again).
	Delete(ctx context.Context, keys []string) error
	// Entries returns at most limit entries f selects, in key order, after
	// the key after ("" for the first page).
	Entries(ctx context.Context, f CacheFilter, after string, limit int) ([]CacheEntry, error)
	// Import stores entries: a new key is added, an existing one kept
	// unless overwrite. Importing the same entries twice changes nothing.
	Import(ctx context.Context, entries []CacheEntry, overwrite bool) (CacheImport, error)
	// Stats counts the entries f selects (by run) per kind, sorted by kind.
	Stats(ctx context.Context, f CacheFilter) ([]CacheKindStats, error)
}
