// Every KG score of one variant of a run (one scan).
MATCH (p:PairScore {run: $run, variant: $variant})
RETURN p.sample AS sample, p.pair AS pair, p.multihop AS multihop, p.community_overlap AS community_overlap,
       p.community_coverage AS community_coverage, p.reason AS reason
