// Tests only: the names and types of every index and constraint.
SHOW INDEXES YIELD name, type
RETURN name, type
ORDER BY name
