CREATE INDEX relation_run IF NOT EXISTS FOR (r:Relation) ON (r.run)
