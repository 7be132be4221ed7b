// One sample of a run by its uid (run, U+001F, sample id), with its
// grounding check (JSON text, or null).
MATCH (s:Sample {uid: $uid})
RETURN s.id AS id, s.record AS record, s.question AS question, s.answer AS answer, s.reference AS reference,
       s.contexts AS contexts, s.system AS system, s.human AS human, s.grounding AS grounding
