// Louvain on each pair graph of the group alone (its own node label),
// concurrency 1 for reproducible communities.
UNWIND $labels AS label
CALL gds.louvain.stream($name, {nodeLabels: [label], relationshipWeightProperty: 'weight', concurrency: 1, logProgress: false, sudo: true})
YIELD nodeId, communityId
RETURN nodeId AS node, communityId AS community
