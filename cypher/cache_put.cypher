// Store cached model answers and embeddings; a key is written once per value.
UNWIND $rows AS row
MERGE (c:CacheEntry {key: row.key})
SET c.value = row.value, c.updated = datetime()
