package app

import (
	"context"

	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/jobs"
	"github.com/kgeval/kgeval/runner"
)

// NewJobs returns the dashboard's jobs on db with cfg's settings, keeping
// uploads in dir; each job is an evaluation that one Runner, built here on
// db (the server's store, open and migrated by its caller) and the local
// encoder (loaded here once), runs under ctx, printing nothing. A job
// opens no driver, migrates nothing, loads no encoder and does not read
// its upload again.
func NewJobs(ctx context.Context, cfg *configs.Config, db *graphstore.DB, dir string) (*jobs.Jobs, error) {
	return jobs.New(ctx, jobs.ConfigOf(cfg), runner.On(cfg, db), db, dir)
}
