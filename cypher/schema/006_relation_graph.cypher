CREATE INDEX relation_graph IF NOT EXISTS FOR (r:Relation) ON (r.graph)
