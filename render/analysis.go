package render

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/pipeline"
)

// CorrelationReport is correlate's JSON output.
type CorrelationReport struct {
	Run     string `json:"run"`
	Variant string `json:"variant"`
	Samples int    `json:"samples"`
	// Empty lists the selected variables without any value (left out).
	Empty []string `json:"empty,omitempty"`
	analysis.Matrix
}

func Correlations(w io.Writer, rep CorrelationReport) {
	fmt.Fprintf(w, "run %s (variant %s): %d samples, %d variables; each pair over its pairwise-complete samples, p two-sided\n",
		rep.Run, rep.Variant, rep.Samples, len(rep.Variables))
	if len(rep.Empty) > 0 {
		fmt.Fprintf(w, "left out, no value in any sample: %s\n", strings.Join(rep.Empty, ", "))
	}
	isHuman := func(s string) bool { return strings.HasPrefix(s, analysis.HumanPrefix) }
	var withHuman, metricsOnly []analysis.Corr
	for _, c := range rep.Pairs {
		if isHuman(c.X) || isHuman(c.Y) {
			withHuman = append(withHuman, c)
		} else {
			metricsOnly = append(metricsOnly, c)
		}
	}
	table := func(title string, cs []analysis.Corr) {
		if len(cs) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s\n", title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "x\ty\tn\tpearson r\tp\tspearman rho\tp\tnote")
		for _, c := range cs {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", c.X, c.Y, c.N, optf(c.Pearson, "%.3f"), optf(c.PearsonP, "%.3g"),
				optf(c.Spearman, "%.3f"), optf(c.SpearmanP, "%.3g"), c.Reason)
		}
		tw.Flush()
	}
	table("against human labels:", withHuman)
	table("between metrics:", metricsOnly)
}

func CorrelationsCSV(w io.Writer, mat analysis.Matrix) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"x", "y", "n", "pearson_r", "pearson_p", "spearman_rho", "spearman_p", "reason"})
	for _, c := range mat.Pairs {
		_ = cw.Write([]string{c.X, c.Y, strconv.Itoa(c.N), num(c.Pearson), num(c.PearsonP), num(c.Spearman), num(c.SpearmanP), c.Reason})
	}
	cw.Flush()
	return cw.Error()
}

// ComparisonReport is compare's JSON output.
type ComparisonReport struct {
	Run     string   `json:"run"`
	Variant string   `json:"variant"`
	Samples int      `json:"samples"`
	Empty   []string `json:"empty,omitempty"`
	analysis.Comparison
}

func Comparison(w io.Writer, rep ComparisonReport) {
	var sys []string
	for _, s := range rep.Systems {
		sys = append(sys, fmt.Sprintf("%s (%d)", s.System, s.Samples))
	}
	fmt.Fprintf(w, "run %s (variant %s): %d samples from %d systems: %s\n", rep.Run, rep.Variant, rep.Samples, len(rep.Systems), strings.Join(sys, ", "))
	if len(rep.Empty) > 0 {
		fmt.Fprintf(w, "left out, no value in any sample: %s\n", strings.Join(rep.Empty, ", "))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\tsystem\tn\tnull\tmean\tbest\t(sample)\tworst\t(sample)")
	if len(rep.Systems) > 0 {
		for k := range rep.Systems[0].Metrics {
			for _, s := range rep.Systems {
				ms := s.Metrics[k]
				best, bestID, worst, worstID := "-", "", "-", ""
				if ms.Best != nil {
					best, bestID = fmt.Sprintf("%.3f", ms.Best.Value), ms.Best.Sample
					worst, worstID = fmt.Sprintf("%.3f", ms.Worst.Value), ms.Worst.Sample
				}
				fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", ms.Metric, s.System, ms.N, ms.Null, optf(ms.Mean, "%.3f"), best, bestID, worst, worstID)
			}
		}
	}
	tw.Flush()
	dist := func(title string, get func(analysis.SystemSummary) map[string]int) {
		has := false
		for _, s := range rep.Systems {
			has = has || get(s) != nil
		}
		if !has {
			return
		}
		fmt.Fprintf(w, "\n%s\n", title)
		for _, s := range rep.Systems {
			d := get(s)
			var parts []string
			for _, k := range sortedKeys(d) {
				parts = append(parts, fmt.Sprintf("%s %d", k, d[k]))
			}
			if len(parts) == 0 {
				parts = []string{"-"}
			}
			fmt.Fprintf(w, "  %s: %s\n", s.System, strings.Join(parts, ", "))
		}
	}
	dist("factual_accuracy grades:", func(s analysis.SystemSummary) map[string]int { return s.Grades })
	dist("answer_class classes:", func(s analysis.SystemSummary) map[string]int { return s.Classes })
	if len(rep.Differences) == 0 {
		fmt.Fprintln(w, "\none system: no pairwise comparison")
		return
	}
	fmt.Fprintln(w, "\ndifferences (A vs B; paired by question when both answered the same questions, else Welch; win = A scores higher, ties ½):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\tA\tB\ttest\tn\tmean A\tmean B\tp (Wilcoxon)\tp (t)\twin rate A\tw/t/l\tnote")
	for _, d := range rep.Differences {
		test, pw, pt := "Welch", "", optTest(d.Welch)
		if d.Paired {
			test, pw, pt = "paired", optTest(d.Wilcoxon), optTest(d.PairedT)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%d/%d/%d\t%s\n", d.Metric, d.A, d.B, test, d.N, optf(d.MeanA, "%.3f"), optf(d.MeanB, "%.3f"),
			pw, pt, optf(d.WinRate, "%.3f"), d.Wins, d.Ties, d.Losses, reasons(d.Reasons))
	}
	tw.Flush()
}

// RunComparisonReport is `compare --baseline`'s JSON output.
type RunComparisonReport struct {
	Variant string `json:"variant"`
	analysis.RunComparison
}

func RunComparison(w io.Writer, rep RunComparisonReport) {
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
		fmt.Fprintf(w, "\n%s: the %s that regressed most (%s), worst first\n", m.Metric, analysis.Plural(len(m.TopRegressions), "sample", "samples"), m.Direction)
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

func Sensitivity(w io.Writer, rep pipeline.SensitivityReport) {
	fmt.Fprintf(w, "sensitivity of %d samples: runs %s / %s / %s; mean ± std (n); AUROC and Cohen's d of reference_as_answer against wrong_answer\n",
		rep.Samples, rep.Runs[analysis.VariantOriginal], rep.Runs[analysis.VariantReferenceAsAnswer], rep.Runs[analysis.VariantWrongAnswer])
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\toriginal\treference_as_answer\twrong_answer\tAUROC\tCohen's d\tnote")
	for _, s := range rep.Metrics {
		var cells []string
		for _, vs := range s.Variants {
			if vs.Mean == nil {
				cells = append(cells, "- (0)")
				continue
			}
			cells = append(cells, fmt.Sprintf("%.3f ± %.3f (%d)", *vs.Mean, *vs.Std, vs.N))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.Metric, strings.Join(cells, "\t"), optf(s.AUROC, "%.3f"), optf(s.CohensD, "%.3f"), s.Reason)
	}
	tw.Flush()
}

func SweepReport(w io.Writer, rep analysis.SweepReport) {
	fmt.Fprintf(w, "sweep of run %s: %d variants", rep.Run, len(rep.Points))
	if rep.A != "" {
		fmt.Fprintf(w, "; separation of %s (A) from %s (B)", rep.A, rep.B)
	}
	fmt.Fprintln(w)
	if rep.Note != "" {
		fmt.Fprintf(w, "note: %s\n", rep.Note)
	}
	for k, name := range rep.Metrics {
		fmt.Fprintf(w, "\n%s\n", name)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "variant\ttau\tdelta\tn\tmean\t")
		if rep.A != "" {
			fmt.Fprint(tw, "mean A\tmean B\tAUROC\tCohen's d\t")
		}
		fmt.Fprintln(tw)
		for _, pt := range rep.Points {
			sm := pt.Metrics[k]
			fmt.Fprintf(tw, "%s\t%g\t%g\t%d\t%s\t", pt.Variant, pt.Tau, pt.Delta, sm.N, optf(sm.Mean, "%.3f"))
			if rep.A != "" {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t", optf(sm.MeanA, "%.3f"), optf(sm.MeanB, "%.3f"), optf(sm.AUROC, "%.3f"), optf(sm.CohensD, "%.3f"))
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
}

func Sweep(w io.Writer, points []pipeline.SweepPoint, pairs []kgeval.Pair) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "tau\tdelta\t")
	for _, p := range pairs {
		fmt.Fprintf(tw, "%s multihop\t%s overlap\t%s coverage\t", p.Name, p.Name, p.Name)
	}
	fmt.Fprintln(tw)
	for _, pt := range points {
		fmt.Fprintf(tw, "%g\t%g\t", pt.Tau, pt.Delta)
		for _, p := range pairs {
			n := pt.N[p.Name]
			for _, metric := range []string{metricreg.MetricMultihop, metricreg.MetricCommunityOverlap, metricreg.MetricCommunityCoverage} {
				fmt.Fprintf(tw, "%s\t", fmtNum(pt.Mean[p.Name][metric], n))
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}
