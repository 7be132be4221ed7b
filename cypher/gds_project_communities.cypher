// Project each stored pair graph of a batch on its own, undirected and
// weighted, for Louvain: gds.graph.project is an aggregation, so grouping by
// graph gives one projection per pair graph in one statement. Louvain must
// see each pair graph alone: on a union the modularity null model would
// change the result. Rows are ordered so that the projections, and so the
// communities, are reproducible.
UNWIND $graphs AS g
MATCH (s:Entity|Relation {graph: g.graph})-[r:REL|SIMILAR]->(t)
WITH g, g.offset + s.nid AS src, g.offset + t.nid AS dst, r.weight AS weight
ORDER BY g.offset, src, dst
WITH g, gds.graph.project(g.name, src, dst,
       {relationshipProperties: {weight: coalesce(weight, 1.0)}},
       {undirectedRelationshipTypes: ['*'], logProgress: false}) AS p
RETURN count(p) AS graphs
