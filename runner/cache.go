package runner

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cachefile"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/judge"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/render"
)

// The cache's use cases on cfg's store: a snapshot file in and out of the
// shared model cache, and its counts.

// Prompts lists this kgeval's prompt versions, by package: a snapshot's
// header records them and an import warns when they differ.
func Prompts() map[string][]string {
	return map[string][]string{"extraction": llm.PromptVersions(), "judge": judge.Prompts(), "verify": append([]string{llm.VerifyPromptVersion}, llm.ClaimPromptVersions()...)}
}

// ImportCacheFile adds the entries of a snapshot file to the cache of cfg's
// store: it prints the snapshot's runs and warnings (other prompts, model or
// encoder) and the counts; malformed lines are reported by number on
// stderr and skipped, and then make the import an EINVALID error.
func ImportCacheFile(ctx context.Context, cfg *configs.Config, file string, overwrite bool, stdout, stderr io.Writer) error {
	f, err := os.Open(file)
	if err != nil {
		return kgeval.Wrap(kgeval.EINVALID, err, "cache import")
	}
	defer f.Close()
	r, err := cachefile.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	render.SnapshotRuns(stdout, file, r.Header())
	for _, w := range pipeline.SnapshotWarnings(r.Header(), Prompts(), cfg.LLM.Model, cfg.Embedding.Model) {
		fmt.Fprintf(stderr, "cache import: warning: %s: %s\n", file, w)
	}
	db, err := OpenMigratedStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close(context.WithoutCancel(ctx))
	n, err := pipeline.ImportCache(ctx, &graphstore.Cache{DB: db}, r, overwrite, func(e *cachefile.LineError) {
		fmt.Fprintf(stderr, "cache import: %s: %v (skipped)\n", file, e)
	})
	render.CacheImported(stdout, stderr, file, n, r.Counts(), r.Header(), overwrite, err)
	if err != nil {
		return fmt.Errorf("cache import %s (the %d entries before the error are stored; run the import again after fixing it): %w", file, n.Entries, err)
	}
	if n.Malformed > 0 {
		return kgeval.Errorf(kgeval.EINVALID, "cache import %s: %d malformed lines skipped (listed above); the other %d entries are stored", file, n.Malformed, n.Entries)
	}
	return nil
}

// ExportCache writes the cache entries of o.Filter (all, or those some
// runs used) of cfg's store, opened as it is (not migrated), to the
// snapshot file out, its header recording this kgeval's Prompts.
func ExportCache(ctx context.Context, cfg *configs.Config, out string, o pipeline.CacheExportOptions) (cachefile.Header, int64, error) {
	db, err := OpenStore(ctx, cfg)
	if err != nil {
		return cachefile.Header{}, 0, err
	}
	defer db.Close(context.WithoutCancel(ctx))
	o.Prompts = Prompts()
	return pipeline.ExportCacheFile(ctx, db, &graphstore.Cache{DB: db}, out, o)
}

// CacheStats counts the cache entries of db per kind (all, or those the
// runs of f used). Errors: ENOTFOUND for a run of f that is not stored.
func CacheStats(ctx context.Context, db *graphstore.DB, f kgeval.CacheFilter) ([]kgeval.CacheKindStats, error) {
	for _, r := range f.Runs {
		if _, err := db.GetRun(ctx, r); err != nil {
			return nil, err
		}
	}
	return (&graphstore.Cache{DB: db}).Stats(ctx, f)
}
