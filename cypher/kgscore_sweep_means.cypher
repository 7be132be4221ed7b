// A run's sweep: for every stored scoring variant other than $default, each
// pair's mean KG scores (nulls left out), its tau and delta, and how many
// graphs were scored.
MATCH (p:PairScore {run: $run})
WHERE p.variant <> $default
RETURN p.variant AS variant, p.pair AS pair, min(p.tau) AS tau, min(p.delta) AS delta, count(p) AS graphs,
       count(p.multihop) AS scored, avg(p.multihop) AS multihop, avg(p.community_overlap) AS community_overlap,
       avg(p.community_coverage) AS community_coverage, avg(p.support) AS support,
       avg(p.contradiction) AS contradiction, avg(p.slot_coverage) AS slot_coverage
ORDER BY tau, delta, pair
