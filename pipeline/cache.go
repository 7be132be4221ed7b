package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cachefile"
)

// CacheExportOptions select what ExportCache writes.
type CacheExportOptions struct {
	// Filter selects the entries: of some kinds, used by some runs.
	Filter kgeval.CacheFilter
	// Kgeval names this kgeval (version and commit) in the header; Prompts
	// are its prompt versions, by package.
	Kgeval  string
	Prompts map[string][]string
	// NoTime leaves the export time out of the header (byte-identical
	// files from the same store).
	NoTime bool
}

// ExportCache writes the cache entries o selects to w as a snapshot
// (package cachefile), its header naming the runs of o.Filter with their
// models, encoders and call accounting, and returns the header written.
// Errors: ENOTFOUND for an unknown run, and those of the store and w.
func ExportCache(ctx context.Context, runs kgeval.RunService, cache kgeval.CacheService, w io.Writer, o CacheExportOptions) (cachefile.Header, error) {
	kinds := o.Filter.Kinds
	if kinds == nil {
		kinds = []string{}
	}
	h := cachefile.Header{Kgeval: o.Kgeval, Kinds: kinds, Runs: []cachefile.Run{}, Prompts: o.Prompts}
	for _, name := range o.Filter.Runs {
		r, err := runs.GetRun(ctx, name)
		if err != nil {
			return h, err
		}
		hr := cachefile.Run{Name: r.Name, Dataset: r.Dataset, Fingerprint: r.Fingerprint, LLM: r.LLM, Encoder: r.Encoder, Status: r.Status}
		hr.Model = kgeval.ModelOf(r.LLM)
		if r.Settings != nil {
			hr.Metrics = r.Settings.Metrics
		}
		if r.Calls != nil {
			hr.ModelCalls, hr.Failed = r.Calls.Calls, r.Calls.Failures
		}
		h.Runs = append(h.Runs, hr)
	}
	if !o.NoTime {
		now := time.Now().UTC().Truncate(time.Second)
		h.Exported = &now
	}
	src := func(ctx context.Context, after string, limit int) ([]cachefile.Entry, error) {
		page, err := cache.Entries(ctx, o.Filter, after, limit)
		out := make([]cachefile.Entry, len(page))
		for i, e := range page {
			out[i] = cachefile.Entry{Key: e.Key, Value: e.Value}
		}
		return out, err
	}
	return cachefile.Export(ctx, w, h, src)
}

// ExportCacheFile is ExportCache to a file: written next to path and
// renamed, so that an interrupted export leaves no half snapshot behind.
// It returns the header and the size of the file. Errors: EINVALID when
// path cannot be written, and those of ExportCache.
func ExportCacheFile(ctx context.Context, runs kgeval.RunService, cache kgeval.CacheService, path string, o CacheExportOptions) (cachefile.Header, int64, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return cachefile.Header{}, 0, kgeval.Wrap(kgeval.EINVALID, err, "--out %s", path)
	}
	defer os.Remove(tmp.Name())
	h, err := ExportCache(ctx, runs, cache, tmp, o)
	if cerr := tmp.Close(); err == nil && cerr != nil {
		err = kgeval.Wrap(kgeval.EINVALID, cerr, "--out %s", path)
	}
	if err != nil {
		return h, 0, err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return h, 0, kgeval.Wrap(kgeval.EINVALID, err, "--out %s", path)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return h, 0, kgeval.Wrap(kgeval.EINVALID, err, "--out %s", path)
	}
	st, err := os.Stat(path)
	if err != nil {
		return h, 0, kgeval.Wrap(kgeval.EINVALID, err, "--out %s", path)
	}
	return h, st.Size(), nil
}

// CacheImportResult counts what ImportCache did.
type CacheImportResult struct {
	// Entries counts the entries read, Malformed the lines skipped.
	Entries, Malformed int
	kgeval.CacheImport
}

// ImportCache stores the entries of a snapshot in batches: a new key is
// added, an existing key kept unless overwrite. A malformed line is passed
// to bad and skipped. Importing twice changes nothing, so an interrupted
// import is finished by running it again. Errors: those of the store and
// of reading r (the entries before the error are stored).
func ImportCache(ctx context.Context, cache kgeval.CacheService, r *cachefile.Reader, overwrite bool, bad func(*cachefile.LineError)) (CacheImportResult, error) {
	var res CacheImportResult
	sink := func(ctx context.Context, batch []cachefile.Entry) error {
		es := make([]kgeval.CacheEntry, len(batch))
		for i, e := range batch {
			es[i] = kgeval.CacheEntry{Key: e.Key, Value: e.Value}
		}
		b, err := cache.Import(ctx, es, overwrite)
		res.CacheImport = res.CacheImport.Add(b)
		return err
	}
	var err error
	res.Entries, res.Malformed, err = cachefile.Import(ctx, r, sink, 0, bad)
	return res, err
}

// SnapshotWarnings says what in a snapshot's header means some of its
// entries will not be hit by this kgeval (its prompt versions, by package)
// with the configured model and encoder.
func SnapshotWarnings(h cachefile.Header, prompts map[string][]string, model, encoder string) []string {
	var out []string
	stale, missing := cachefile.PromptDiff(h.Prompts, prompts)
	if len(stale) > 0 {
		out = append(out, fmt.Sprintf("made with prompt versions this kgeval does not send (%s): their entries will never be hit", strings.Join(stale, ", ")))
	}
	if len(missing) > 0 {
		out = append(out, fmt.Sprintf("made without prompt versions this kgeval sends (%s): an evaluation needing them is not in the snapshot", strings.Join(missing, ", ")))
	}
	var models, encoders []string
	for _, r := range h.Runs {
		if r.Model != "" && !slices.Contains(models, r.Model) {
			models = append(models, r.Model)
		}
		if r.Encoder != "" && !slices.Contains(encoders, r.Encoder) {
			encoders = append(encoders, r.Encoder)
		}
	}
	if len(models) > 0 && !slices.Contains(models, model) {
		out = append(out, fmt.Sprintf("its runs used model %s, llm.model is %s: model answers are keyed by model, add --llm-model %s to replay", strings.Join(models, ", "), model, models[0]))
	}
	if len(encoders) > 0 && !slices.Contains(encoders, encoder) {
		out = append(out, fmt.Sprintf("its runs used encoder %s, embedding.model is %s: label vectors are keyed by encoder", strings.Join(encoders, ", "), encoder))
	}
	return out
}
