// Store the Louvain community of relation nodes. $rows: {uid, community}.
UNWIND $rows AS row
MATCH (n:Relation {uid: row.uid})
SET n.community = row.community
