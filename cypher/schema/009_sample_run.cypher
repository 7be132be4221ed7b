CREATE INDEX sample_run IF NOT EXISTS FOR (s:Sample) ON (s.run)
