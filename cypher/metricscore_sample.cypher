// Every metric value of one sample with its explanation. A MetricScore uid
// starts with run, U+001F, sample id, U+001F ($prefix), which the uid
// constraint's index finds without scanning the run.
MATCH (m:MetricScore)
WHERE m.uid STARTS WITH $prefix AND m.run = $run AND m.sample = $sample
RETURN m.metric AS metric, m.family AS family, m.value AS value, m.reason AS reason, m.explanation AS explanation
ORDER BY m.family, m.metric
