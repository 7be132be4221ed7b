// Read the grounding check stored on one sample (JSON text, or null).
MATCH (s:Sample {uid: $uid})
RETURN s.grounding AS grounding
