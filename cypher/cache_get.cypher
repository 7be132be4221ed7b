// Read cached model answers and embeddings by key.
UNWIND $keys AS key
MATCH (c:CacheEntry {key: key})
RETURN c.key AS key, c.value AS value
