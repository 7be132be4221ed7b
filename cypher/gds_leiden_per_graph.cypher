// Leiden on each pair graph of the group alone (its own node label), with
// the settings of gds_leiden at resolution 1: the oracle the batched call
// is tested against.
UNWIND $labels AS label
CALL gds.leiden.stream($name, {nodeLabels: [label], relationshipWeightProperty: 'weight', theta: $theta, tolerance: $tolerance,
                              randomSeed: 42, concurrency: 1, logProgress: false, sudo: true})
YIELD nodeId, communityId
RETURN nodeId AS node, communityId AS community
