package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cachefile"
	"github.com/kgeval/kgeval/pipeline"
)

// CacheExported reports a snapshot written by `kgeval cache export` on w,
// with a warning on errw when it selected no entry.
func CacheExported(w, errw io.Writer, h cachefile.Header, size int64, f kgeval.CacheFilter, out string) {
	scope := "all entries"
	if len(f.Runs) > 0 {
		scope = "entries used by run " + strings.Join(f.Runs, ", ")
	}
	if len(f.Kinds) > 0 {
		scope += " of kind " + strings.Join(f.Kinds, ", ")
	}
	fmt.Fprintf(w, "cache export: %s: %d entries (%s) to %s, %d bytes\n", scope, h.Entries, KindCounts(h.Counts), out, size)
	if h.Entries == 0 {
		fmt.Fprintln(errw, "cache export: warning: no entry selected (runs evaluated before kgeval recorded runs on cache entries have none: evaluate them again)")
	}
}

// SnapshotRuns lists the runs a snapshot's header records, before an import.
func SnapshotRuns(w io.Writer, file string, h cachefile.Header) {
	for _, hr := range h.Runs {
		fmt.Fprintf(w, "cache import: %s: run %s (model %s, encoder %s, status %s): %d model calls, %d failed requests (a --cache-only replay refuses those again)\n",
			file, hr.Name, hr.Model, hr.Encoder, hr.Status, hr.ModelCalls, hr.Failed)
	}
}

// CacheImported reports what `kgeval cache import` stored of file on w:
// counts holds the entries read per kind. When the import read every line
// (err == nil) and the count differs from the header's, a warning goes to
// errw.
func CacheImported(w, errw io.Writer, file string, n pipeline.CacheImportResult, counts map[string]int, h cachefile.Header, overwrite bool, err error) {
	kept := fmt.Sprintf("%d kept", n.Kept)
	if n.Differing > 0 && !overwrite {
		kept += fmt.Sprintf(" (%d of them differ from the file; --overwrite replaces them)", n.Differing)
	}
	fmt.Fprintf(w, "cache import: %s: %d entries (%s): %d new, %s, %d overwritten; %d malformed lines skipped\n",
		file, n.Entries, KindCounts(counts), n.Created, kept, n.Overwritten, n.Malformed)
	if err == nil && n.Malformed == 0 && n.Entries != h.Entries {
		fmt.Fprintf(errw, "cache import: warning: %s: the header announces %d entries, the file holds %d\n", file, h.Entries, n.Entries)
	}
}

// Doctor prints the checks of `kgeval doctor`, one a line (ok, warn or
// FAIL), and reports whether a required one failed.
func Doctor(w io.Writer, checks []pipeline.Check) (failed bool) {
	for _, ch := range checks {
		status := "ok  "
		if !ch.OK && ch.Required {
			status, failed = "FAIL", true
		} else if !ch.OK {
			status = "warn"
		}
		fmt.Fprintf(w, "%s  %-10s %s\n", status, ch.Name, ch.Detail)
	}
	return failed
}
