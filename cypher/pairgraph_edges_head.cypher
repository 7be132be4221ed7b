// Structural edges head entity -> relation. $rows: {from, to, weight, cost} with node uids.
UNWIND $rows AS row
MATCH (a:Entity {uid: row.from})
MATCH (b:Relation {uid: row.to})
CREATE (a)-[:REL {weight: row.weight, cost: row.cost}]->(b)
