// Every KG score of one variant of a run (one scan).
MATCH (p:PairScore {run: $run, variant: $variant})
RETURN p.sample AS sample, p {.*, verdicts: null} AS score
