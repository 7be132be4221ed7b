// Tests only: what a console attack could change outside kgeval's own data,
// which test packages running in parallel change all the time. Nodes none of
// whose labels is in $labels (unlabelled ones included), relationships whose
// type is not in $types, the labels and types in use outside those lists, and
// the GDS graphs whose names do not start with $prefix (kgeval's live
// projections).
OPTIONAL MATCH (n) WHERE none(l IN labels(n) WHERE l IN $labels)
WITH count(n) AS foreignNodes
OPTIONAL MATCH ()-[r]->() WHERE NOT type(r) IN $types
WITH foreignNodes, count(r) AS foreignRels
CALL { CALL db.labels() YIELD label RETURN collect(label) AS allLabels }
CALL { CALL db.relationshipTypes() YIELD relationshipType RETURN collect(relationshipType) AS allTypes }
CALL { CALL gds.graph.list() YIELD graphName RETURN collect(graphName) AS graphs }
RETURN foreignNodes, foreignRels,
       [l IN allLabels WHERE NOT l IN $labels] AS foreignLabels,
       [t IN allTypes WHERE NOT t IN $types] AS foreignTypes,
       [g IN graphs WHERE NOT g STARTS WITH $prefix] AS graphs
