// Tests only: a complete graph of $n nodes tagged $tag, every pair joined
// once, so that a few hops around any of them make millions of paths (issue
// 36, finding 4); test_sentinel_delete removes it.
UNWIND range(0, $n - 1) AS i
CREATE (:WebSentinel {tag: $tag, i: i})
WITH count(*) AS created
MATCH (a:WebSentinel {tag: $tag}), (b:WebSentinel {tag: $tag})
WHERE a.i < b.i
CREATE (a)-[:WEB_SENTINEL {tag: $tag}]->(b)
RETURN created, count(*) AS rels
