MATCH (s:MetricScore {run: $run}) WITH s LIMIT $limit DETACH DELETE s RETURN count(*) AS deleted
