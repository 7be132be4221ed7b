MATCH (r:Run {name: $run}) WITH r LIMIT $limit DETACH DELETE r RETURN count(*) AS deleted
