// Per pair: how many graphs were scored and their mean scores (nulls left out).
MATCH (s:PairScore {run: $run, variant: $variant})
RETURN s.pair AS pair, count(s) AS graphs, count(s.multihop) AS scored,
       avg(s.multihop) AS multihop, avg(s.community_overlap) AS community_overlap,
       avg(s.community_coverage) AS community_coverage, avg(s.support) AS support,
       avg(s.contradiction) AS contradiction, avg(s.recall) AS recall, avg(s.f1) AS f1,
       avg(s.slot_coverage) AS slot_coverage, avg(s.support_verified) AS support_verified,
       avg(s.contradiction_verified) AS contradiction_verified, avg(s.support_text) AS support_text,
       avg(s.contradiction_text) AS contradiction_text, avg(s.slot_coverage_text) AS slot_coverage_text,
       avg(s.atom_support) AS atom_support, avg(s.typed_slot_coverage) AS typed_slot_coverage
ORDER BY pair
