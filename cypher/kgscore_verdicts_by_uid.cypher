// The triplet verdicts, atom checks, typed asked facts and claim checks (JSON text, or null) of stored KG scores by PairScore
// uid (graph id, U+001F, variant); missing uids give no row.
UNWIND $uids AS uid
MATCH (p:PairScore {uid: uid})
RETURN p.pair AS pair, p.verdicts AS verdicts, p.atoms AS atoms, p.typed_slots AS typed_slots, p.claims AS claims
