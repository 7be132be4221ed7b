// Package app is kgeval's composition root: it builds the store, the model
// clients, the encoder and the scoring engine from a configs.Config and runs
// pipeline's use cases with them, so that every command (and a dashboard
// job) starts an evaluation the same way.
package app

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/judge"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/minilm"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/render"
	"github.com/kgeval/kgeval/scoring"
)

// OpenStore connects to Neo4j with the configured settings.
func OpenStore(ctx context.Context, cfg *configs.Config) (*graphstore.DB, error) {
	return openStore(ctx, cfg, graphstore.Open)
}

// OpenMigratedStore connects to Neo4j and makes sure kgeval's schema is in place.
func OpenMigratedStore(ctx context.Context, cfg *configs.Config) (*graphstore.DB, error) {
	return openStore(ctx, cfg, graphstore.OpenMigrated)
}

// opened counts the stores OpenStore and OpenMigratedStore opened, and
// encoders the local encoders NewEmbedder loaded: a test's evidence that a
// dashboard job opens no driver and loads no encoder of its own.
var opened, encoders atomic.Int64

func openStore(ctx context.Context, cfg *configs.Config, open func(context.Context, graphstore.Config) (*graphstore.DB, error)) (*graphstore.DB, error) {
	if cfg.Neo4j.Password == "" {
		return nil, kgeval.Errorf(kgeval.EUNAUTHORIZED, "no Neo4j password: set neo4j.password / KGEVAL_NEO4J_PASSWORD")
	}
	db, err := open(ctx, storeConfig(cfg))
	if err == nil {
		opened.Add(1)
	}
	return db, err
}

// storeConfig is how the store and the console reach Neo4j.
func storeConfig(cfg *configs.Config) graphstore.Config {
	return graphstore.Config{URI: cfg.Neo4j.URI, User: cfg.Neo4j.User, Password: cfg.Neo4j.Password,
		Database: cfg.Neo4j.Database, ConnectTimeout: cfg.Neo4j.ConnectTimeout,
		QueryTimeout: cfg.Neo4j.QueryTimeout, MaxConnections: cfg.Neo4j.MaxConnections}
}

// EvaluateOptions are one evaluation's choices beyond the configuration.
type EvaluateOptions struct {
	// Limit evaluates only the first Limit valid records (0: all).
	Limit int
	// Replace deletes a stored run of the same name first; Resume finishes
	// an interrupted one; Fresh asks the model again despite the cache.
	Replace, Resume, Fresh bool
	// Shard of Shards: this worker's shard (--shard i/n); Shards 0: one process.
	Shard, Shards int
	// Scores asks for the run's score rows in pipeline.Evaluation.Scores (to print
	// its table; pipeline.EvaluateOptions.Scores).
	Scores bool
	// Progress reports each stage's progress (render.Progress draws bars).
	Progress func(stage string, done, total int)
	// Stdout receives the dataset report; Stderr the progress notes.
	Stdout, Stderr io.Writer
	// Dataset is what the run records as its dataset; "" for
	// configs.Config.RunDataset of the file (a dashboard job gives its
	// upload's kgeval.UploadDataset).
	Dataset string
}

// Evaluate loads a dataset file, wires the store, the models and the
// engine from cfg and runs pipeline.Evaluate as run.
func Evaluate(ctx context.Context, cfg *configs.Config, path, run string, o EvaluateOptions) (*pipeline.Evaluation, error) {
	res, err := dataset.Load(path, cfg.DatasetOptions())
	if err != nil {
		return nil, err
	}
	if err := prepare(cfg, path, res, o); err != nil {
		return nil, err
	}
	db, err := OpenMigratedStore(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer db.Close(context.WithoutCancel(ctx))
	w, err := newModels(cfg, nil)
	if err != nil {
		return nil, err
	}
	return evaluate(ctx, cfg, db, w, path, run, res, o)
}

// prepare reports the dataset res read from path, keeps its first o.Limit
// samples and refuses it when it has nothing to evaluate.
func prepare(cfg *configs.Config, path string, res *dataset.Result, o EvaluateOptions) error {
	render.Dataset(o.Stdout, res)
	if o.Limit > 0 && o.Limit < len(res.Samples) {
		res.Samples = res.Samples[:o.Limit]
		fmt.Fprintf(o.Stderr, "evaluate: --limit %d: evaluating the first %d samples\n", o.Limit, o.Limit)
	}
	return res.Evaluable("dataset "+path, cfg.Dataset.Strict)
}

// evaluate runs pipeline.Evaluate of res (read from path) as run on the
// migrated store db with the models w: Evaluate's, or a dashboard job's
// on the server's store and encoder.
func evaluate(ctx context.Context, cfg *configs.Config, db *graphstore.DB, w *models, path, run string, res *dataset.Result, o EvaluateOptions) (*pipeline.Evaluation, error) {
	if o.Resume || o.Shards > 0 {
		stored, err := db.GetRun(ctx, run)
		if err != nil && kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
			return nil, err
		}
		if s := pipeline.KeepCommunityMode(stored, cfg.Scoring); err == nil && s.Communities != cfg.Scoring.Communities {
			fmt.Fprintf(o.Stderr, "evaluate: run %q was started with scoring.communities %s: it finishes in that mode\n", run, s.Communities)
			c := *cfg
			c.Scoring = s
			cfg = &c
		}
	}
	var engine kgeval.KGEngine = &graphstore.GDS{DB: db, Communities: cfg.Scoring.CommunityMode()}
	if cfg.Scoring.Engine == "native" {
		engine = &scoring.Native{Seed: uint64(cfg.Scoring.Seed)}
	}
	// The run records an allowlist of the configuration and the dataset
	// without the server's folders (issue 49, N2 and N6).
	dataset := o.Dataset
	if dataset == "" {
		dataset = cfg.RunDataset(path)
	}
	ev, err := pipeline.Evaluate(ctx, db, pipeline.EvaluateOptions{
		Run: run, Dataset: dataset, Fingerprint: res.Fingerprint, Samples: res.Samples, Rejected: len(res.Rejected),
		Replace: o.Replace, Resume: o.Resume, Fresh: o.Fresh, Config: cfg.RunConfig(), Settings: cfg.Scoring,
		Grounding: cfg.Extraction.Grounding, RuleFacts: cfg.Extraction.Method == "both", LLM: w.client.Endpoint(), Encoder: w.embedder.Name(), JudgeConcurrency: cfg.LLM.Concurrency,
		Engine: engine, Cache: &graphstore.Cache{DB: db}, Models: w,
		Progress: o.Progress, Log: o.Stderr, Scores: o.Scores, Shard: o.Shard, Shards: o.Shards,
		Rejections: res.Rejected, CacheOnly: cfg.LLM.CacheOnly,
	})
	if err != nil {
		return nil, err
	}
	return ev, nil
}

// models are the model clients of one evaluation: one for extraction, one
// for the judge and one for the model check, so that each family's calls
// and tokens are counted apart; Models builds the run's adapters on them.
type models struct {
	cfg                               *configs.Config
	client, judgeClient, verifyClient *llm.Client
	embedder                          kgeval.Embedder
	cached                            *llm.CachedEmbedder
	judge                             *judge.Judge
}

// newModels builds one evaluation's model clients; enc, if not nil, is its
// encoder (a server's, loaded once), else it loads the configured one.
func newModels(cfg *configs.Config, enc kgeval.Embedder) (*models, error) {
	llmCfg := llm.Config{BaseURL: cfg.LLM.BaseURL, APIKey: cfg.LLM.APIKey, Model: cfg.LLM.Model, Timeout: cfg.LLM.Timeout,
		MaxRetries: cfg.LLM.MaxRetries, Concurrency: cfg.LLM.Concurrency, Temperature: float32(cfg.LLM.Temperature), MaxTokens: cfg.LLM.MaxTokens,
		CacheOnly: cfg.LLM.CacheOnly, ContextTokens: cfg.LLM.ContextTokens}
	w := &models{cfg: cfg, client: llm.New(llmCfg), judgeClient: llm.New(llmCfg), verifyClient: llm.New(llmCfg), embedder: enc}
	if enc != nil {
		return w, nil
	}
	var err error
	if w.embedder, err = NewEmbedder(cfg, w.client); err != nil {
		return nil, err
	}
	return w, nil
}

// Models builds the run's adapters on its cache (pipeline.ModelFactory).
func (w *models) Models(cache, answers kgeval.Cache) (*pipeline.Models, error) {
	cfg := w.cfg
	w.cached = &llm.CachedEmbedder{Next: w.embedder, Cache: cache}
	w.judge = &judge.Judge{Client: w.judgeClient, Cache: answers, Embedder: w.cached}
	ms := &pipeline.Models{
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
		ms.Extractor = pipeline.RuleExtractor{}
	}
	if m, ok := w.embedder.(*minilm.Model); ok {
		ms.Tokens = m
	}
	return ms, nil
}

// Usage is what these models did (pipeline.ModelFactory): each family's
// client, and every model client of this evaluation, a separate
// embeddings endpoint's included.
func (w *models) Usage() pipeline.Usage {
	all := w.client.Stats().Add(w.judgeClient.Stats()).Add(w.verifyClient.Stats())
	if e, ok := w.embedder.(*llm.Embedder); ok && e.Client != w.client {
		all = all.Add(e.Client.Stats())
	}
	u := pipeline.Usage{Extraction: w.client.Stats(), Verify: w.verifyClient.Stats(), Judge: w.judgeClient.Stats(), All: all}
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

// NewEmbedder is the configured encoder: the local MiniLM files, or an
// OpenAI-compatible embeddings endpoint (client's, or its own base URL).
func NewEmbedder(cfg *configs.Config, client *llm.Client) (kgeval.Embedder, error) {
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
	encoders.Add(1)
	return mdl, nil
}
