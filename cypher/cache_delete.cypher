// Delete cached answers by key.
UNWIND $keys AS key
MATCH (c:CacheEntry {key: key})
DELETE c
