// Every metric value of a run (no explanation), by sample and metric.
MATCH (m:MetricScore {run: $run})
RETURN m.sample AS sample, m.metric AS metric, m.family AS family, m.value AS value, m.reason AS reason
