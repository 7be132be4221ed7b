// One Dijkstra per batch from the virtual source: least cost and path from
// every node to the nearest context entity (path reversed: source first),
// over the relationship types $types of the projection.
CALL gds.allShortestPaths.dijkstra.stream($name, {sourceNode: 0, relationshipTypes: $types, relationshipWeightProperty: 'cost', concurrency: 1, logProgress: false, sudo: true})
YIELD targetNode, totalCost, nodeIds
RETURN targetNode AS node, totalCost AS cost, nodeIds AS path
