// Tests only: how many nodes and edges of each kind a run holds (tests that
// check a resumed run has no duplicate).
CALL {
  MATCH (s:Sample {run: $run}) RETURN 'samples' AS kind, count(s) AS n
  UNION ALL
  MATCH (e:Entity {run: $run}) RETURN 'entities' AS kind, count(e) AS n
  UNION ALL
  MATCH (r:Relation {run: $run}) RETURN 'relations' AS kind, count(r) AS n
  UNION ALL
  MATCH (:Entity {run: $run})-[x:SIMILAR]->() RETURN 'similar_edges' AS kind, count(x) AS n
  UNION ALL
  MATCH (:Entity {run: $run})-[x:REL]->() RETURN 'head_edges' AS kind, count(x) AS n
  UNION ALL
  MATCH (:Relation {run: $run})-[x:REL]->() RETURN 'tail_edges' AS kind, count(x) AS n
  UNION ALL
  MATCH (:Relation {run: $run})-[x:SIMILAR]->() RETURN 'relation_similar_edges' AS kind, count(x) AS n
  UNION ALL
  MATCH (:Entity {run: $run})-[x:CONFLICTS]->() RETURN 'conflict_edges' AS kind, count(x) AS n
  UNION ALL
  MATCH (p:PairScore {run: $run}) RETURN 'scores' AS kind, count(p) AS n
}
RETURN kind, n
