// Delete every pair-graph node of a run (and so its edges), in batches.
MATCH (n:Entity|Relation {run: $run})
WITH n LIMIT $limit
DETACH DELETE n
RETURN count(*) AS deleted
