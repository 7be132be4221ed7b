// The pair graphs of a run that have scores of one variant (a resumed run
// skips them).
MATCH (p:PairScore {run: $run, variant: $variant})
RETURN p.sample AS sample, p.pair AS pair
