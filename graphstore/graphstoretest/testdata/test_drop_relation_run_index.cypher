DROP INDEX relation_run IF EXISTS
