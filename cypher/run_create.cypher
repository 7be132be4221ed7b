// Record a run; fails on the unique constraint when the name is taken.
CREATE (r:Run)
SET r = $run
