// Package runner builds kgeval's one Runner from a configs.Config: the
// store, the encoder, the engines and, for each evaluation, its model
// clients. Every evaluation asks it, from the CLI (evaluate, sensitivity,
// sweep) and from the dashboard's jobs, with one Request.
package runner

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/minilm"
	"github.com/kgeval/kgeval/models"
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
// encoders the local encoders loadEncoder loaded: a test's evidence that a
// dashboard job opens no driver and loads no encoder of its own.
var opened, encoders atomic.Int64

func openStore(ctx context.Context, cfg *configs.Config, open func(context.Context, graphstore.Config) (*graphstore.DB, error)) (*graphstore.DB, error) {
	if cfg.Neo4j.Password == "" {
		return nil, kgeval.Errorf(kgeval.EUNAUTHORIZED, "no Neo4j password: set neo4j.password / KGEVAL_NEO4J_PASSWORD")
	}
	db, err := open(ctx, StoreConfig(cfg))
	if err == nil {
		opened.Add(1)
	}
	return db, err
}

// StoreConfig is how the store and the console reach Neo4j.
func StoreConfig(cfg *configs.Config) graphstore.Config {
	return graphstore.Config{URI: cfg.Neo4j.URI, User: cfg.Neo4j.User, Password: cfg.Neo4j.Password,
		Database: cfg.Neo4j.Database, ConnectTimeout: cfg.Neo4j.ConnectTimeout,
		QueryTimeout: cfg.Neo4j.QueryTimeout, MaxConnections: cfg.Neo4j.MaxConnections}
}

// Runner runs evaluations on what is built once from the configuration:
// the Neo4j driver and schema (the store, opened and migrated at the first
// evaluation, or the server's), the local encoder (loaded once) and the
// scoring engines; each evaluation gets model clients of its own, so that
// its calls are counted apart. The CLI's evaluate, the sensitivity
// experiment, sweeps and the dashboard's jobs all ask it.
type Runner struct {
	cfg *configs.Config

	mu  sync.Mutex
	db  *graphstore.DB
	own bool            // Close closes db: the Runner opened it
	enc kgeval.Embedder // the local encoder once loaded
}

// New returns the Runner of cfg; its store is opened (and migrated) by the
// first call that needs it. Close closes it.
func New(cfg *configs.Config) *Runner { return &Runner{cfg: cfg} }

// On returns the Runner of cfg on db, a migrated store its caller opened
// and closes (a server's), with the local encoder loaded now: a missing
// encoder does not stop the server, each evaluation fails with the reason
// until a load succeeds.
func On(cfg *configs.Config, db *graphstore.DB) *Runner {
	r := &Runner{cfg: cfg, db: db}
	_, _ = r.encoder()
	return r
}

// Config is the configuration the Runner was built from.
func (r *Runner) Config() *configs.Config { return r.cfg }

// Store returns the migrated store, opening it on the first call.
func (r *Runner) Store(ctx context.Context) (*graphstore.DB, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.db == nil {
		db, err := OpenMigratedStore(ctx, r.cfg)
		if err != nil {
			return nil, err
		}
		r.db, r.own = db, true
	}
	return r.db, nil
}

// Close closes the store the Runner opened.
func (r *Runner) Close(ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.own && r.db != nil {
		r.db.Close(ctx)
		r.db, r.own = nil, false
	}
}

// Request is one evaluation: what to evaluate, how the run policy goes,
// where its reports go, and what it changes of the configuration.
type Request struct {
	// Path is the dataset file. Data, if set, is the file as read already
	// (a job's upload, read once inside its memory budget), else Evaluate
	// reads it with the configured limits.
	Path string
	Data *dataset.Result
	// Run is the run's name. Dataset is what it records as its dataset; ""
	// for configs.Config.RunDataset of Path (a dashboard job gives its
	// upload's kgeval.UploadDataset).
	Run, Dataset string
	// Limit evaluates only the first Limit valid records (0: all).
	Limit int
	// Replace deletes a stored run of the same name first; Resume finishes
	// an interrupted one; Fresh asks the model again despite the cache.
	Replace, Resume, Fresh bool
	// Shard of Shards: this worker's shard (--shard i/n); Shards 0: one process.
	Shard, Shards int
	// Scores asks for the run's score rows in pipeline.Evaluation.Scores
	// (to print its table).
	Scores bool
	// Progress reports each stage's progress (render.Progress draws bars).
	Progress func(stage string, done, total int)
	// Stdout receives the dataset report; Stderr the progress notes (nil:
	// neither is written).
	Stdout, Stderr io.Writer
	// Settings, if set, replace the configured scoring settings (a resumed
	// job's recorded ones); Metrics, if set, scoring.metrics; Engine, if
	// set, scoring.engine; CacheOnly turns llm.cache_only on.
	Settings  *kgeval.RunSettings
	Metrics   []string
	Engine    string
	CacheOnly bool
}

// Evaluate runs one evaluation of q: it reads the dataset (unless q holds
// it), reports and cuts it, and runs pipeline.Evaluate on the Runner's
// store, encoder and engine with model clients of its own.
func (r *Runner) Evaluate(ctx context.Context, q Request) (*pipeline.Evaluation, error) {
	cfg := r.configFor(q)
	if q.Stdout == nil {
		q.Stdout = io.Discard
	}
	if q.Stderr == nil {
		q.Stderr = io.Discard
	}
	res := q.Data
	if res == nil {
		var err error
		if res, err = dataset.Load(q.Path, cfg.DatasetOptions()); err != nil {
			return nil, err
		}
	}
	if err := prepare(cfg, q.Path, res, q); err != nil {
		return nil, err
	}
	db, err := r.Store(ctx)
	if err != nil {
		return nil, err
	}
	enc, err := r.encoder()
	if err != nil {
		return nil, err
	}
	w, err := models.New(cfg, enc)
	if err != nil {
		return nil, err
	}
	return evaluate(ctx, cfg, db, w, res, q)
}

// configFor is the Runner's configuration with q's changes.
func (r *Runner) configFor(q Request) *configs.Config {
	c := *r.cfg
	if q.Settings != nil {
		c.Scoring = *q.Settings
	}
	if q.Metrics != nil {
		c.Scoring.Metrics = q.Metrics
	}
	if q.Engine != "" {
		c.Scoring.Engine = q.Engine
	}
	c.LLM.CacheOnly = c.LLM.CacheOnly || q.CacheOnly
	return &c
}

// encoder is the local MiniLM encoder, loaded on the first call that
// succeeds, or nil for an embeddings endpoint (embedding.provider openai):
// that one is a client each evaluation builds on its own model client, so
// that its calls are counted with the run's.
func (r *Runner) encoder() (kgeval.Embedder, error) {
	if r.cfg.Embedding.Provider == "openai" {
		return nil, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.enc == nil {
		enc, err := loadEncoder(r.cfg)
		if err != nil {
			return nil, err
		}
		r.enc = enc
	}
	return r.enc, nil
}

// Sweep recomputes the KG scores of a stored run over a grid
// (pipeline.Sweep) on the Runner's store, with vectors read from its cache
// only: a sweep makes no model or embedding call.
func (r *Runner) Sweep(ctx context.Context, o pipeline.SweepOptions) (*pipeline.SweepResult, error) {
	db, err := r.Store(ctx)
	if err != nil {
		return nil, err
	}
	o.Cache = &graphstore.Cache{DB: db}
	return pipeline.Sweep(ctx, db, o)
}

// prepare reports the dataset res read from path, keeps its first o.Limit
// samples and refuses it when it has nothing to evaluate.
func prepare(cfg *configs.Config, path string, res *dataset.Result, o Request) error {
	render.Dataset(o.Stdout, res)
	if o.Limit > 0 && o.Limit < len(res.Samples) {
		res.Samples = res.Samples[:o.Limit]
		fmt.Fprintf(o.Stderr, "evaluate: --limit %d: evaluating the first %d samples\n", o.Limit, o.Limit)
	}
	return res.Evaluable("dataset "+path, cfg.Dataset.Strict)
}

// evaluate runs pipeline.Evaluate of res (read from o.Path) as o.Run on
// the migrated store db with the models w.
func evaluate(ctx context.Context, cfg *configs.Config, db *graphstore.DB, w *models.Set, res *dataset.Result, o Request) (*pipeline.Evaluation, error) {
	path, run := o.Path, o.Run
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
		Grounding: cfg.Extraction.Grounding, RuleFacts: cfg.Extraction.Method == "both", LLM: w.Endpoint(), Encoder: w.Encoder(), JudgeConcurrency: cfg.LLM.Concurrency,
		Engine: engine, Cache: &graphstore.Cache{DB: db}, Models: w,
		Progress: o.Progress, Log: o.Stderr, Scores: o.Scores, Shard: o.Shard, Shards: o.Shards,
		Rejections: res.Rejected, CacheOnly: cfg.LLM.CacheOnly,
	})
	if err != nil {
		return nil, err
	}
	return ev, nil
}

// loadEncoder loads the local MiniLM encoder of cfg.
func loadEncoder(cfg *configs.Config) (kgeval.Embedder, error) {
	mdl, err := minilm.Load(cfg.EncoderDir())
	if err != nil {
		return nil, kgeval.Wrap(kgeval.EUNAVAILABLE, err, "local encoder %s", cfg.Embedding.Model)
	}
	encoders.Add(1)
	return mdl, nil
}

// PlanSensitivity prepares the sensitivity experiment of o on the Runner's
// store (pipeline.PlanSensitivity), o.Dataset read with the configured
// limits. The caller asks Evaluate for each step of the plan, then
// ReadSensitivity for the report.
func (r *Runner) PlanSensitivity(ctx context.Context, o pipeline.SensitivityOptions) (*pipeline.SensitivityPlan, error) {
	res, err := dataset.Load(o.Dataset, r.cfg.DatasetOptions())
	if err != nil {
		return nil, err
	}
	o.Records, o.Samples, o.Rejected = res.Records(), res.Samples, len(res.Rejected)
	db, err := r.Store(ctx)
	if err != nil {
		return nil, err
	}
	return pipeline.PlanSensitivity(ctx, db, o)
}

// ReadSensitivity reads the runs of a sensitivity plan back into its
// report, once each step is evaluated.
func (r *Runner) ReadSensitivity(ctx context.Context, p *pipeline.SensitivityPlan) (*pipeline.SensitivityReport, error) {
	db, err := r.Store(ctx)
	if err != nil {
		return nil, err
	}
	return p.Read(ctx, db)
}

// Doctor checks what cfg configures (pipeline.Doctor): Neo4j, GDS and the
// schema, fixing what it may with fix; the model endpoints; the local
// encoder's files. message writes an error on one line.
func Doctor(ctx context.Context, cfg *configs.Config, fix bool) []pipeline.Check {
	o := pipeline.DoctorOptions{URI: cfg.Neo4j.URI, Fix: fix, LLMBaseURL: cfg.LLM.BaseURL, LLMKey: cfg.LLM.APIKey, LLMModel: cfg.LLM.Model,
		LLMRequired: cfg.LLM.Required, LLMUses: cfg.ModelUses(), EmbeddingProvider: cfg.Embedding.Provider, EmbeddingBaseURL: cfg.Embedding.BaseURL,
		EmbeddingKey: cfg.Embedding.APIKey, EmbeddingModel: cfg.Embedding.Model, ModelDir: cfg.EncoderDir(),
		CleanRun: cfg.CleanRun}
	if db, err := OpenStore(ctx, cfg); err != nil {
		o.StoreErr = err
	} else {
		defer db.Close(ctx)
		o.Store = db
	}
	return pipeline.Doctor(ctx, o)
}

// Preflight asks the model endpoint for its model list before any work
// when llm.required is set (the Python package sets it) and the evaluation
// will call the model without answering from the cache alone (no
// --cache-only): extraction by the model, the model check of a pair it
// applies to, or an LLM-judged metric. An endpoint that does not answer
// would otherwise leave those values null after minutes of retries (left
// so when llm.required is false: a dataset of pre-extracted triplets needs
// no extraction). Errors: EUNAVAILABLE naming llm.base_url and the ways to
// score without it.
func (r *Runner) Preflight(ctx context.Context) error {
	cfg := r.cfg
	if cfg.LLM.CacheOnly || !cfg.LLM.Required {
		return nil
	}
	uses := cfg.ModelUses()
	if len(uses) == 0 {
		return nil
	}
	if err := llm.Probe(ctx, cfg.LLM.BaseURL, cfg.LLM.APIKey); err != nil {
		return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "the model endpoint %s (llm.base_url) does not answer, and %s need%s it: start it (make llm-start), point llm.base_url / KGEVAL_LLM_BASE_URL at one, replay from the model cache with --cache-only, or score without a model (extraction.method rules, scoring.verify off, no llm or ragas metrics)",
			cfg.LLM.BaseURL, strings.Join(uses, ", "), map[bool]string{true: "s", false: ""}[len(uses) == 1])
	}
	return nil
}
