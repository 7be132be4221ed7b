// Update a run's status, counts, timings and call accounting.
MATCH (r:Run {name: $name})
SET r += $fields
