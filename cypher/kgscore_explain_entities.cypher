// Store the per-node explanation of the default variant on the stored nodes:
// the Louvain community of every node, and for input entities the least cost
// to the context side, the best path (node ids) and whether it passed delta.
// $rows: {uid, community, cost, path, passed}.
UNWIND $rows AS row
MATCH (n:Entity {uid: row.uid})
SET n.community = row.community, n.best_cost = row.cost, n.best_path = row.path, n.passed = row.passed
