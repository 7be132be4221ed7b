// Structural edges relation -> tail entity (or slot, an Entity marked slot). $rows: {from, to, weight, cost} with node uids.
UNWIND $rows AS row
MATCH (a:Relation {uid: row.from})
MATCH (b:Entity {uid: row.to})
CREATE (a)-[:REL {weight: row.weight, cost: row.cost}]->(b)
