// Read one stored pair graph: its nodes, then its edges, by node id within the graph.
MATCH (n:Entity|Relation {graph: $graph})
OPTIONAL MATCH (n)-[r:REL|SIMILAR]->(m)
RETURN n.nid AS nid, labels(n)[0] AS kind, n.side AS side, n.key AS key, n.label AS label, n.passage AS passage,
       collect(CASE WHEN r IS NULL THEN null ELSE {to: m.nid, type: type(r), weight: r.weight, cost: r.cost} END) AS out
ORDER BY nid
