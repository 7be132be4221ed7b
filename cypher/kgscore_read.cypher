// Read the stored KG scores of one pair graph and variant (every property of
// its PairScore, so that each KG metric is read), and how many of its nodes
// carry an explanation (community; input entities: best path).
MATCH (s:PairScore {uid: $uid})
OPTIONAL MATCH (e:Entity {graph: s.graph}) WHERE e.community IS NOT NULL
WITH s, count(e) AS explained, count(e.best_cost) AS with_cost
RETURN s {.*} AS score, explained, with_cost
