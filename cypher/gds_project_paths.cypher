// Project a batch of stored pair graphs for multihop: every edge reversed,
// plus a virtual source node 0 joined at cost 0 to every context entity, so
// that one Dijkstra from node 0 gives each node's least cost to the context
// side. Node ids are $graphs[i].offset + nid. Rows are ordered so that the
// projection, and so the result, is reproducible.
UNWIND $graphs AS g
CALL {
  WITH g
  MATCH (s:Entity|Relation {graph: g.graph})-[r:REL|SIMILAR]->(t)
  WHERE NOT (s:Relation AND t:Relation) // relation-to-relation SIMILAR edges serve the verdicts only
  RETURN g.offset + t.nid AS src, g.offset + s.nid AS dst, r.cost AS cost
  UNION ALL
  WITH g
  MATCH (c:Entity {graph: g.graph, side: 'ctx'}) WHERE c.slot IS NULL
  RETURN 0 AS src, g.offset + c.nid AS dst, 0.0 AS cost
}
WITH src, dst, cost ORDER BY src, dst
WITH gds.graph.project($name, src, dst,
       {relationshipProperties: {cost: coalesce(cost, 1.0)}},
       {undirectedRelationshipTypes: $undirected, logProgress: false}) AS p
RETURN p.nodeCount AS nodes, p.relationshipCount AS rels
