// The distinct systems of a run's samples and how many samples each has.
MATCH (s:Sample {run: $run})
RETURN s.system AS system, count(*) AS samples
ORDER BY system
