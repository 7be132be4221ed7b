// One row per sample of a run with its KG scores per pair (one variant).
MATCH (s:Sample {run: $run})
OPTIONAL MATCH (p:PairScore {run: $run, sample: s.id, variant: $variant})
WITH s, collect(p {.pair, .multihop, .community_overlap, .community_coverage, .reason}) AS scores
RETURN s.id AS id, s.record AS record, s.system AS system, scores
ORDER BY s.record, s.id
