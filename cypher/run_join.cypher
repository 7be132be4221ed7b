// Create a sharded run, or join the one a worker on another shard created:
// MERGE on the unique name, so that two workers starting at once make one
// run. The caller checks the stored record against its own.
MERGE (r:Run {name: $run.name})
ON CREATE SET r += $run
RETURN properties(r) AS run
