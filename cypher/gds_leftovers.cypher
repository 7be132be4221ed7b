// Projections kgeval left behind (a crashed process): names with our prefix,
// created more than $age seconds ago. Live projections are younger: each
// lives for one scoring batch, so another running kgeval keeps its own.
CALL gds.graph.list() YIELD graphName, creationTime
WITH graphName, creationTime
WHERE graphName STARTS WITH $prefix AND creationTime < datetime() - duration({seconds: $age})
RETURN graphName
