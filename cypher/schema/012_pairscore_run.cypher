CREATE INDEX pairscore_run IF NOT EXISTS FOR (s:PairScore) ON (s.run)
