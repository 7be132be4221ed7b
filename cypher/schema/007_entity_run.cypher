CREATE INDEX entity_run IF NOT EXISTS FOR (e:Entity) ON (e.run)
