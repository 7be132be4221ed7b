// Package app is the dashboard's composition root: it builds the server
// of a configs.Config (its users, state, console and limits) on a migrated
// store, with the jobs on one runner.Runner.
package app

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/console"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/kgeval/kgeval/runner"
	"github.com/kgeval/kgeval/web"
)

// NewServer builds the dashboard of cfg (its users, tokens, session state
// under web.state_dir, its Cypher console and console limits) on a migrated
// store; the caller closes the store after the server stops (the console,
// which connects on its first query, closes with the server's
// ListenAndServe). jobDelay slows every job's
// progress report down (jobs.Jobs.Delay; the browser test's, 0
// otherwise).
func NewServer(ctx context.Context, cfg *configs.Config, version string, log io.Writer, jobDelay time.Duration) (*web.Server, *graphstore.DB, error) {
	auth := web.AuthConfig{Disabled: !cfg.Web.Auth, InsecureCookies: !cfg.Web.SecureCookies, SessionTTL: cfg.Web.SessionTTL}
	auth.Users, auth.Tokens, auth.Admins = cfg.Web.Accounts()
	dir := cfg.Path(cfg.Web.StateDir)
	auth, err := web.WithState(auth, dir, log)
	if err != nil {
		return nil, nil, err
	}
	db, err := runner.OpenMigratedStore(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	// Runs recorded before issue 49 stored the whole configuration, every
	// user's password hash and token sha256 included: the console would
	// show them. Rewrite them before anyone can read them.
	if c, err := pipeline.CleanRunRecords(ctx, db, cfg.CleanRun, false); err != nil {
		db.Close(context.WithoutCancel(ctx))
		return nil, nil, fmt.Errorf("clean the stored runs' records (kgeval doctor --fix): %w", err)
	} else if c.Cleaned > 0 {
		fmt.Fprintf(log, "kgeval serve: rewrote %d of %d stored runs' records to the configuration's allowlist, without server paths\n", c.Cleaned, c.Runs)
	}
	// Dashboard jobs run under ctx's values but not its cancellation: when
	// the server stops (ListenAndServe), they are cancelled and recorded as
	// interrupted before it returns and the store is closed.
	jobs, err := NewJobs(ctx, cfg, db, cfg.UploadsDir())
	if err != nil {
		db.Close(context.WithoutCancel(ctx))
		return nil, nil, err
	}
	jobs.Delay = jobDelay
	s, err := web.NewServer(web.Config{Version: version, Auth: auth, TrustedProxies: cfg.Web.TrustedProxies,
		Console:    readmodel.ConsoleLimits{Timeout: cfg.Web.CypherTimeout, MaxRows: cfg.Web.CypherMaxRows, MaxBytes: cfg.Web.CypherMaxBytes},
		Cypher:     console.New(runner.StoreConfig(cfg)),
		Thresholds: cfg.Web.Thresholds, MinN: cfg.Web.MinN,
		Jobs: jobs, UploadMaxBytes: cfg.Web.UploadMaxBytes},
		&graphstore.Health{DB: db}, db)
	if err != nil {
		db.Close(context.WithoutCancel(ctx))
		return nil, nil, err
	}
	return s, db, nil
}

// Serve serves the dashboard of cfg (NewServer) on server.addr until ctx
// ends, then closes the store.
func Serve(ctx context.Context, cfg *configs.Config, version string, log io.Writer, jobDelay time.Duration) error {
	s, db, err := NewServer(ctx, cfg, version, log, jobDelay)
	if err != nil {
		return err
	}
	defer db.Close(context.WithoutCancel(ctx))
	return s.ListenAndServe(ctx, cfg.Server.Addr, log)
}
