package pipeline

import (
	"context"
	"fmt"

	"github.com/kgeval/kgeval"
)

// RunRecords is what CleanRunRecords reads and rewrites of the stored runs.
type RunRecords interface {
	ListRuns(ctx context.Context) ([]kgeval.Run, error)
	// RewriteRunRecord sets the recorded Config and Dataset of the run
	// was.Name to now's when they are still was's, and reports whether
	// it did.
	RewriteRunRecord(ctx context.Context, was, now kgeval.Run) (bool, error)
}

// CleanRun turns a run's stored configuration and dataset into what a run
// records now (configs.Config.CleanRun: the configuration's allowlist, the
// dataset without the server's folders). Errors: EINVALID for a
// configuration that is not JSON.
type CleanRun func(config, dataset string) (string, string, error)

// RunCleanup is what CleanRunRecords found and did: of Runs stored runs,
// Dirty held more than clean keeps (before a fix), Cleaned were rewritten.
type RunCleanup struct {
	Runs, Dirty, Cleaned int
}

// CleanRunRecords rewrites every stored run whose recorded configuration
// or dataset clean would change, or with dryRun only counts them: the
// migration of issue 49 (N2, N6), which `kgeval doctor --fix` and `kgeval
// serve` run. Runs recorded before it stored the whole configuration,
// every dashboard user's password hash and token sha256 included, and
// absolute server paths. It is idempotent; a run recorded meanwhile is
// left as it is (it is recorded clean).
func CleanRunRecords(ctx context.Context, store RunRecords, clean CleanRun, dryRun bool) (RunCleanup, error) {
	runs, err := store.ListRuns(ctx)
	if err != nil {
		return RunCleanup{}, err
	}
	out := RunCleanup{Runs: len(runs)}
	for _, r := range runs {
		config, dataset, err := clean(r.Config, r.Dataset)
		if err != nil {
			return out, fmt.Errorf("run %q: %w", r.Name, err)
		}
		if config == r.Config && dataset == r.Dataset {
			continue
		}
		out.Dirty++
		if dryRun {
			continue
		}
		ok, err := store.RewriteRunRecord(ctx, r, kgeval.Run{Name: r.Name, Config: config, Dataset: dataset})
		if err != nil {
			return out, err
		}
		if ok {
			out.Cleaned++
		}
	}
	return out, nil
}
