CREATE INDEX sample_run_id IF NOT EXISTS FOR (s:Sample) ON (s.id)
