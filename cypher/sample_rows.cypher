// The samples of a run, in record order (one scan; RunScores joins them with
// the run's scores in Go).
MATCH (s:Sample {run: $run})
RETURN s.id AS id, s.record AS record, s.system AS system, s.question AS question, s.human AS human
ORDER BY s.record, s.id
