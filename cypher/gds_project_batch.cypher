// Project a batch of stored pair graphs once for both algorithms (one read
// of the stored edges): relationships of type $pathType are the edges
// reversed plus a virtual source node 0 joined at cost 0 to every context
// entity (gds_project_paths), those of type $commType the edges undirected,
// each graph's weights divided by its total weight m_i
// (gds_project_communities_scaled). `graphs` counts the graphs with an
// edge: the resolution to run Leiden with. Rows are ordered so that the
// projection, and so the results, are reproducible; $commType rows first,
// so that nodes are numbered (and Leiden visits them) in the order of
// gds_project_communities_scaled.
UNWIND $graphs AS g
CALL {
  WITH g
  MATCH (s:Entity|Relation {graph: g.graph})-[r:REL|SIMILAR]->(t)
  WHERE NOT (s:Relation AND t:Relation) // relation-to-relation SIMILAR edges serve the verdicts only
  WITH g, collect({src: g.offset + s.nid, dst: g.offset + t.nid, cost: coalesce(r.cost, 1.0), weight: coalesce(r.weight, 1.0)}) AS edges
  WITH g, edges, reduce(m = 0.0, e IN edges | m + e.weight) AS m
  UNWIND edges AS e
  UNWIND [{src: e.dst, dst: e.src, type: $pathType, cost: e.cost, weight: 0.0, graph: null},
          {src: e.src, dst: e.dst, type: $commType, cost: 0.0, weight: e.weight / m, graph: g.graph}] AS row
  RETURN row
  UNION ALL
  WITH g
  MATCH (c:Entity {graph: g.graph, side: 'ctx'}) WHERE c.slot IS NULL
  RETURN {src: 0, dst: g.offset + c.nid, type: $pathType, cost: 0.0, weight: 0.0, graph: null} AS row
}
WITH row ORDER BY row.type = $pathType, row.src, row.dst
WITH gds.graph.project($name, row.src, row.dst,
       {relationshipType: row.type, relationshipProperties: {cost: row.cost, weight: row.weight}},
       {undirectedRelationshipTypes: $undirected, logProgress: false}) AS p,
     count(DISTINCT row.graph) AS graphs
RETURN p.nodeCount AS nodes, p.relationshipCount AS rels, graphs
