// Project a batch of stored pair graphs, undirected and weighted, for one
// Leiden call on their union that gives each pair graph the communities it
// would get alone: each graph's edge weights are divided by its total edge
// weight m_i (so the union's total is the number of graphs with an edge,
// returned as `graphs`, the resolution to run Leiden with; SPEC-NOTES §4
// derives why). Rows are ordered so that the projection, and so the
// communities, are reproducible.
UNWIND $graphs AS g
CALL {
  WITH g
  MATCH (s:Entity|Relation {graph: g.graph})-[r:REL|SIMILAR]->(t)
  WHERE NOT (s:Relation AND t:Relation) // relation-to-relation SIMILAR edges serve the verdicts only
  WITH g.offset + s.nid AS src, g.offset + t.nid AS dst, coalesce(r.weight, 1.0) AS weight
  WITH collect({src: src, dst: dst, weight: weight}) AS rows, sum(weight) AS m
  UNWIND rows AS row
  RETURN row.src AS src, row.dst AS dst, row.weight / m AS weight
}
WITH g.graph AS graph, src, dst, weight ORDER BY src, dst
WITH gds.graph.project($name, src, dst,
       {relationshipProperties: {weight: weight}},
       {undirectedRelationshipTypes: ['*'], logProgress: false}) AS p,
     count(DISTINCT graph) AS graphs
RETURN p.nodeCount AS nodes, p.relationshipCount AS rels, graphs
