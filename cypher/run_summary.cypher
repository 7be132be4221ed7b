// Per pair: how many graphs were scored, their mean scores, and how many are null.
MATCH (s:PairScore {run: $run, variant: $variant})
RETURN s.pair AS pair, count(s) AS graphs, count(s.multihop) AS scored,
       avg(s.multihop) AS multihop, avg(s.community_overlap) AS community_overlap,
       avg(s.community_coverage) AS community_coverage
ORDER BY pair
