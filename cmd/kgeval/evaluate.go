package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

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
	"github.com/spf13/cobra"
)

func (m *Main) evaluateCommand() *cobra.Command {
	var datasetPath, runName string
	var o evalOpts
	c := &cobra.Command{
		Use:   "evaluate --dataset FILE [--run NAME]",
		Short: "Extract, store and score a dataset (one run)",
		Long:  help("evaluate"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := m.config(cmd)
			if err != nil {
				return err
			}
			if datasetPath == "" {
				return kgeval.Errorf(kgeval.EINVALID, "--dataset is required")
			}
			if runName == "" {
				runName = strings.TrimSuffix(filepath.Base(datasetPath), filepath.Ext(datasetPath))
			}
			if o.replace && o.resume {
				return kgeval.Errorf(kgeval.EINVALID, "--replace and --resume exclude each other")
			}
			return m.evaluate(cmd.Context(), cfg, datasetPath, runName, o)
		},
	}
	f := c.Flags()
	f.StringVar(&datasetPath, "dataset", "", "dataset file (.jsonl, .json, .csv, .parquet)")
	f.StringVar(&runName, "run", "", "run name (default: the dataset's file name)")
	f.IntVar(&o.limit, "limit", 0, "evaluate only the first N valid records (0: all)")
	f.BoolVar(&o.replace, "replace", false, "delete a stored run of the same name first")
	f.BoolVar(&o.fresh, "fresh", false, "ask the model again even when its answer is cached (measures calls and tokens; new answers replace the cached ones)")
	f.BoolVar(&o.resume, "resume", false, "finish a stored run that was interrupted or crashed (no repeated model call, no duplicate)")
	f.String("engine", "", "gds or native (scoring.engine)")
	f.Float64("tau", 0, "SIMILAR edge threshold (scoring.tau)")
	f.Float64("delta", 0, "multihop path-cost threshold (scoring.delta)")
	f.StringSlice("metrics", nil, "metrics to compute (scoring.metrics)")
	f.Int("concurrency", 0, "parallel model calls (llm.concurrency)")
	f.Bool("strict", false, "stop before any work when a record is rejected (dataset.strict)")
	f.Bool("cache-only", false, "make no model call: a request the cache cannot answer fails (llm.cache_only; see `kgeval cache import`)")
	return c
}

// evalOpts are evaluate's per-invocation choices.
type evalOpts struct {
	limit                  int
	replace, resume, fresh bool
}

// evaluate loads a dataset file, wires the store, the models and the
// engine, runs pipeline.Evaluate and prints the outcome.
func (m *Main) evaluate(ctx context.Context, cfg *configs.Config, path, run string, o evalOpts) error {
	res, err := loadDataset(cfg, path)
	if err != nil {
		return err
	}
	render.Dataset(m.Stdout, res)
	if o.limit > 0 && o.limit < len(res.Samples) {
		res.Samples = res.Samples[:o.limit]
		fmt.Fprintf(m.Stderr, "evaluate: --limit %d: evaluating the first %d samples\n", o.limit, o.limit)
	}
	if len(res.Rejected) > 0 && cfg.Dataset.Strict {
		return kgeval.Errorf(kgeval.EINVALID, "%d record(s) rejected and dataset.strict is set", len(res.Rejected))
	}
	if len(res.Samples) == 0 {
		return kgeval.Errorf(kgeval.EINVALID, "dataset %s: no valid record", path)
	}
	db, err := openMigratedStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close(context.WithoutCancel(ctx))

	llmCfg := llm.Config{BaseURL: cfg.LLM.BaseURL, APIKey: cfg.LLM.APIKey, Model: cfg.LLM.Model, Timeout: cfg.LLM.Timeout,
		MaxRetries: cfg.LLM.MaxRetries, Concurrency: cfg.LLM.Concurrency, Temperature: float32(cfg.LLM.Temperature), MaxTokens: cfg.LLM.MaxTokens,
		CacheOnly: cfg.LLM.CacheOnly}
	// One client for extraction, one for the judge and one for the model
	// check, so that each family's calls and tokens are counted apart.
	client, judgeClient, verifyClient := llm.New(llmCfg), llm.New(llmCfg), llm.New(llmCfg)
	embedder, err := newEmbedder(cfg, client)
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
		if m, ok := embedder.(*minilm.Model); ok {
			ms.Tokens = m
		}
		return ms, nil
	}
	ev, err := pipeline.Evaluate(ctx, db, pipeline.EvaluateOptions{
		Run: run, Dataset: path, Fingerprint: fp, Samples: res.Samples, Rejected: len(res.Rejected),
		Replace: o.replace, Resume: o.resume, Fresh: o.fresh, Config: string(cfgJSON), Settings: cfg.Scoring,
		Grounding: cfg.Extraction.Grounding, LLM: client.Endpoint(), Encoder: embedder.Name(), JudgeConcurrency: cfg.LLM.Concurrency,
		Engine: engine, Cache: &graphstore.Cache{DB: db}, Models: models,
		Progress: testKillHook(render.Progress(m.Stderr)), Log: m.Stderr,
	})
	if err != nil {
		return err
	}
	// Every model client of this evaluation, a separate embeddings
	// endpoint's included.
	all := client.Stats().Add(judgeClient.Stats())
	if e, ok := embedder.(*llm.Embedder); ok && e.Client != client {
		all = all.Add(e.Client.Stats())
	}
	js := jd.Stats()
	r := render.EvaluationReport{Run: run, Report: ev.Report, Grounding: cfg.Extraction.Grounding, Extraction: client.Stats(),
		Verify: verifyClient.Stats(), Verified: cfg.Scoring.Verify == "llm", Judge: judgeClient.Stats(), JudgeCached: len(js.CacheHits),
		EmbedMisses: cached.Misses, Resumed: o.resume, Total: ev.Calls, CacheOnly: cfg.LLM.CacheOnly, All: all}
	for _, n := range js.Asks {
		r.JudgeAsks += int(n)
	}
	for _, n := range js.CacheHits {
		r.JudgeHits += int(n)
	}
	render.Evaluation(m.Stdout, r)
	rows, err := db.RunScores(ctx, run, kgeval.DefaultVariant)
	if err != nil {
		return err
	}
	render.Scores(m.Stdout, rows, cfg.Scoring.Pairs)
	if all.Refused > 0 {
		// Not an error: a model that gave no valid answer when the snapshot
		// was made left nothing to cache, and its values were null then too.
		fmt.Fprintf(m.Stderr, "evaluate: --cache-only: %d model requests were not in the cache; their values are null (\"not in the cache\"). Expected for the requests the model failed when the snapshot was made (its header counts them); otherwise import a snapshot that covers this evaluation\n", all.Refused)
	}
	return nil
}

func loadDataset(cfg *configs.Config, path string) (*dataset.Result, error) {
	return dataset.Load(path, dataset.Options{MaxTextChars: cfg.Dataset.MaxTextChars, MaxLabelChars: cfg.Dataset.MaxLabelChars})
}

// testKillHook wraps a progress function so that the process kills itself
// with SIGKILL when the stage named by $KGEVAL_TEST_KILL_AT reports
// progress: the resume test uses it to crash at exact points (after the pair
// graphs are stored and before they are scored, for example).
func testKillHook(next func(stage string, done, total int)) func(stage string, done, total int) {
	at := os.Getenv("KGEVAL_TEST_KILL_AT")
	if at == "" {
		return next
	}
	return func(stage string, done, total int) {
		next(stage, done, total)
		if stage == at && done > 0 {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	}
}

func newEmbedder(cfg *configs.Config, client *llm.Client) (kgeval.Embedder, error) {
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
