CREATE INDEX metricscore_run IF NOT EXISTS FOR (s:MetricScore) ON (s.run)
