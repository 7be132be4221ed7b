// Project a group of stored pair graphs, undirected and weighted, for
// Louvain. Each pair graph's nodes carry their own label ($graphs[i].label)
// so that Louvain runs on each pair graph alone through a nodeLabels filter:
// on the union the modularity null model would change the result. Rows are
// ordered so that the projection, and so the communities, are reproducible.
UNWIND $graphs AS g
MATCH (s:Entity|Relation {graph: g.graph})-[r:REL|SIMILAR]->(t)
WHERE NOT (s:Relation AND t:Relation) // relation-to-relation SIMILAR edges serve the verdicts only
WITH g, g.offset + s.nid AS src, g.offset + t.nid AS dst, r.weight AS weight
ORDER BY src, dst
WITH gds.graph.project($name, src, dst,
       {sourceNodeLabels: [g.label], targetNodeLabels: [g.label],
        relationshipProperties: {weight: coalesce(weight, 1.0)}},
       {undirectedRelationshipTypes: ['*'], logProgress: false}) AS p
RETURN p.nodeCount AS nodes, p.relationshipCount AS rels
