// Tests only: what a write attempt could have changed. Nodes and
// relationships carrying $tag (sentinels and anything created with the
// tag), the sentinels' properties and labels, unlabelled nodes (kgeval never
// makes one), and whether the GDS projection $projection still exists.
OPTIONAL MATCH (s:WebSentinel {tag: $tag})
WITH collect(s {.*, labels: labels(s)}) AS sentinels
OPTIONAL MATCH (t) WHERE t.tag = $tag
WITH sentinels, count(t) AS tagged
OPTIONAL MATCH ()-[r]->() WHERE r.tag = $tag
WITH sentinels, tagged, collect(r {.*, type: type(r)}) AS rels
OPTIONAL MATCH (u) WHERE size(labels(u)) = 0
WITH sentinels, tagged, rels, count(u) AS unlabelled
RETURN sentinels, tagged, rels, unlabelled, gds.graph.exists($projection) AS projection
