// Store the KG scores of pair graphs, one (:PairScore) per graph and scoring
// variant (a sweep stores one variant per grid point), with the engine and
// parameters that produced them. $rows: {uid, graph, run, sample, pair,
// variant, engine, tau, delta, multihop, community_overlap,
// community_coverage, reason}.
UNWIND $rows AS row
MERGE (s:PairScore {uid: row.uid})
SET s += row, s.updated = datetime()
