// Create the entity nodes of pair graphs. $rows: {uid, graph, run, sample, pair, nid, side, key, label},
// and as set: non_answer, fits (answer types), slot, want (a slot's answer type).
UNWIND $rows AS row
CREATE (e:Entity)
SET e = row
