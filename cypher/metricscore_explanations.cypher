// The stored explanations of the named metrics for every sample of a run
// (the analysis commands read the factual_accuracy grade and the
// answer_class class from them).
MATCH (m:MetricScore {run: $run})
WHERE m.metric IN $metrics AND m.explanation IS NOT NULL AND m.explanation <> ''
RETURN m.sample AS sample, m.metric AS metric, m.explanation AS explanation
