// Remove $run from the runs of at most $limit cache entries (its record is
// being deleted); the entries stay. `deleted` counts the entries changed,
// for deleteInBatches.
MATCH (c:CacheEntry)
WHERE $run IN c.runs
WITH c LIMIT $limit
SET c.runs = CASE WHEN size(c.runs) = 1 THEN null ELSE [r IN c.runs WHERE r <> $run] END
RETURN count(c) AS deleted
