// Every sample of a run in record order, for the dashboard's exports,
// comparisons and correlations.
MATCH (s:Sample {run: $run})
RETURN s.id AS id, s.record AS record, s.system AS system, s.question AS question, s.human AS human
ORDER BY s.record, s.id
