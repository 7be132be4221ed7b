// Package kgeval is the domain of a knowledge-graph based evaluator for
// retrieval-augmented generation (RAG) systems.
//
// A Sample is one RAG interaction: a question, the passages a retriever
// returned (contexts), the generated answer and optionally a reference answer.
// An LLM extracts (subject, relation, object) Triplets from each text. For a
// Pair of texts — question↔contexts, answer↔contexts, answer↔reference,
// question↔answer — the triplets of both sides become one PairGraph: entity
// nodes per side, one relation node per triplet, structural edges
// head→relation→tail, and SIMILAR edges from input-side entities to
// context-side entities whose label embeddings have cosine >= tau.
//
// Two graph scores follow arXiv 2510.02549:
//
//   - multihop: the share of input entities that reach some context entity by a
//     directed path whose total cost is <= delta (Dijkstra);
//   - community: Louvain communities of the undirected graph; overlap is the
//     share of communities holding both sides, coverage the share of input
//     entities whose community holds a context entity.
//
// The exact definitions are the project's SPEC; docs/SPEC-NOTES.md lists
// every interpretation and deviation kgeval makes. This package holds only types and the
// interfaces the adapters implement; it imports nothing but the standard
// library. Adapters are named after what they wrap: graphstore (Neo4j),
// dataset (files), minilm (the local sentence encoder), llm (OpenAI-compatible
// endpoints), web (Gin). scoring computes the KG scores from domain types;
// metrics, judge (the LLM-judged metrics), stats and analysis compute the other
// metrics and the analyses. MetricScore holds a per-sample value other than
// the KG scores, with its explanation. cmd wires concrete types together.
package kgeval
