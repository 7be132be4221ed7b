// A two-node projection, used by tests to leave a projection behind.
WITH gds.graph.project($name, 1, 2, {}, {}) AS p
RETURN p.graphName AS name
