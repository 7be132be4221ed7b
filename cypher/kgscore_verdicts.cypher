// Triplet verdict matches of stored pair graphs (SPEC §4b, §4c): for every
// input relation r (head h, tail t) and context relation r2 (h2, t2) joined
// by a relation SIMILAR edge, whether the context triplet supports r (both
// ends match, either orientation), contradicts it (one end matches, the
// other is a CONFLICTS literal), or answers it (r is an asked fact: its known
// end matches either end of r2, whose other end, the filler, is new: not a
// non-answer such as "unknown", and not an entity the input names itself,
// that is one reached by an entity SIMILAR edge; restating is not answering),
// or matches the asked fact's known end and relation with a filler that is
// not new (unfilled: why the asked fact stays unanswered). An asked fact
// whose relation names the kind of value asked (its slot's want: "mission
// date" a date) is compared with every context triplet of its graph: one
// whose relation does not match answers it with a new filler of that type
// (the filler's fits); a literal type ($literalWants: date, count,
// duration, measure) is answered only by a filler of that type, and a
// matching relation with another filler is unfilled. "Matches" is an entity SIMILAR edge, which
// pair-graph building drew by the literal-aware rule of SPEC §3b. The native
// engine computes the same in scoring.MatchTriplets; scoring.AssembleVerdicts
// turns the rows into verdicts and scores for both.
// $graphs: graph ids; $literalWants: the literal answer types
// (kgeval.LiteralWants).
UNWIND $graphs AS gid
MATCH (h:Entity)-[:REL]->(r:Relation {graph: gid, side: 'in'})-[:REL]->(t:Entity)
WITH gid, r, h, t, coalesce(h.want, t.want) AS want
CALL {
  WITH r
  MATCH (r)-[:SIMILAR]->(r2:Relation)
  RETURN r2, true AS rr
  UNION
  WITH r, gid, want
  MATCH (r2:Relation {graph: gid, side: 'ctx'})
  WHERE want IS NOT NULL AND NOT EXISTS { (r)-[:SIMILAR]->(r2) }
  RETURN r2, false AS rr
}
MATCH (h2:Entity)-[:REL]->(r2)-[:REL]->(t2:Entity)
WITH gid, r, r2, h, t, h2, t2, rr,
     EXISTS { (h)-[:SIMILAR]->(h2) } AS hh, EXISTS { (t)-[:SIMILAR]->(t2) } AS tt,
     EXISTS { (h)-[:SIMILAR]->(t2) } AS ht, EXISTS { (t)-[:SIMILAR]->(h2) } AS th,
     EXISTS { (h)-[:CONFLICTS]->(h2) } AS xhh, EXISTS { (t)-[:CONFLICTS]->(t2) } AS xtt,
     EXISTS { (h)-[:CONFLICTS]->(t2) } AS xht, EXISTS { (t)-[:CONFLICTS]->(h2) } AS xth,
     h2.non_answer IS NULL AND NOT EXISTS { (:Entity)-[:SIMILAR]->(h2) } AS h2new,
     t2.non_answer IS NULL AND NOT EXISTS { (:Entity)-[:SIMILAR]->(t2) } AS t2new,
     (rr AND NOT coalesce(want IN $literalWants, false)) AS anyFiller,
     coalesce(want IN h2.fits, false) AS h2typed, coalesce(want IN t2.fits, false) AS t2typed
WITH gid, r, r2, h, t, rr, hh, tt, ht, th, xhh, xtt, xht, xth,
     h2new AND (anyFiller OR h2typed) AS h2fills, t2new AND (anyFiller OR t2typed) AS t2fills
WITH gid, r.nid AS input, r2.nid AS context,
     CASE WHEN h.slot OR t.slot OR NOT rr THEN false ELSE (hh AND tt) OR (ht AND th) END AS support,
     CASE WHEN h.slot OR t.slot OR NOT rr THEN false
          ELSE (hh AND xtt) OR (tt AND xhh) OR (ht AND xth) OR (th AND xht) END AS contradict,
     CASE WHEN h.slot THEN (tt AND h2fills) OR (th AND t2fills)
          WHEN t.slot THEN (hh AND t2fills) OR (ht AND h2fills)
          ELSE false END AS answer,
     CASE WHEN NOT rr THEN false
          WHEN h.slot THEN (tt AND NOT h2fills) OR (th AND NOT t2fills)
          WHEN t.slot THEN (hh AND NOT t2fills) OR (ht AND NOT h2fills)
          ELSE false END AS unfilled
WHERE support OR contradict OR answer OR unfilled
RETURN gid AS graph, input, context, support, contradict, answer, unfilled
ORDER BY graph, input, context
