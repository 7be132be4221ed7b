// Stored KG scores by PairScore uid (graph id, U+001F, variant); missing
// uids give no row.
UNWIND $uids AS uid
MATCH (p:PairScore {uid: uid})
RETURN p.sample AS sample, p {.*, verdicts: null} AS score, p.engine AS engine, p.tau AS tau, p.delta AS delta
