// How many metric values each sample of a run has (a resumed run skips the
// samples that have all of them).
MATCH (s:MetricScore {run: $run})
RETURN s.sample AS sample, collect(s.metric) AS metrics
