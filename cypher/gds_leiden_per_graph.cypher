// Leiden on each pair graph of the group alone (its own node label), with
// the settings of gds_leiden at resolution 1, on the stored weights.
UNWIND $labels AS label
CALL gds.leiden.stream($name, {nodeLabels: [label], relationshipWeightProperty: 'weight', theta: $theta, tolerance: $tolerance, maxLevels: $maxLevels,
                              randomSeed: 42, concurrency: 1, logProgress: false, sudo: true})
YIELD nodeId, communityId
RETURN nodeId AS node, communityId AS community
