// Project a batch of stored pair graphs once for both algorithms (one read
// of the stored edges): relationships of type $pathType are the edges
// reversed plus a virtual source node 0 joined at cost 0 to every context
// entity (gds_project_paths), those of type $commType the edges undirected,
// each graph's weights divided by its total weight m_i
// (gds_project_communities_scaled). `graphs` counts the graphs with an
// edge: the resolution to run Leiden with.
// The rows come graph by graph in the order of $graphs, each graph's edges
// sorted by their ends, so that the projection numbers its nodes, and
// Leiden visits them, the same way on every run. The sort is per graph, not
// one ORDER BY over the batch: a global sort of the ~140,000 rows of 500
// graphs made the projection 4-5 times slower (docs/SPEC-NOTES.md §4).
UNWIND $graphs AS g
CALL {
  WITH g
  MATCH (s:Entity|Relation {graph: g.graph})-[r:REL|SIMILAR]->(t)
  WHERE NOT (s:Relation AND t:Relation) // relation-to-relation SIMILAR edges serve the verdicts only
  WITH g, s.nid AS src, t.nid AS dst, coalesce(r.cost, 1.0) AS cost, coalesce(r.weight, 1.0) AS weight
  ORDER BY src, dst, cost, weight
  WITH g, collect({src: g.offset + src, dst: g.offset + dst, cost: cost, weight: weight}) AS edges, sum(weight) AS m
  UNWIND edges AS e
  UNWIND [{src: e.src, dst: e.dst, type: $commType, cost: 0.0, weight: e.weight / m, graph: g.graph},
          {src: e.dst, dst: e.src, type: $pathType, cost: e.cost, weight: 0.0, graph: null}] AS row
  RETURN row
  UNION ALL
  WITH g
  MATCH (c:Entity {graph: g.graph, side: 'ctx'}) WHERE c.slot IS NULL
  WITH g, c.nid AS nid ORDER BY nid
  RETURN {src: 0, dst: g.offset + nid, type: $pathType, cost: 0.0, weight: 0.0, graph: null} AS row
}
WITH gds.graph.project($name, row.src, row.dst,
       {relationshipType: row.type, relationshipProperties: {cost: row.cost, weight: row.weight}},
       {undirectedRelationshipTypes: $undirected, logProgress: false}) AS p,
     count(DISTINCT row.graph) AS graphs
RETURN p.nodeCount AS nodes, p.relationshipCount AS rels, graphs
