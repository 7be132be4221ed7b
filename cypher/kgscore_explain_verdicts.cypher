// Store each input triplet's verdict (SPEC §4b, §4c) on its relation node,
// with the node id of the context relation that is its evidence, so that a
// Cypher user sees them: MATCH (r:Relation {run: 'x', side: 'in'}) RETURN r.verdict.
// $rows: {uid, verdict, evidence, model}.
UNWIND $rows AS row
MATCH (n:Relation {uid: row.uid})
SET n.verdict = row.verdict, n.evidence = row.evidence, n.model_verdict = row.model
