// Tests only: a two-node projection, to leave a projection behind.
WITH gds.graph.project($name, 1, 2, {}, {}) AS p
RETURN p.graphName AS name
