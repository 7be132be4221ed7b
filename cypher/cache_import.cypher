// Import cache entries (distinct keys): a new key is created, an existing
// one kept, or overwritten when $overwrite and its value differs. Returns how
// many keys were new and how many existed with another value.
UNWIND $rows AS row
OPTIONAL MATCH (old:CacheEntry {key: row.key})
WITH row, old IS NULL AS isNew, old IS NOT NULL AND old.value <> row.value AS differs
MERGE (c:CacheEntry {key: row.key})
ON CREATE SET c.value = row.value, c.updated = datetime()
FOREACH (_ IN CASE WHEN differs AND $overwrite THEN [1] ELSE [] END |
  SET c.value = row.value, c.updated = datetime())
RETURN sum(CASE WHEN isNew THEN 1 ELSE 0 END) AS created, sum(CASE WHEN differs THEN 1 ELSE 0 END) AS differing
