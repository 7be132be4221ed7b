MATCH (r:Run {name: $run}) DETACH DELETE r RETURN count(*) AS deleted
