package app

import (
	"context"
	"io"
	"slices"
	"sync"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/jobs"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/metricreg"
)

// NewJobs returns the dashboard's jobs (jobs.Jobs) on db with cfg's
// settings, keeping uploads in dir; each job runs the use case of `kgeval
// evaluate` under ctx, printing nothing and reading no score back. The
// jobs share one runner built here: db, the server's store (open and
// migrated by its caller), and the local encoder, loaded here once. A job
// opens no driver, migrates nothing, loads no encoder and does not read
// its upload again (jobs.Run.Data).
func NewJobs(ctx context.Context, cfg *configs.Config, db *graphstore.DB, dir string) (*jobs.Jobs, error) {
	names, _ := metricreg.ExpandMetrics(cfg.Scoring.Metrics)
	// The metrics a job may add to the KG family (never nil: JSON's []).
	metrics := slices.DeleteFunc(append([]string{}, names...), func(n string) bool { return metricreg.MetricFamily(n) == metricreg.FamilyKG })
	model := llm.New(llm.Config{BaseURL: cfg.LLM.BaseURL, Model: cfg.LLM.Model}).Endpoint()
	enc := cfg.Embedding.Provider + " " + cfg.Embedding.Model
	run := &jobRunner{cfg: cfg, db: db}
	// Missing encoder files do not stop the server: each job fails with
	// the reason until a load succeeds.
	_, _ = run.encoder()
	return jobs.New(ctx, jobs.Config{
		Options: jobs.Options{Metrics: metrics, Engines: []string{"gds", "native"}, Engine: cfg.Scoring.Engine, Model: model, Encoder: enc,
			MaxUploadBytes: cfg.Web.UploadMaxBytes},
		Metrics: cfg.Scoring.Metrics, Strict: cfg.Dataset.Strict, QuotaFiles: cfg.Web.UploadQuotaFiles, QuotaBytes: cfg.Web.UploadQuotaBytes,
		CleanupAge: cfg.Web.UploadCleanupAge, CleanupEvery: cfg.Web.UploadCleanupInterval,
		Load: func(path string, upload bool) (*dataset.Result, error) {
			opt := cfg.DatasetOptions()
			if upload { // the dashboard lists only the first rejections (all are counted)
				opt.MaxRejections = jobs.MaxRejectedListed
			}
			return dataset.Load(path, opt)
		},
		Evaluate: run.evaluate,
	}, db, dir)
}

// jobRunner runs the dashboard's jobs on what the server holds once: its
// store and its local encoder.
type jobRunner struct {
	cfg *configs.Config
	db  *graphstore.DB

	mu  sync.Mutex
	enc kgeval.Embedder // the local encoder once loaded
}

// encoder is the local MiniLM encoder, loaded on the first call that
// succeeds (NewJobs makes it), or nil for an embeddings endpoint
// (embedding.provider openai): that one is a client each job builds on its
// own model client, so that its calls are counted with the run's.
func (r *jobRunner) encoder() (kgeval.Embedder, error) {
	if r.cfg.Embedding.Provider == "openai" {
		return nil, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.enc == nil {
		enc, err := NewEmbedder(r.cfg, nil)
		if err != nil {
			return nil, err
		}
		r.enc = enc
	}
	return r.enc, nil
}

// evaluate runs the job jr with the server's configuration, changed as
// jr says, on the runner's store and encoder.
func (r *jobRunner) evaluate(ctx context.Context, jr jobs.Run) error {
	c := *r.cfg
	if jr.Settings != nil {
		c.Scoring = *jr.Settings
	}
	if jr.Metrics != nil {
		c.Scoring.Metrics = jr.Metrics
	}
	c.Scoring.Engine = jr.Engine
	c.LLM.CacheOnly = c.LLM.CacheOnly || jr.CacheOnly
	o := EvaluateOptions{Limit: jr.Limit, Resume: jr.Resume, Progress: jr.Progress, Stdout: io.Discard, Stderr: io.Discard, Dataset: jr.Dataset}
	if jr.Data == nil {
		return kgeval.Errorf(kgeval.EINTERNAL, "job %s: its upload was not read", jr.Run)
	}
	if err := prepare(&c, jr.Path, jr.Data, o); err != nil {
		return err
	}
	enc, err := r.encoder()
	if err != nil {
		return err
	}
	w, err := newModels(&c, enc)
	if err != nil {
		return err
	}
	_, err = evaluate(ctx, &c, r.db, w, jr.Path, jr.Run, jr.Data, o)
	return err
}
