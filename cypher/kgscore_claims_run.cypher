// The claim checks (JSON text) of every KG score of one variant of a run that has them (one scan).
MATCH (p:PairScore {run: $run, variant: $variant})
WHERE p.claims IS NOT NULL
RETURN p.sample AS sample, p.pair AS pair, p.claims AS claims
