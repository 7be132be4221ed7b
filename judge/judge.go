// Package judge computes the LLM-driven metrics of SPEC §6 and the
// RAGAS-style metrics of SPEC §7 that need a model: it asks the model for
// facts, claims, questions, verdicts and sub-scores through llm.Client (JSON
// answers checked against a JSON Schema and validated here, repaired or
// retried there), caches every answer by (model, prompt name and version,
// schema, input) in a kgeval.Cache, embeds texts for the cosine parts, and
// turns the answers into values with the formulas of package metrics.
//
// One Evaluate call shares what several metrics need: the facts of the
// answer serve llm_faithfulness, faithfulness_validation,
// llm_factual_correctness and factual_correctness_validation; the claims of
// the answer, the per-passage relevance verdicts and the generated questions
// serve both their own metric and ragas_score, which computes the parts it
// was not asked for. Metrics that cannot be computed are null with a reason;
// a model that never gives a valid answer makes the metrics that need that
// answer null with the error as reason.
//
// Scales: the §6 metrics are fractions (0–1) or cosines, unrounded; the §7
// metrics are on 0–100, rounded to 2 decimals (metrics.Round2).
// answer_class is 1 for CORRECT and 0 for WRONG or DONT_KNOW; the class is
// in the explanation (ClassOf reads it back).
//
// # Model questions per sample (P = number of passages)
//
//	llm_response_relevancy          response_questions                       1
//	llm_faithfulness                answer_facts + verify_facts              2 (1 when no fact cites a passage)
//	faithfulness_validation         answer_facts (shared)                    1
//	llm_factual_correctness         answer_facts + facts(reference) + fact_labels  3
//	factual_correctness_validation  answer_facts + facts(reference) (shared) 2
//	ragas_faithfulness              ragas_claims + ragas_verify_claims       2 (1 with no claim or no contexts)
//	ragas_context_precision(_at_k)  ragas_context_relevance per passage      P (shared by both)
//	ragas_context_recall            ragas_context_recall                     1
//	ragas_answer_relevance          ragas_answer_questions (+ rubric on failure)    1 (2)
//	ragas_score                     the four parts above                     3 + P
//	factual_accuracy                geval                                    1
//	answer_class                    answer_class (none for DONT_KNOW)        1
//
// All metrics of a sample with one passage take 12 questions; each may take
// more requests (repairs, retries), which llm.Client.Stats counts.
//
// # Choices where the SPEC is silent
//
// Facts are at most 10, claims and reference statements at most 10, and
// exactly 3 questions are generated (maxItems in the schema; longer lists
// are cut). Passage numbers are 1-based in prompts and 0-based in
// explanations, like kgeval.Triplet.Passage. A fact that cites no passage is
// unsupported (llm_faithfulness) and counts 0 (faithfulness_validation)
// without a call. No facts of the answer makes llm_faithfulness,
// faithfulness_validation and the correctness metrics null, like the KG
// scores. ragas_faithfulness of an answer with claims but no contexts is 0
// (nothing supports them), as ragas_context_recall is without contexts.
// Context precision judges passages against the reference, or against the
// answer when there is none. ragas_answer_relevance clamps a negative mean
// cosine to 0. An empty answer makes every metric that reads it null.
package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/metrics"
)

// Metrics lists every metric Evaluate computes, in SPEC order.
var Metrics = []string{
	metricreg.MetricResponseRelevancy, metricreg.MetricFaithfulness, metricreg.MetricFactualCorrectness,
	metricreg.MetricFaithfulnessValidation, metricreg.MetricFactualCorrectnessValidation,
	metricreg.MetricRagasFaithfulness, metricreg.MetricContextPrecision, metricreg.MetricContextPrecisionAtK,
	metricreg.MetricContextRecall, metricreg.MetricAnswerRelevance, metricreg.MetricRagasScore,
	metricreg.MetricFactualAccuracy, metricreg.MetricAnswerClass,
}

// Judge computes model-judged metrics. It is safe for concurrent use; one
// Evaluate call works through its metrics one after the other (the client
// bounds concurrency across calls).
type Judge struct {
	Client *llm.Client
	// Cache keeps every valid model answer, keyed by model, prompt name and
	// version, JSON Schema and input, so that a re-run makes no call.
	Cache kgeval.Cache
	// Embedder embeds texts for the cosine parts (generated questions,
	// validations); pass a cached one. Nil makes those metrics null.
	Embedder kgeval.Embedder

	mu    sync.Mutex
	asks  map[string]int64
	hits  map[string]int64
	fails map[string]int64
}

// Result is one metric of one sample.
type Result struct {
	Metric string        `json:"metric"`
	Value  metrics.Value `json:"value"`
	// Explanation is JSON-serialisable: the facts, claims, questions,
	// verdicts and sub-scores the value comes from (nil when the metric was
	// not computed).
	Explanation any `json:"explanation,omitempty"`
}

// Stats counts model questions by prompt (name and version): Asks went to
// the model (each may have taken several requests; llm.Client.Stats counts
// those and their tokens), CacheHits came from the cache, Failures are asks
// that ended without a valid answer.
type Stats struct {
	Asks      map[string]int64 `json:"asks"`
	CacheHits map[string]int64 `json:"cache_hits"`
	Failures  map[string]int64 `json:"failures,omitempty"`
}

// Totals are the questions asked of the model and answered from the
// cache, over all prompts.
func (s Stats) Totals() (asks, hits int) {
	for _, n := range s.Asks {
		asks += int(n)
	}
	for _, n := range s.CacheHits {
		hits += int(n)
	}
	return asks, hits
}

// Stats returns the counters since the Judge was created.
func (j *Judge) Stats() Stats {
	j.mu.Lock()
	defer j.mu.Unlock()
	cp := func(m map[string]int64) map[string]int64 {
		out := make(map[string]int64, len(m))
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	return Stats{Asks: cp(j.asks), CacheHits: cp(j.hits), Failures: cp(j.fails)}
}

func (j *Judge) count(m *map[string]int64, prompt string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if *m == nil {
		*m = map[string]int64{}
	}
	(*m)[prompt]++
}

// Evaluate computes the named metrics for s, in the order of names. Model
// failures, missing inputs and embedding failures are null values with
// their reason, not errors. Errors: EINVALID for an unknown metric name
// (before any work); the cache's error (EUNAVAILABLE) when it cannot be
// read or written; the context's error when ctx ends.
func (j *Judge) Evaluate(ctx context.Context, s kgeval.Sample, names []string) ([]Result, error) {
	for _, n := range names {
		if !slices.Contains(Metrics, n) {
			return nil, kgeval.Errorf(kgeval.EINVALID, "judge: unknown metric %q", n)
		}
	}
	e := &eval{j: j, ctx: ctx, s: s, done: map[string]Result{}}
	out := make([]Result, 0, len(names))
	for _, n := range names {
		r := e.metric(n)
		if e.fatal != nil {
			return nil, e.fatal
		}
		out = append(out, r)
	}
	return out, nil
}

var _ kgeval.Judge = (*Judge)(nil)

// Judge evaluates the named metrics of s (kgeval.Judge): Evaluate's
// results as metric scores, each explanation as JSON.
func (j *Judge) Judge(ctx context.Context, s kgeval.Sample, names []string) ([]kgeval.MetricScore, error) {
	res, err := j.Evaluate(ctx, s, names)
	if err != nil {
		return nil, err
	}
	out := make([]kgeval.MetricScore, 0, len(res))
	for _, r := range res {
		ms := kgeval.MetricScore{Sample: s.ID, Metric: r.Metric, Family: metricreg.MetricFamily(r.Metric), Value: r.Value.V, Reason: r.Value.Reason}
		if r.Explanation != nil {
			if ms.Explanation, err = json.Marshal(r.Explanation); err != nil {
				return nil, kgeval.Wrap(kgeval.EINTERNAL, err, "explanation of %s", r.Metric)
			}
		}
		out = append(out, ms)
	}
	return out, nil
}

// eval is one Evaluate call: the sample and every model answer and metric
// computed so far, so that metrics needing the same answer share one call.
type eval struct {
	j     *Judge
	ctx   context.Context
	s     kgeval.Sample
	fatal error // cache unreachable or context ended: Evaluate fails
	done  map[string]Result

	responseQuestions memo[[]string]
	answerFacts       memo[[]Fact]
	referenceFacts    memo[[]Fact]
	claims            memo[[]string]
	relevance         memo[[]PassageVerdict]
	answerQuestions   memo[[]string]
}

// memo holds the outcome of one model question within an Evaluate call.
type memo[T any] struct {
	ok  bool
	v   T
	err error
}

func (m *memo[T]) get(f func() (T, error)) (T, error) {
	if !m.ok {
		m.v, m.err = f()
		m.ok = true
	}
	return m.v, m.err
}

// errFatal marks an ask that ended the Evaluate call (see eval.fatal).
var errFatal = errors.New("judge: evaluation stopped")

func (e *eval) metric(name string) Result {
	if r, ok := e.done[name]; ok {
		return r
	}
	var v metrics.Value
	var x any
	switch name {
	case metricreg.MetricResponseRelevancy:
		v, x = e.responseRelevancy()
	case metricreg.MetricFaithfulness:
		v, x = e.faithfulness()
	case metricreg.MetricFaithfulnessValidation:
		v, x = e.faithfulnessValidation()
	case metricreg.MetricFactualCorrectness:
		v, x = e.factualCorrectness()
	case metricreg.MetricFactualCorrectnessValidation:
		v, x = e.factualCorrectnessValidation()
	case metricreg.MetricRagasFaithfulness:
		v, x = e.ragasFaithfulness()
	case metricreg.MetricContextPrecision, metricreg.MetricContextPrecisionAtK:
		v, x = e.contextPrecision(name == metricreg.MetricContextPrecisionAtK)
	case metricreg.MetricContextRecall:
		v, x = e.contextRecall()
	case metricreg.MetricAnswerRelevance:
		v, x = e.answerRelevance()
	case metricreg.MetricRagasScore:
		v, x = e.ragasScore()
	case metricreg.MetricFactualAccuracy:
		v, x = e.factualAccuracy()
	case metricreg.MetricAnswerClass:
		v, x = e.answerClass()
	}
	r := Result{Metric: name, Value: v, Explanation: x}
	e.done[name] = r
	return r
}

// failed turns the error of a model question or an embedding into a null
// value's reason.
func failed(what string, err error) metrics.Value {
	return metrics.Null(what + ": " + err.Error())
}

// key is the cache key of one model question.
func (j *Judge) key(p prompt, schema map[string]any, user string) string {
	sb, _ := json.Marshal(schema)
	return llm.CacheKey("judge:", j.Client.Model(), p.name, string(sb), user)
}

// ask puts one question to the model, or takes its answer from the cache.
// validate checks (and may normalise) a decoded answer; a cached answer that
// no longer validates is asked again. A model failure is returned as an
// error for the metric's reason; a cache failure or an ended context sets
// e.fatal and returns errFatal.
func ask[T any](e *eval, p prompt, schema map[string]any, user string, validate func(*T) error) (T, error) {
	var zero T
	if e.fatal != nil {
		return zero, errFatal
	}
	stop := func(err error) (T, error) {
		e.fatal = err
		return zero, errFatal
	}
	k := e.j.key(p, schema, user)
	got, err := e.j.Cache.Get(e.ctx, []string{k})
	if err != nil {
		return stop(fmt.Errorf("judge cache read: %w", err))
	}
	if b, ok := got[k]; ok {
		var a T
		if json.Unmarshal(b, &a) == nil && validate(&a) == nil {
			e.j.Client.CountCacheHit(1)
			e.j.count(&e.j.hits, p.name)
			return a, nil
		}
	}
	e.j.count(&e.j.asks, p.name)
	var a T
	err = e.j.Client.JSON(e.ctx, llm.Request{System: p.text, User: user, SchemaName: p.schemaName(), Schema: schema}, &a,
		func() error { return validate(&a) })
	if err != nil {
		if e.ctx.Err() != nil {
			return stop(e.ctx.Err())
		}
		e.j.count(&e.j.fails, p.name)
		return zero, fmt.Errorf("%s: %w", p.name, err)
	}
	b, err := json.Marshal(a)
	if err != nil {
		return stop(kgeval.Wrap(kgeval.EINTERNAL, err, "judge: encode %s answer", p.name))
	}
	if err := e.j.Cache.Put(e.ctx, map[string][]byte{k: b}); err != nil {
		return stop(fmt.Errorf("judge cache write: %w", err))
	}
	return a, nil
}

// embed embeds texts with the Judge's Embedder. An ended context sets
// e.fatal; other failures are returned for the metric's reason.
func (e *eval) embed(texts []string) ([][]float32, error) {
	if e.j.Embedder == nil {
		return nil, errors.New("no embedder configured")
	}
	v, err := e.j.Embedder.Embed(e.ctx, texts)
	if err != nil {
		if e.ctx.Err() != nil {
			e.fatal = e.ctx.Err()
			return nil, errFatal
		}
		return nil, fmt.Errorf("embed with %s: %w", e.j.Embedder.Name(), err)
	}
	if len(v) != len(texts) {
		return nil, kgeval.Errorf(kgeval.EINTERNAL, "embedder %s returned %d vectors for %d texts", e.j.Embedder.Name(), len(v), len(texts))
	}
	return v, nil
}
