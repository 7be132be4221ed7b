// Louvain on each pair graph's own projection, concurrency 1 for
// reproducible communities.
UNWIND $names AS name
CALL gds.louvain.stream(name, {relationshipWeightProperty: 'weight', concurrency: 1, logProgress: false})
YIELD nodeId, communityId
RETURN nodeId AS node, communityId AS community
