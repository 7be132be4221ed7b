// One Dijkstra per batch from the virtual source: least cost and path from
// every node to the nearest context entity (path reversed: source first),
// over the relationship types $types of the projection. Only the input
// entities $inputs are returned: scoring reads no other node's distance, and
// streaming every node's path doubled the call's time.
CALL gds.allShortestPaths.dijkstra.stream($name, {sourceNode: 0, relationshipTypes: $types, relationshipWeightProperty: 'cost', concurrency: 1, logProgress: false, sudo: true})
YIELD targetNode, totalCost, nodeIds
WITH targetNode, totalCost, nodeIds WHERE targetNode IN $inputs
RETURN targetNode AS node, totalCost AS cost, nodeIds AS path
