// Project a batch of stored pair graphs once for both algorithms (one read
// of the stored edges). Relationships of type $pathType are the edges
// reversed plus a virtual source node 0 joined at cost 0 to every context
// entity (for Dijkstra); those of type $commType are the edges undirected
// for Leiden, each graph's weights divided by its total weight m_i and
// rounded down to a multiple of 1/$unit, the remainder given to its first
// edge: every graph's community weights add up to exactly 1, and every sum
// GDS makes of them is exact, in any order. A graph with no community
// weight gives its 1 to the pad edge instead. The driver, a ring of
// $driver.nodes nodes of total weight 1, has Leiden move nodes at every
// level, and the pad's own weight brings the total to a power of two.
// Node order (GDS numbers nodes as they first appear): $layout.before
// isolated spacer nodes, the source, the driver, each graph's nodes in the
// order of their nid, the pad nodes, the other spacers.
// graphstore/gdslayout.go and docs/SPEC-NOTES.md §4 say why each graph then
// gets the same communities in any batch.
// Each graph's edges are sorted by their ends per graph (one ORDER BY over
// the batch made the projection 4-5 times slower). Isolated nodes get no
// relationship configuration: parsing one per row made the 140,000 spacer
// rows of 500 graphs cost as much as their edges.
CALL {
  UNWIND range($layout.spacers, $layout.spacers + $layout.before - 1) AS id
  RETURN {src: id} AS row
  UNION ALL
  RETURN {src: 0} AS row
  UNION ALL
  UNWIND range(0, $driver.nodes - 1) AS i
  RETURN {src: $driver.offset + i, dst: $driver.offset + (i + 1) % $driver.nodes, type: $commType, cost: 0.0, weight: $driver.weight} AS row
  UNION ALL
  UNWIND $graphs AS g
  CALL {
    WITH g
    UNWIND range(0, g.nodes - 1) AS nid
    RETURN {src: g.offset + nid} AS row
    UNION ALL
    WITH g
    OPTIONAL MATCH (s:Entity|Relation {graph: g.graph})-[r:REL|SIMILAR]->(t)
    WHERE NOT (s:Relation AND t:Relation) // relation-to-relation SIMILAR edges serve the verdicts only
    WITH g, r, s.nid AS src, t.nid AS dst, coalesce(r.cost, 1.0) AS cost, coalesce(r.weight, 1.0) AS weight
    ORDER BY src, dst, cost, weight
    WITH g, collect(CASE WHEN r IS NOT NULL THEN {src: g.offset + src, dst: g.offset + dst, cost: cost, weight: weight} END) AS edges,
         sum(CASE WHEN r IS NOT NULL THEN weight ELSE 0.0 END) AS m
    WITH g, edges, m, [e IN edges | CASE WHEN m > 0 THEN floor(e.weight / m * $unit) ELSE 0.0 END] AS q
    WITH g, edges, m, q, CASE WHEN m > 0 THEN $unit - reduce(t = 0.0, x IN q | t + x) ELSE 0.0 END AS rest
    // j = -1: the pad row of a graph with no community weight
    UNWIND range(CASE WHEN m > 0 THEN 0 ELSE -1 END, size(edges) - 1) AS j
    UNWIND CASE
             WHEN j < 0 THEN [{src: $pad.src, dst: $pad.dst, type: $commType, cost: 0.0, weight: 1.0}]
             WHEN m > 0 THEN [{src: edges[j].src, dst: edges[j].dst, type: $commType, cost: 0.0,
                               weight: (q[j] + CASE j WHEN 0 THEN rest ELSE 0.0 END) / $unit},
                              {src: edges[j].dst, dst: edges[j].src, type: $pathType, cost: edges[j].cost, weight: 0.0}]
             ELSE [{src: edges[j].dst, dst: edges[j].src, type: $pathType, cost: edges[j].cost, weight: 0.0}]
           END AS row
    RETURN row
    UNION ALL
    WITH g
    MATCH (c:Entity {graph: g.graph, side: 'ctx'}) WHERE c.slot IS NULL
    WITH g, c.nid AS nid ORDER BY nid
    RETURN {src: 0, dst: g.offset + nid, type: $pathType, cost: 0.0, weight: 0.0} AS row
  }
  RETURN row
  UNION ALL
  RETURN {src: $pad.src, dst: $pad.dst, type: $commType, cost: 0.0, weight: $pad.weight} AS row
  UNION ALL
  UNWIND range($layout.spacers + $layout.before, $layout.spacers + $layout.before + $layout.after - 1) AS id
  RETURN {src: id} AS row
}
WITH gds.graph.project($name, row.src, row.dst,
       CASE WHEN row.dst IS NOT NULL THEN {relationshipType: row.type, relationshipProperties: {cost: row.cost, weight: row.weight}} END,
       {undirectedRelationshipTypes: $undirected, logProgress: false}) AS p
RETURN p.nodeCount AS nodes, p.relationshipCount AS rels
