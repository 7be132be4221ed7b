// Package metrics holds the deterministic parts of kgeval's metric suite:
// the arithmetic that turns vectors, verdicts and sub-scores into metric
// values. It makes no model calls; the LLM-driven metrics gather verdicts,
// sub-scores and embeddings and call these functions, so every formula has
// one definition and exact-value tests.
//
// A metric value is a Value: a number, or null with a reason saying why it
// could not be computed (never a silent zero). Value.Score turns it into a
// kgeval.Score.
//
// # Triplet-embedding similarity (SPEC §5)
//
// For query triplets q_1..q_m and candidate triplets c_1..c_n, embedded as the
// text "subject relation object" (TripletText):
//
//	S_max(q_i) = max_j cos(q_i, c_j)           (first j on ties)
//	avg        = (1/m) Σ_i S_max(q_i)
//	minimax    = min_i S_max(q_i)
//	weighted   = Σ_i w_i S_max(q_i),  w_i = 1 / (k(q_i) · s)
//
// where k(q_i) is the number of triplets in Q whose subject has the same
// kgeval.Key as q_i's and s is the number of distinct subject keys, so the
// weights sum to 1 and every subject gets total weight 1/s. Cosines are
// computed in float64 from the float32 vectors as dot / sqrt(|a|²|b|²),
// clamped to [-1, 1] (0 for a zero vector), and are not rescaled or rounded:
// the three aggregates are on the cosine scale. Empty Q or empty C makes all
// three null ("no triplets extracted from <side>").
//
// # RAGAS-style metrics (SPEC §7, scale 0–100)
//
// Every §7 value computed here is on the 0–100 scale and rounded to 2
// decimals with Round2 (math.Round(x·100)/100, halves away from zero).
//
// ragas_score (RagasScore):
//
//	(0.30 F + 0.20 CP + 0.20 CR + 0.30 AR) / (sum of the weights of the non-null parts)
//
// null parts are dropped and the remaining weights renormalised; all four
// null gives null. CP is ragas_context_precision (the mean).
// Seed example: F=100, CP=null, CR=100, AR=83.27 → 74.981/0.8 = 93.72625 → 93.73.
//
// ragas_context_precision (ContextPrecision) for relevance verdicts
// v_1..v_K ∈ {0,1} in rank order: 100 · (1/K) Σ_k v_k.
//
// ragas_context_precision_at_k (ContextPrecisionAtK), rank-aware as RAGAS
// defines it:
//
//	100 · Σ_{k=1..K} (precision@k · v_k) / (Σ_k v_k),  precision@k = (Σ_{i<=k} v_i) / k
//
// and 0 when no passage is relevant (RAGAS divides by Σ v_k + 1e-10, which
// gives 0 there too). Both are null when there are no passages.
// Example: [1,0,1] → (1/1 + 2/3)/2 = 0.8333… → 83.33.
//
// factual_accuracy (FactualAccuracy, GEval): the LLM grades correctness,
// completeness and consistency each on 0–10 (fractions allowed); we compute
//
//	score = 10 · (0.5·correctness + 0.3·completeness + 0.2·consistency)
//	      = 5·correctness + 3·completeness + 2·consistency   (0–100)
//
// never taking a total from the LLM. The score is rounded to 2 decimals and
// the grade is taken from the rounded score (so the shown number and the
// grade always agree): A >= 80, B >= 60, C >= 40, D >= 20, else E.
//
// semantic_similarity (SemanticSimilarity): max(0, cos(answer, reference)) · 100,
// 2 decimals.
//
// bert_score_f1 (BERTScore, BERTScoreVectors): greedy matching over contextual
// token vectors x_1..x_a (candidate) and y_1..y_b (reference), [CLS] and [SEP]
// excluded, each vector L2-normalised:
//
//	P  = (1/a) Σ_i max_j cos(x_i, y_j)
//	R  = (1/b) Σ_j max_i cos(x_i, y_j)
//	F1 = 2PR / (P + R)          (0 when P + R = 0)
//
// as BERTScore without idf weighting and without baseline rescaling. The
// metric value is max(0, F1) · 100, 2 decimals; null when either side has no
// tokens or the embedding provider gives no token vectors.
//
// k_precision (KPrecision, KPrecisionMissing; Adlakha et al. 2023): the
// share of the answer's distinct content words (lexical.ContentWords) that a
// context holds (lexical.Text.HasWord), in [0, 1], with the words no context
// holds as its explanation; null without contexts or content words. A
// word-overlap baseline, no model.
//
// Answer classification (DontKnow, ClassTally): an answer is DONT_KNOW when it
// contains one of the SPEC phrases ("i don't know", "i do not know",
// "unknown", "not sure", "cannot determine", "no information", "insufficient
// data", "unable to answer", "cannot answer", "don't have enough information",
// "not available", "no data"), or when it is shorter than 10 characters and
// contains "unknown", "n/a", "none" or "null". Matching is case-insensitive,
// treats ’ ‘ ʼ and ' as the same apostrophe, collapses whitespace and is on
// word boundaries: the phrase may not be preceded or followed by a letter or
// digit ("no database" and "Nonet" do not match). Otherwise the LLM judges
// CORRECT or WRONG; ClassTally counts the three classes overall and per
// system.
package metrics
