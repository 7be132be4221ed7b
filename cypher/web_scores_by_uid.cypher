// Stored KG scores by PairScore uid (graph id, U+001F, variant); missing
// uids give no row.
UNWIND $uids AS uid
MATCH (p:PairScore {uid: uid})
RETURN p.sample AS sample, p.pair AS pair, p.multihop AS multihop, p.community_overlap AS community_overlap,
       p.community_coverage AS community_coverage, p.reason AS reason, p.engine AS engine, p.tau AS tau, p.delta AS delta
