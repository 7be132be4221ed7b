// Read every stored pair graph of a run (sweeps rebuild them from their
// triplets): nodes with their graph, then their outgoing edges.
MATCH (n:Entity|Relation {run: $run})
OPTIONAL MATCH (n)-[r:REL|SIMILAR|CONFLICTS]->(m)
RETURN n.sample AS sample, n.pair AS pair, n.nid AS nid, labels(n)[0] AS kind, n.side AS side, n.key AS key,
       n.label AS label, n.passage AS passage, n.slot AS slot, n.non_answer AS non_answer, n.fits AS fits, n.want AS want, n.start AS start, n.end AS end,
       collect(CASE WHEN r IS NULL THEN null ELSE {to: m.nid, type: type(r), weight: r.weight, cost: r.cost} END) AS out
ORDER BY sample, pair, nid
