// The metric values of one sample of a run, with their explanations.
MATCH (s:MetricScore {run: $run, sample: $sample})
RETURN s.metric AS metric, s.family AS family, s.value AS value, s.reason AS reason, s.explanation AS explanation
ORDER BY s.family, s.metric
