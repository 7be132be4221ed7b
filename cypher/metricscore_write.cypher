// Store per-sample metric values (triplet similarity, encoder and LLM-judge
// metrics), one (:MetricScore) per run, sample and metric. Rewriting
// replaces. $rows: {uid, run, sample, metric, family, value, reason,
// explanation (JSON text)}.
UNWIND $rows AS row
MERGE (s:MetricScore {uid: row.uid})
SET s = row, s.updated = datetime()
