// Create the entity nodes of pair graphs. $rows: {uid, graph, run, sample, pair, nid, side, key, label}.
UNWIND $rows AS row
CREATE (e:Entity)
SET e = row
