// Cache entries per kind (the key up to the first $sep), restricted to those
// a run of $runs used (all when empty): entries, characters of their values,
// and how many some run used.
MATCH (c:CacheEntry)
WHERE size($runs) = 0 OR any(r IN coalesce(c.runs, []) WHERE r IN $runs)
WITH c, CASE WHEN c.key CONTAINS $sep THEN split(c.key, $sep)[0] ELSE $none END AS kind
RETURN kind, count(c) AS entries, sum(size(c.value)) AS chars,
       sum(CASE WHEN size(coalesce(c.runs, [])) > 0 THEN 1 ELSE 0 END) AS used
ORDER BY kind
