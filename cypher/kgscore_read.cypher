// Read the stored KG scores of one pair graph and variant, and how many of
// its nodes carry an explanation (community; input entities: best path).
MATCH (s:PairScore {uid: $uid})
OPTIONAL MATCH (e:Entity {graph: s.graph}) WHERE e.community IS NOT NULL
WITH s, count(e) AS explained, count(e.best_cost) AS with_cost
RETURN s.multihop AS multihop, s.community_overlap AS community_overlap,
       s.community_coverage AS community_coverage, s.support AS support, s.contradiction AS contradiction,
       s.recall AS recall, s.f1 AS f1, s.slot_coverage AS slot_coverage,
       s.support_text AS support_text, s.contradiction_text AS contradiction_text,
       s.support_verified AS support_verified, s.contradiction_verified AS contradiction_verified,
       s.reason AS reason, s.reasons AS reasons, s.verdicts AS verdicts, s.engine AS engine,
       explained, with_cost
