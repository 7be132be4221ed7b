// Every other metric value of a run, without explanations (one scan).
MATCH (m:MetricScore {run: $run})
RETURN m.sample AS sample, m.metric AS metric, m.family AS family, m.value AS value, m.reason AS reason
