// Read cached answers by key and record $run on every hit: entry.runs is
// the set of runs that used the entry (cache export --run). The write lock
// is taken only where $run is missing, and the SET reads runs under it, so
// concurrent runs never lose each other's names.
UNWIND $keys AS key
MATCH (c:CacheEntry {key: key})
FOREACH (_ IN CASE WHEN $run IN coalesce(c.runs, []) THEN [] ELSE [1] END |
  SET c.runs = CASE WHEN $run IN coalesce(c.runs, []) THEN c.runs ELSE coalesce(c.runs, []) + $run END)
RETURN c.key AS key, c.value AS value
