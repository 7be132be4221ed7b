// The scoring variants stored for a run ("default" and sweep grid points),
// with their parameters.
MATCH (p:PairScore {run: $run})
RETURN p.variant AS variant, min(p.tau) AS tau, min(p.delta) AS delta, count(p) AS scores
ORDER BY variant
