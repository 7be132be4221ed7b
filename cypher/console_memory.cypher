// The console's cost model (graphstore/consolecost.go) bounds a collected
// list by what Neo4j's memory guard lets one transaction hold: $names are
// db.memory.transaction.max and dbms.memory.transaction.total.max ("0B":
// no limit).
SHOW SETTINGS YIELD name, value
WHERE name IN $names
RETURN name, value
