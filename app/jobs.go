package app

import (
	"context"
	"io"
	"slices"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/pipeline"
)

// NewJobs returns the dashboard's jobs (pipeline.Jobs) on db with cfg's
// settings, keeping uploads in dir; each job runs Evaluate, the use case
// of `kgeval evaluate`, under ctx, printing nothing and reading no score
// back.
func NewJobs(ctx context.Context, cfg *configs.Config, db *graphstore.DB, dir string) (*pipeline.Jobs, error) {
	names, _ := metricreg.ExpandMetrics(cfg.Scoring.Metrics)
	// The metrics a job may add to the KG family (never nil: JSON's []).
	metrics := slices.DeleteFunc(append([]string{}, names...), func(n string) bool { return metricreg.MetricFamily(n) == metricreg.FamilyKG })
	model := llm.New(llm.Config{BaseURL: cfg.LLM.BaseURL, Model: cfg.LLM.Model}).Endpoint()
	enc := cfg.Embedding.Provider + " " + cfg.Embedding.Model
	return pipeline.NewJobs(ctx, pipeline.JobsConfig{
		Options: kgeval.JobOptions{Metrics: metrics, Engines: []string{"gds", "native"}, Engine: cfg.Scoring.Engine, Model: model, Encoder: enc,
			MaxUploadBytes: cfg.Web.UploadMaxBytes},
		Metrics: cfg.Scoring.Metrics, Strict: cfg.Dataset.Strict, QuotaFiles: cfg.Web.UploadQuotaFiles, QuotaBytes: cfg.Web.UploadQuotaBytes,
		CleanupAge: cfg.Web.UploadCleanupAge, CleanupEvery: cfg.Web.UploadCleanupInterval,
		Load: func(path string, upload bool) (*dataset.Result, error) {
			opt := cfg.DatasetOptions()
			if upload { // the dashboard lists only the first rejections (all are counted)
				opt.MaxRejections = kgeval.MaxRejectedListed
			}
			return dataset.Load(path, opt)
		},
		Evaluate: func(ctx context.Context, r pipeline.JobRun) error {
			c := *cfg
			if r.Settings != nil {
				c.Scoring = *r.Settings
			}
			if r.Metrics != nil {
				c.Scoring.Metrics = r.Metrics
			}
			c.Scoring.Engine = r.Engine
			c.LLM.CacheOnly = c.LLM.CacheOnly || r.CacheOnly
			_, err := Evaluate(ctx, &c, r.Path, r.Run, EvaluateOptions{Limit: r.Limit, Resume: r.Resume, Progress: r.Progress, Stdout: io.Discard, Stderr: io.Discard})
			return err
		},
	}, db, dir)
}
