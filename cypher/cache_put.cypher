// Store cached model answers and embeddings; a key is written once per value.
// A non-null $run is added to the entry's set of runs that used it.
UNWIND $rows AS row
MERGE (c:CacheEntry {key: row.key})
SET c.value = row.value, c.updated = datetime(),
    c.runs = CASE WHEN $run IS NULL OR $run IN coalesce(c.runs, []) THEN c.runs ELSE coalesce(c.runs, []) + $run END
