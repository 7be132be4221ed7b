// Tests only: one row per sample of a run with its KG scores per pair (one
// variant) and its other metric values, in one query (an independent check
// of sample_rows, kgscore_run and metricscore_run joined in Go).
MATCH (s:Sample {run: $run})
OPTIONAL MATCH (p:PairScore {run: $run, sample: s.id, variant: $variant})
WITH s, collect(p {.*, verdicts: null}) AS scores
OPTIONAL MATCH (m:MetricScore {run: $run, sample: s.id})
WITH s, scores, collect(m {.metric, .family, .value, .reason}) AS metrics
RETURN s.id AS id, s.record AS record, s.system AS system, s.question AS question, s.human AS human, scores, metrics
ORDER BY s.record, s.id
