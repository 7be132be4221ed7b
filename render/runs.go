package render

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// RunList prints stored runs, one line each.
func RunList(w io.Writer, runs []kgeval.Run) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "name\tstatus\tsamples\tengine\tstarted\tdataset")
	for _, r := range runs {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", r.Name, r.Status, r.Samples, r.Engine, r.Started.Format(time.DateTime), r.Dataset)
	}
	return tw.Flush()
}

// RunShow prints a run's record and its mean scores per pair (the KG
// metrics without a value in any pair left out).
func RunShow(w io.Writer, r kgeval.Run, sum []readmodel.PairSummary) error {
	fmt.Fprintf(w, "run %s: %s\ndataset %s (sha256 %s), %d samples, %d rejected\nllm %s, encoder %s, engine %s, extraction %s\nstarted %s, finished %s\nstages (s) %s\ncalls %s\ntexts %s\nresumed %d times\n",
		r.Name, r.Status, r.Dataset, r.Fingerprint, r.Samples, r.Rejected, r.LLM, r.Encoder, r.Engine, analysis.ExtractionMethod(r),
		r.Started.Format(time.DateTime), r.Finished.Format(time.DateTime), jsonOrEmpty(r.Stages), jsonOrEmpty(r.Calls), jsonOrEmpty(r.Texts), r.Resumes)
	if r.Error != "" {
		fmt.Fprintf(w, "error %s\n", r.Error)
	}
	if r.Ledger != nil {
		Ledger(w, r.Ledger, r.Samples)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	var cols []string
	for _, name := range metricreg.KGMetricNames {
		for _, p := range sum {
			if p.Means[name] != nil {
				cols = append(cols, name)
				break
			}
		}
	}
	fmt.Fprintln(tw, "\npair\tgraphs\tscored\t"+strings.Join(cols, "\t"))
	for _, p := range sum {
		fmt.Fprintf(tw, "%s\t%d\t%d", p.Pair, p.Graphs, p.Scored)
		for _, c := range cols {
			fmt.Fprintf(tw, "\t%s", optf(p.Means[c], "%.3f"))
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// jsonOrEmpty renders a recorded part of a run as JSON, "" when it was
// never recorded.
func jsonOrEmpty[T any](v T) string {
	if reflect.ValueOf(v).IsNil() {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// Dataset prints what a load produced: counts, then one line per rejected
// record.
func Dataset(w io.Writer, res *dataset.Result) {
	systems := map[string]int{}
	withRef, withTriplets := 0, 0
	for _, s := range res.Samples {
		systems[s.System]++
		if s.Reference != "" {
			withRef++
		}
		if s.Triplets != nil {
			withTriplets++
		}
	}
	fmt.Fprintf(w, "%s: %s, %d records, %d loaded, %d rejected; %d with reference, %d with triplets, %d system(s)\n",
		res.Path, res.Format, res.Records(), len(res.Samples), len(res.Rejected), withRef, withTriplets, len(systems))
	for _, r := range res.Rejected {
		id := ""
		if r.ID != "" {
			id = fmt.Sprintf(" (id %s)", r.ID)
		}
		fmt.Fprintf(w, "  record %d%s rejected: %s\n", r.Record, id, r.Reason)
	}
}

// CacheStats prints the cache entries per kind.
func CacheStats(w io.Writer, st []kgeval.CacheKindStats, runs []string) {
	scope := "all cache entries"
	if len(runs) > 0 {
		scope = "cache entries used by run " + strings.Join(runs, ", ")
	}
	fmt.Fprintf(w, "%s, per kind (used: some run recorded on the entry):\n", scope)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "kind\tentries\tused\tMB\t")
	var total kgeval.CacheKindStats
	for _, s := range st {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t\n", s.Kind, s.Entries, s.Used, float64(s.Chars)/1e6)
		total.Entries, total.Used, total.Chars = total.Entries+s.Entries, total.Used+s.Used, total.Chars+s.Chars
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%.1f\t\n", total.Entries, total.Used, float64(total.Chars)/1e6)
	tw.Flush()
}

// KindCounts renders counts per kind, sorted by kind: "embed 3, extract 2".
func KindCounts(c map[string]int) string {
	var parts []string
	for _, k := range sortedKeys(c) {
		name := k
		if name == "" {
			name = kgeval.NoKind
		}
		parts = append(parts, fmt.Sprintf("%s %d", name, c[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
