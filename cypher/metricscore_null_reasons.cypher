// Why a run's metric values are null: each metric's reasons with counts.
MATCH (m:MetricScore {run: $run})
WHERE m.value IS NULL
RETURN m.metric AS metric, m.reason AS reason, count(*) AS n
ORDER BY metric, n DESC, reason
