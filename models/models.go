// Package models builds the model-backed adapters of one evaluation from
// the configuration: its model clients (one per family, so that each
// family's calls are counted apart), the extractor, the verifiers, the
// judge and the embedder on the run's cache, and what they did (Usage).
// Package runner makes a Set for each evaluation; package pipeline builds
// the run's Adapters on it once the run's cache is open.
package models

import (
	"context"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/judge"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/minilm"
	"github.com/kgeval/kgeval/scoring"
)

// Adapters are the model-backed adapters of one evaluation. They are built
// for each run (Set.Adapters) on the run's cache, so that every
// answer and vector the run reads or writes records the run, and every
// cached answer carries the run's call accounting.
type Adapters struct {
	Extractor kgeval.Extractor
	// Embedder embeds labels and texts through the run's cache.
	Embedder kgeval.Embedder
	// Tokens gives token vectors for bert_score_f1 (nil: the metric is null).
	Tokens kgeval.TokenEmbedder
	// Judge computes the LLM-judged metrics (nil: they are null).
	Judge kgeval.Judge
	// Verifier is the model check of scoring.verify: llm (nil: off).
	Verifier kgeval.Verifier
	// ClaimVerifier is the model's P(supported) of each claim, for
	// scoring.verify: prob (nil: not asked). Its calls are the verify
	// client's.
	ClaimVerifier kgeval.ClaimVerifier
	// Calls returns the call accounting of this process's model clients
	// (extraction, judge, verify) so far.
	Calls func() kgeval.Calls
}

// Usage is what an evaluation's model clients did: the calls of each
// family (extraction, the model check, the judge) and of every client of
// the process (All: with a separate embeddings endpoint's), the judge's
// questions, and the texts embedded now.
type Usage struct {
	Extraction, Verify, Judge, All    kgeval.Calls
	JudgeAsks, JudgeHits, JudgeCached int
	EmbedMisses                       int
}

// Set is the model clients of one evaluation: one for extraction, one for
// the judge and one for the model check, so that each family's calls and
// tokens are counted apart; Adapters builds the run's adapters on them.
type Set struct {
	cfg                               *configs.Config
	client, judgeClient, verifyClient *llm.Client
	embedder                          kgeval.Embedder
	cached                            *llm.CachedEmbedder
	judge                             *judge.Judge
}

// New builds one evaluation's model clients from cfg; enc, if not nil, is
// its encoder (loaded once by the caller), else it builds the configured
// one (an embeddings endpoint's client, or the local MiniLM files).
func New(cfg *configs.Config, enc kgeval.Embedder) (*Set, error) {
	llmCfg := llm.Config{BaseURL: cfg.LLM.BaseURL, APIKey: cfg.LLM.APIKey, Model: cfg.LLM.Model, Timeout: cfg.LLM.Timeout,
		MaxRetries: cfg.LLM.MaxRetries, Concurrency: cfg.LLM.Concurrency, Temperature: float32(cfg.LLM.Temperature), MaxTokens: cfg.LLM.MaxTokens,
		CacheOnly: cfg.LLM.CacheOnly, ContextTokens: cfg.LLM.ContextTokens}
	w := &Set{cfg: cfg, client: llm.New(llmCfg), judgeClient: llm.New(llmCfg), verifyClient: llm.New(llmCfg), embedder: enc}
	if enc != nil {
		return w, nil
	}
	var err error
	if w.embedder, err = newEmbedder(cfg, w.client); err != nil {
		return nil, err
	}
	return w, nil
}

// Adapters builds the run's adapters on its cache: cache for label
// vectors, answers for the model's answers (--fresh makes it write-only).
func (w *Set) Adapters(cache, answers kgeval.Cache) (*Adapters, error) {
	cfg := w.cfg
	w.cached = &llm.CachedEmbedder{Next: w.embedder, Cache: cache}
	w.judge = &judge.Judge{Client: w.judgeClient, Cache: answers, Embedder: w.cached}
	ms := &Adapters{
		Extractor: &llm.Extractor{Client: w.client, Cache: answers, MaxLabelChars: cfg.Dataset.MaxLabelChars, WindowChars: cfg.Extraction.WindowChars},
		Embedder:  w.cached, Judge: w.judge, Verifier: &llm.Verifier{Client: w.verifyClient, Cache: answers},
		Calls: func() kgeval.Calls { return w.client.Stats().Add(w.judgeClient.Stats()).Add(w.verifyClient.Stats()) },
	}
	if kgeval.AsksClaims(cfg.Scoring.Verify) {
		cv := &llm.ClaimVerifier{Client: w.verifyClient, Cache: answers, Forms: cfg.Scoring.VerifyForms, Aggregate: cfg.Scoring.EvidenceAggregate}
		ms.ClaimVerifier = cv
		if cfg.Scoring.AtomicWords > 0 {
			ms.ClaimVerifier = &llm.AtomicVerifier{Inner: cv, Words: cfg.Scoring.AtomicWords}
		}
	}
	if cfg.Extraction.Method == "rules" {
		ms.Extractor = scoring.RuleExtractor{}
	}
	if m, ok := w.embedder.(*minilm.Model); ok {
		ms.Tokens = m
	}
	return ms, nil
}

// Usage is what these models did: each family's client, and every model
// client of this evaluation, a separate embeddings endpoint's included.
func (w *Set) Usage() Usage {
	all := w.client.Stats().Add(w.judgeClient.Stats()).Add(w.verifyClient.Stats())
	if e, ok := w.embedder.(*llm.Embedder); ok && e.Client != w.client {
		all = all.Add(e.Client.Stats())
	}
	u := Usage{Extraction: w.client.Stats(), Verify: w.verifyClient.Stats(), Judge: w.judgeClient.Stats(), All: all}
	if w.judge != nil {
		js := w.judge.Stats()
		u.JudgeCached = len(js.CacheHits)
		u.JudgeAsks, u.JudgeHits = js.Totals()
	}
	if w.cached != nil {
		u.EmbedMisses = w.cached.Misses
	}
	return u
}

// newEmbedder is the configured encoder: the local MiniLM files, or an
// OpenAI-compatible embeddings endpoint (client's, or its own base URL).
func newEmbedder(cfg *configs.Config, client *llm.Client) (kgeval.Embedder, error) {
	if cfg.Embedding.Provider == "openai" {
		ec := client
		if cfg.Embedding.BaseURL != "" {
			ec = llm.New(llm.Config{BaseURL: cfg.Embedding.BaseURL, APIKey: cfg.Embedding.APIKey, Model: cfg.Embedding.Model,
				Timeout: cfg.LLM.Timeout, MaxRetries: cfg.LLM.MaxRetries, Concurrency: cfg.LLM.Concurrency, CacheOnly: cfg.LLM.CacheOnly})
		}
		return &llm.Embedder{Client: ec, Model: cfg.Embedding.Model, BatchSize: cfg.Embedding.BatchSize}, nil
	}
	mdl, err := minilm.Load(cfg.EncoderDir())
	if err != nil {
		return nil, kgeval.Wrap(kgeval.EUNAVAILABLE, err, "local encoder %s", cfg.Embedding.Model)
	}
	return mdl, nil
}

// Endpoint names the extraction client's model (endpoint#model).
func (w *Set) Endpoint() string { return w.client.Endpoint() }

// Encoder names the evaluation's encoder.
func (w *Set) Encoder() string { return w.embedder.Name() }

// CacheOnly is the embedder of encoder's vectors stored in cache that
// calls no model (a sweep): a text whose vector is not there is
// ENOTFOUND.
func CacheOnly(encoder string, cache kgeval.Cache) kgeval.Embedder {
	return &llm.CachedEmbedder{Next: noCall{encoder}, Cache: cache}
}

// noCall stands behind the model cache where no model may be called: it
// has the encoder's name (part of the cache key) and refuses to embed.
type noCall struct{ name string }

func (e noCall) Name() string { return e.name }

func (e noCall) Embed(_ context.Context, texts []string) ([][]float32, error) {
	return nil, kgeval.Errorf(kgeval.ENOTFOUND, "%d entity embeddings of this run are not in the cache (was it evaluated with encoder %s?); a sweep makes no embedding call", len(texts), e.name)
}
