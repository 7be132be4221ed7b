// Every stored KG score of a run and variant with its sample's system, for
// the run statistics (analysis.RunStats: distributions, per-system means).
MATCH (p:PairScore {run: $run})
WHERE p.variant = $variant
OPTIONAL MATCH (s:Sample {uid: p.run + $sep + p.sample})
RETURN p.pair AS pair, s.system AS system, p {.*, verdicts: null} AS score
