// Tests only: two sentinel nodes tagged $tag joined by a relationship, which
// the console's write-attempt corpus aims at.
CREATE (a:WebSentinel {tag: $tag, name: $a, score: 1})-[:WEB_SENTINEL {tag: $tag, weight: 1}]->(b:WebSentinel {tag: $tag, name: $b, score: 2})
RETURN a.name AS a, b.name AS b
