// The migration of issue 49 (kgeval doctor --fix, kgeval serve at start):
// a run's recorded configuration reduced to its allowlist and its dataset
// without the server's folders, only when neither changed since they were
// read.
MATCH (r:Run {name: $name})
WHERE coalesce(r.config, '') = $was_config AND coalesce(r.dataset, '') = $was_dataset
SET r.config = $config, r.dataset = $dataset
RETURN count(r) AS cleaned
