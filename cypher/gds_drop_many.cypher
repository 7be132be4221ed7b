UNWIND $names AS name
CALL gds.graph.drop(name, false) YIELD graphName
RETURN count(graphName) AS dropped
