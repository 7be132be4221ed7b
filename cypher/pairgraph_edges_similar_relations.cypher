// SIMILAR edges input relation -> context relation (SPEC §4b: relation text
// cosine >= tau_rel), weight = cos, cost = 1 - cos. They serve the triplet
// verdicts only; multihop and Louvain leave them out.
// $rows: {from, to, weight, cost} with node uids.
UNWIND $rows AS row
MATCH (a:Relation {uid: row.from})
MATCH (b:Relation {uid: row.to})
CREATE (a)-[:SIMILAR {weight: row.weight, cost: row.cost}]->(b)
