// Read the stored KG scores of one pair graph and variant, and how many of
// its nodes carry an explanation (community; input entities: best path).
MATCH (s:PairScore {uid: $uid})
OPTIONAL MATCH (e:Entity {graph: s.graph}) WHERE e.community IS NOT NULL
WITH s, count(e) AS explained, count(e.best_cost) AS with_cost
RETURN s.multihop AS multihop, s.community_overlap AS community_overlap,
       s.community_coverage AS community_coverage, s.reason AS reason, s.engine AS engine,
       explained, with_cost
