// Every KG score of one variant of a run (one scan).
MATCH (p:PairScore {run: $run, variant: $variant})
RETURN p.sample AS sample, p {.pair, .multihop, .community_overlap, .community_coverage, .support, .contradiction, .recall, .f1, .slot_coverage, .support_verified, .contradiction_verified, .reason, .reasons} AS score
