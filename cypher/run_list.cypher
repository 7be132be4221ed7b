MATCH (r:Run)
RETURN properties(r) AS run
ORDER BY r.started DESC
