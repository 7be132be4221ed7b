// Package scoring is kgeval's one scoring room: everything that turns
// triplets and texts into scores, as functions of their inputs, on domain
// types only (no store, no model client; an embedder's vectors and a token
// embedder come in as values and interfaces).
//
//   - ground.go, rules.go: the grounding check of extracted triplets against
//     their text (GroundSample, SPEC §2b) and the triplets read by rule
//     (RuleTriplets, RuleFacts; extraction.method rules and both).
//   - build.go: the pair graph of one sample and pair (Build, SPEC §3, the
//     paper's Algorithm 1) and the label keys to embed for it, and what a
//     built graph says of itself (EndsOf, Triplets: the triplets a sweep
//     rebuilds a stored graph from; which edges multihop and Louvain walk).
//   - native.go: the in-process engine (gonum Dijkstra and Louvain, SPEC §4);
//     the Neo4j-backed GDS engine lives in graphstore.
//   - assemble.go, verdicts.go: what both engines share, so that they agree
//     exactly. An engine (RawEngine) returns raw results only (Raw: path
//     costs, paths, communities, verdict matches) and Score assembles them
//     once: Assemble turns paths and communities into multihop and the
//     community scores, AssembleVerdicts turns matches into verdicts and the
//     verdict scores (SPEC §4b, §4c). MatchTriplets finds the matches of a
//     graph in process (GDS asks cypher/kgscore_verdicts.cypher);
//     OpenVerdicts and ApplyModelVerdicts add the model check's verdicts
//     (support_verified).
//   - text.go: the sentence-evidence metrics of a scored pair graph
//     (TextVerdicts) and the pair's texts (Sources, Passages, InputText);
//     each metric's formula sits in a file named after it: atom_support.go,
//     typed_slot_coverage.go, slot_coverage_text.go, support_text.go
//     (support_text and contradiction_text). TextVerdicts sets their values
//     on the result once, at its end. Texts come prepared by the caller's
//     one cache (pipeline prepares each text once for every stage).
//   - metrics.go: the per-sample metrics beside the KG scores
//     (SampleMetrics: triplet similarity, k_precision, semantic_similarity,
//     bert_score_f1) from vectors the caller embedded (MetricTexts).
//
// Subpackages: claims (the claim checks and their calibration, SPEC §4d) and
// scoringtest (hand-worked cases both engines are tested on). pipeline calls
// each stage with one short call; the text rules live in lexical and the
// metric formulas in metrics.
package scoring
