CREATE INDEX entity_graph IF NOT EXISTS FOR (e:Entity) ON (e.graph)
