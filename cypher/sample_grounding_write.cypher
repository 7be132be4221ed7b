// Store the grounding check of a run's samples (SPEC §2b) on their Sample
// nodes: per text, how many extracted triplets were kept and which were
// dropped, with the reason (JSON text), and the totals.
// $rows: {uid, grounding, kept, dropped}.
UNWIND $rows AS row
MATCH (s:Sample {uid: row.uid})
SET s.grounding = row.grounding, s.kept_triplets = row.kept, s.dropped_triplets = row.dropped
