// Create the relation nodes of pair graphs (one per triplet, never merged).
// $rows: {uid, graph, run, sample, pair, nid, side, label, key, passage, start,
// end, source (only for a triplet read by rule: "rules")}.
UNWIND $rows AS row
CREATE (r:Relation)
SET r = row
