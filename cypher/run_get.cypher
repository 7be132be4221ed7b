MATCH (r:Run {name: $name})
RETURN properties(r) AS run
