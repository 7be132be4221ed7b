// Projections kgeval left behind (a crashed process): names with our prefix.
CALL gds.graph.list() YIELD graphName
WITH graphName WHERE graphName STARTS WITH $prefix
RETURN graphName
