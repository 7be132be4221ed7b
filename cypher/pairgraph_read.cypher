// Read one stored pair graph: its nodes with their explanation (community;
// input entities: best cost, best path, verdict), then its edges, by node id
// within the graph.
MATCH (n:Entity|Relation {graph: $graph})
OPTIONAL MATCH (n)-[r:REL|SIMILAR|CONFLICTS]->(m)
RETURN n.nid AS nid, labels(n)[0] AS kind, n.side AS side, n.key AS key, n.label AS label, n.passage AS passage,
       n.slot AS slot, n.non_answer AS non_answer, n.fits AS fits, n.want AS want, n.start AS start, n.end AS end, n.source AS source, n.verdict AS verdict, n.evidence AS evidence,
       n.community AS community, n.best_cost AS best_cost, n.best_path AS best_path, n.passed AS passed,
       collect(CASE WHEN r IS NULL THEN null ELSE {to: m.nid, type: type(r), weight: r.weight, cost: r.cost} END) AS out
ORDER BY nid
