// Tests only: a run's recorded configuration and dataset, and which of
// $secrets they hold (issue 49, N2 and N6: web users' password hashes, token
// sha256s, server paths); $runs empty: every run.
MATCH (r:Run)
WHERE size($runs) = 0 OR r.name IN $runs
RETURN r.name AS name, r.config AS config, r.dataset AS dataset,
       [s IN $secrets WHERE coalesce(r.config, '') CONTAINS s OR coalesce(r.dataset, '') CONTAINS s] AS found
ORDER BY name
