package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/spf13/cobra"
)

// compare --baseline: one run against another, sample by sample
// (analysis.CompareRuns).

// storedRun is a run's record with its analysis rows.
type storedRun struct {
	Record kgeval.Run
	Rows   []analysis.Row
}

// loadRuns reads the records and rows (runRows, without explanations) of
// the named runs, in order, over one connection. Errors: those of runRows.
func (m *Main) loadRuns(cmd *cobra.Command, variant string, names ...string) ([]storedRun, error) {
	db, err := m.analysisStore(cmd)
	if err != nil {
		return nil, err
	}
	defer db.Close(context.WithoutCancel(cmd.Context()))
	out := make([]storedRun, len(names))
	for i, name := range names {
		if out[i].Record, err = db.GetRun(cmd.Context(), name); err != nil {
			return nil, err
		}
		if out[i].Rows, err = runRows(cmd.Context(), db, name, variant, false); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkBaseline validates --run and --baseline before the store is opened.
func checkBaseline(run, baseline string) error {
	switch {
	case run == "":
		return kgeval.Errorf(kgeval.EINVALID, "--run is required (see `kgeval runs list`)")
	case baseline == run:
		return kgeval.Errorf(kgeval.EINVALID, "--baseline %s is --run itself: compare two different runs", baseline)
	}
	return nil
}

// runCompareReport is `compare --baseline`'s JSON output.
type runCompareReport struct {
	Variant string `json:"variant"`
	analysis.RunComparison
}

// compareRuns is `compare --run RUN --baseline BASELINE`.
func (m *Main) compareRuns(cmd *cobra.Command, run, baseline, variant string, patterns []string, jsonOut string) error {
	if err := checkBaseline(run, baseline); err != nil {
		return err
	}
	runs, err := m.loadRuns(cmd, variant, baseline, run)
	if err != nil {
		return err
	}
	base, cur := runs[0], runs[1]
	names, err := analysis.MetricVectors(base.Rows).Merge(analysis.MetricVectors(cur.Rows)).Select(patterns)
	if err != nil {
		return err
	}
	c, err := analysis.CompareRuns(base.Rows, cur.Rows, analysis.RunCompareOptions{Baseline: base.Record, Run: cur.Record, Metrics: names})
	if err != nil {
		return err
	}
	rep := runCompareReport{Variant: variant, RunComparison: c}
	printRunComparison(m.Stdout, rep)
	return m.writeFile(jsonOut, "--json", func(w io.Writer) error { return writeJSON(w, rep) })
}

func printRunComparison(w io.Writer, rep runCompareReport) {
	fmt.Fprintf(w, "run %s against baseline %s (variant %s): %d samples paired by %s; unpaired: %d of the baseline, %d of the run\n",
		rep.Run, rep.Baseline, rep.Variant, rep.Pairs, rep.PairedBy, rep.UnpairedBaseline, rep.UnpairedRun)
	printWarnings(w, rep.Warnings)
	fmt.Fprintf(w, "\ndiff = run − baseline over the pairs with both values; CI: %s; p two-sided; +/=/− = improved / unchanged / regressed pairs in the metric's direction\n", rep.Interval)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\tbetter\tn\tbaseline\trun\tdiff\t95% CI\tp (Wilcoxon)\tp (t)\t+/=/−\tnote")
	for _, m := range rep.Metrics {
		ci := "-"
		if m.CILo != nil {
			ci = fmt.Sprintf("[%.3f, %.3f]", *m.CILo, *m.CIHi)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%d/%d/%d\t%s\n", m.Metric, strings.Fields(m.Direction)[0], m.N,
			optf(m.MeanBaseline, "%.3f"), optf(m.MeanRun, "%.3f"), optf(m.Diff, "%+.3f"), ci, optTest(m.Wilcoxon), optTest(m.PairedT),
			m.Improved, m.Unchanged, m.Regressed, reasons(m.Reasons))
	}
	tw.Flush()
	for _, m := range rep.Metrics {
		if len(m.TopRegressions) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s: the %s that regressed most (%s), worst first\n", m.Metric, plural(len(m.TopRegressions), "sample", "samples"), m.Direction)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  id\tbaseline\trun\tdiff")
		for _, s := range m.TopRegressions {
			id := s.ID
			if s.BaselineID != "" {
				id += " (baseline " + s.BaselineID + ")"
			}
			fmt.Fprintf(tw, "  %s\t%.3f\t%.3f\t%+.3f\n", id, s.Baseline, s.Run, s.Diff)
		}
		tw.Flush()
	}
}

func printWarnings(w io.Writer, ws []analysis.RunWarning) {
	for _, x := range ws {
		fmt.Fprintf(w, "warning: %s\n", x.Message)
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
