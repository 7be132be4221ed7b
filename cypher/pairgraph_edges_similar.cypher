// SIMILAR edges input entity -> context entity, weight = cos, cost = 1 - cos.
// $rows: {from, to, weight, cost} with node uids.
UNWIND $rows AS row
MATCH (a:Entity {uid: row.from})
MATCH (b:Entity {uid: row.to})
CREATE (a)-[:SIMILAR {weight: row.weight, cost: row.cost}]->(b)
