// Every stored metric value of a run grouped by metric and by the system of
// its sample, for the run statistics (analysis.RunStats);
// n counts null values too. Samples and values are joined on the sample id
// (a hash join: faster than one Sample lookup per value).
MATCH (s:Sample {run: $run})
MATCH (m:MetricScore {run: $run})
WHERE m.sample = s.id
RETURN m.metric AS metric, m.family AS family, s.system AS system, collect(m.value) AS values, count(*) AS n
