// One page of cache entries in key order (the cache_key index), after the
// key $after: those whose key starts with one of $prefixes ("extract:"; all
// when empty) and that a run of $runs used (all when empty).
MATCH (c:CacheEntry)
WHERE c.key > $after
  AND (size($prefixes) = 0 OR any(p IN $prefixes WHERE c.key STARTS WITH p))
  AND (size($runs) = 0 OR any(r IN coalesce(c.runs, []) WHERE r IN $runs))
RETURN c.key AS key, c.value AS value, coalesce(c.runs, []) AS runs
ORDER BY c.key
LIMIT $limit
