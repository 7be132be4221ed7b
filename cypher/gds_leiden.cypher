// Leiden on the union of a batch of pair graphs (relationship types $types
// of gds_project_batch) at resolution $gamma, the projection's total
// community weight: each graph's modularity is then its own. theta is tiny
// so that the refinement merges into the best community instead of a random
// one (a random draw would depend on the other graphs of the batch);
// concurrency 1 and a fixed seed keep the rest reproducible; $maxLevels is
// 3 (graphstore/gdslayout.go says why). Only the graphs' nodes, ids 1 to
// $end - 1, are returned: not the source, pad, driver and spacer nodes
// (three quarters of the projection).
CALL gds.leiden.stream($name, {relationshipTypes: $types, relationshipWeightProperty: 'weight', gamma: $gamma, theta: $theta, tolerance: $tolerance,
                              maxLevels: $maxLevels, randomSeed: 42, concurrency: 1, logProgress: false, sudo: true})
YIELD nodeId, communityId
WITH nodeId, communityId WHERE 0 < nodeId < $end
RETURN nodeId AS node, communityId AS community
