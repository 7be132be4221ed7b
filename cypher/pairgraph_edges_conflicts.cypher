// CONFLICTS edges input entity -> context entity: literals of the same kind
// with different values (SPEC §3b, "2010" vs "2014"), the evidence of a
// contradicted triplet (SPEC §4b). Verdicts only.
// $rows: {from, to, weight, cost} with node uids.
UNWIND $rows AS row
MATCH (a:Entity {uid: row.from})
MATCH (b:Entity {uid: row.to})
CREATE (a)-[:CONFLICTS {weight: row.weight, cost: row.cost}]->(b)
