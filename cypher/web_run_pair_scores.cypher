// Every KG score of a run and variant, by sample and pair.
MATCH (p:PairScore {run: $run})
WHERE p.variant = $variant
RETURN p.sample AS sample, p.pair AS pair, p.multihop AS multihop, p.community_overlap AS community_overlap,
       p.community_coverage AS community_coverage, p.reason AS reason
