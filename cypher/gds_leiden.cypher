// Leiden on the union of a batch of pair graphs projected by
// gds_project_communities_scaled (or its relationship types $types of
// gds_project_batch), at resolution $gamma (the number of pair
// graphs): each graph gets the communities it would get alone. theta is
// tiny so that the refinement merges into the best community instead of a
// random one (a random draw would depend on the other graphs of the batch);
// concurrency 1 and a fixed seed keep the rest reproducible.
CALL gds.leiden.stream($name, {relationshipTypes: $types, relationshipWeightProperty: 'weight', gamma: $gamma, theta: $theta, tolerance: $tolerance,
                              randomSeed: 42, concurrency: 1, logProgress: false, sudo: true})
YIELD nodeId, communityId
RETURN nodeId AS node, communityId AS community
