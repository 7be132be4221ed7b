// Package app is kgeval's composition root: it builds the store, the model
// clients, the encoder and the scoring engine from a configs.Config and runs
// pipeline's use cases with them, so that every command (and a dashboard
// job) starts an evaluation the same way.
package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"

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
	"github.com/kgeval/kgeval/web"
)

// OpenStore connects to Neo4j with the configured settings.
func OpenStore(ctx context.Context, cfg *configs.Config) (*graphstore.DB, error) {
	if cfg.Neo4j.Password == "" {
		return nil, kgeval.Errorf(kgeval.EUNAUTHORIZED, "no Neo4j password: set neo4j.password / KGEVAL_NEO4J_PASSWORD")
	}
	return graphstore.Open(ctx, graphstore.Config{
		URI: cfg.Neo4j.URI, User: cfg.Neo4j.User, Password: cfg.Neo4j.Password,
		Database: cfg.Neo4j.Database, ConnectTimeout: cfg.Neo4j.ConnectTimeout,
		QueryTimeout: cfg.Neo4j.QueryTimeout, MaxConnections: cfg.Neo4j.MaxConnections,
	})
}

// OpenMigratedStore connects to Neo4j and makes sure kgeval's schema is in place.
func OpenMigratedStore(ctx context.Context, cfg *configs.Config) (*graphstore.DB, error) {
	db, err := OpenStore(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := db.Migrate(ctx); err != nil {
		db.Close(ctx)
		return nil, err
	}
	return db, nil
}

// EvaluateOptions are one evaluation's choices beyond the configuration.
type EvaluateOptions struct {
	// Limit evaluates only the first Limit valid records (0: all).
	Limit int
	// Replace deletes a stored run of the same name first; Resume finishes
	// an interrupted one; Fresh asks the model again despite the cache.
	Replace, Resume, Fresh bool
	// All prints every score after the headline (render.Scores).
	All bool
	// Progress reports each stage's progress (render.Progress draws bars).
	Progress func(stage string, done, total int)
	// Stdout receives the dataset report, the evaluation summary and the
	// scores; Stderr the progress notes.
	Stdout, Stderr io.Writer
}

// Evaluate loads a dataset file, wires the store, the models and the
// engine from cfg, runs pipeline.Evaluate as run and prints the outcome.
func Evaluate(ctx context.Context, cfg *configs.Config, path, run string, o EvaluateOptions) error {
	res, err := LoadDataset(cfg, path)
	if err != nil {
		return err
	}
	render.Dataset(o.Stdout, res)
	if o.Limit > 0 && o.Limit < len(res.Samples) {
		res.Samples = res.Samples[:o.Limit]
		fmt.Fprintf(o.Stderr, "evaluate: --limit %d: evaluating the first %d samples\n", o.Limit, o.Limit)
	}
	if len(res.Rejected) > 0 && cfg.Dataset.Strict {
		return kgeval.Errorf(kgeval.EINVALID, "%d record(s) rejected and dataset.strict is set", len(res.Rejected))
	}
	if len(res.Samples) == 0 {
		return kgeval.Errorf(kgeval.EINVALID, "dataset %s: no valid record", path)
	}
	db, err := OpenMigratedStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close(context.WithoutCancel(ctx))

	llmCfg := llm.Config{BaseURL: cfg.LLM.BaseURL, APIKey: cfg.LLM.APIKey, Model: cfg.LLM.Model, Timeout: cfg.LLM.Timeout,
		MaxRetries: cfg.LLM.MaxRetries, Concurrency: cfg.LLM.Concurrency, Temperature: float32(cfg.LLM.Temperature), MaxTokens: cfg.LLM.MaxTokens,
		CacheOnly: cfg.LLM.CacheOnly, ContextTokens: cfg.LLM.ContextTokens}
	// One client for extraction, one for the judge and one for the model
	// check, so that each family's calls and tokens are counted apart.
	client, judgeClient, verifyClient := llm.New(llmCfg), llm.New(llmCfg), llm.New(llmCfg)
	embedder, err := NewEmbedder(cfg, client)
	if err != nil {
		return err
	}
	var engine kgeval.KGEngine = &graphstore.GDS{DB: db}
	if cfg.Scoring.Engine == "native" {
		engine = &scoring.Native{Seed: uint64(cfg.Scoring.Seed)}
	}
	fp, err := dataset.FingerprintFile(path)
	if err != nil {
		return err
	}
	cfgJSON, _ := json.Marshal(cfg.Redacted())
	var cached *llm.CachedEmbedder
	var jd *judge.Judge
	models := func(cache, answers kgeval.Cache) (*pipeline.Models, error) {
		cached = &llm.CachedEmbedder{Next: embedder, Cache: cache}
		jd = &judge.Judge{Client: judgeClient, Cache: answers, Embedder: cached}
		ms := &pipeline.Models{
			Extractor: &llm.Extractor{Client: client, Cache: answers, MaxLabelChars: cfg.Dataset.MaxLabelChars, WindowChars: cfg.Extraction.WindowChars},
			Embedder:  cached, Judge: jd, Verifier: &llm.Verifier{Client: verifyClient, Cache: answers},
			Calls: func() kgeval.Calls { return client.Stats().Add(judgeClient.Stats()).Add(verifyClient.Stats()) },
		}
		if cfg.Scoring.Verify == "prob" {
			ms.ClaimVerifier = &llm.ClaimVerifier{Client: verifyClient, Cache: answers}
		}
		if cfg.Extraction.Method == "rules" {
			ms.Extractor = pipeline.RuleExtractor{}
		}
		if m, ok := embedder.(*minilm.Model); ok {
			ms.Tokens = m
		}
		return ms, nil
	}
	ev, err := pipeline.Evaluate(ctx, db, pipeline.EvaluateOptions{
		Run: run, Dataset: path, Fingerprint: fp, Samples: res.Samples, Rejected: len(res.Rejected),
		Replace: o.Replace, Resume: o.Resume, Fresh: o.Fresh, Config: string(cfgJSON), Settings: cfg.Scoring,
		Grounding: cfg.Extraction.Grounding, RuleFacts: cfg.Extraction.Method == "both", LLM: client.Endpoint(), Encoder: embedder.Name(), JudgeConcurrency: cfg.LLM.Concurrency,
		Engine: engine, Cache: &graphstore.Cache{DB: db}, Models: models,
		Progress: o.Progress, Log: o.Stderr,
	})
	if err != nil {
		return err
	}
	// Every model client of this evaluation, a separate embeddings
	// endpoint's included.
	all := client.Stats().Add(judgeClient.Stats()).Add(verifyClient.Stats())
	if e, ok := embedder.(*llm.Embedder); ok && e.Client != client {
		all = all.Add(e.Client.Stats())
	}
	js := jd.Stats()
	r := render.EvaluationReport{Run: run, Report: ev.Report, Grounding: cfg.Extraction.Grounding, Extraction: client.Stats(),
		Verify: verifyClient.Stats(), Verified: cfg.Scoring.Verify == "llm", Judge: judgeClient.Stats(), JudgeCached: len(js.CacheHits),
		EmbedMisses: cached.Misses, Resumed: o.Resume, Total: ev.Calls, CacheOnly: cfg.LLM.CacheOnly, All: all}
	for _, n := range js.Asks {
		r.JudgeAsks += int(n)
	}
	for _, n := range js.CacheHits {
		r.JudgeHits += int(n)
	}
	render.Evaluation(o.Stdout, r)
	rows, err := db.RunScores(ctx, run, kgeval.DefaultVariant)
	if err != nil {
		return err
	}
	render.Scores(o.Stdout, run, rows, cfg.Scoring.Pairs, o.All)
	if all.Refused > 0 {
		// Not an error: a model that gave no valid answer when the snapshot
		// was made left nothing to cache, and its values were null then too.
		fmt.Fprintf(o.Stderr, "evaluate: --cache-only: %d model requests were not in the cache; their values are null (\"not in the cache\"). Expected for the requests the model failed when the snapshot was made (its header counts them); otherwise import a snapshot that covers this evaluation\n", all.Refused)
	}
	return nil
}

// LoadDataset reads a dataset file with the configured limits (text
// sizes, records, decoded bytes), listing every rejected record.
func LoadDataset(cfg *configs.Config, path string) (*dataset.Result, error) {
	return dataset.Load(path, DatasetOptions(cfg))
}

// DatasetOptions are the dataset limits of cfg.
func DatasetOptions(cfg *configs.Config) dataset.Options {
	return dataset.Options{MaxTextChars: cfg.Dataset.MaxTextChars, MaxLabelChars: cfg.Dataset.MaxLabelChars,
		MaxRecords: cfg.Dataset.MaxRecords, MaxDecodedBytes: cfg.Dataset.MaxDecodedBytes}
}

// LoadUpload reads an uploaded dataset file as LoadDataset does, keeping
// only the rejections the dashboard lists (all are counted).
func LoadUpload(cfg *configs.Config, path string) (*dataset.Result, error) {
	opt := DatasetOptions(cfg)
	opt.MaxRejections = web.MaxRejectedListed
	return dataset.Load(path, opt)
}

// UploadCost is what reading an upload may hold within cfg's dataset
// limits (dataset.MemoryBound), for the dashboard's upload memory budget
// (web.upload_memory_bytes).
func UploadCost(cfg *configs.Config) func(name string, size int64) int64 {
	opt := DatasetOptions(cfg)
	return func(name string, size int64) int64 {
		format, err := dataset.FormatOf(name)
		if err != nil {
			return 1 // refused by its name before it is read
		}
		return dataset.MemoryBound(format, size, opt)
	}
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
	mdl, err := minilm.Load(filepath.Join(cfg.Embedding.ModelsDir, cfg.Embedding.Model))
	if err != nil {
		return nil, kgeval.Wrap(kgeval.EUNAVAILABLE, err, "local encoder %s", cfg.Embedding.Model)
	}
	return mdl, nil
}
