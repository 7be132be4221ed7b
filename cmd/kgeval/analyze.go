package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/spf13/cobra"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// The analysis commands (SPEC §8): correlate, compare, sensitivity and
// sweep-report. They read stored runs, compute with package analysis and
// render tables, JSON, CSV and PNG plots (gonum.org/v1/plot).

// analysisConfig loads the configuration of a read-only analysis command:
// only the global flags configure, so its --metrics (which variables to
// analyse) is not taken for scoring.metrics.
func (m *Main) analysisConfig(cmd *cobra.Command) (*Config, error) {
	return loadConfig(m.configFile, cmd.InheritedFlags())
}

// runRows reads the samples of one scoring variant of run as analysis rows;
// with explain it also reads the explanations Compare uses. Errors:
// ENOTFOUND for an unknown run or variant, EINVALID for a run without
// samples.
func runRows(ctx context.Context, db *graphstore.DB, run, variant string, explain bool) ([]analysis.Row, error) {
	if _, err := db.GetRun(ctx, run); err != nil {
		return nil, err
	}
	scores, err := db.RunScores(ctx, run, variant)
	if err != nil {
		return nil, err
	}
	if len(scores) == 0 {
		return nil, kgeval.Errorf(kgeval.EINVALID, "run %q has no sample", run)
	}
	if variant != kgeval.DefaultVariant {
		stored := false
		for _, s := range scores {
			stored = stored || len(s.Scores) > 0
		}
		if !stored {
			return nil, kgeval.Errorf(kgeval.ENOTFOUND, "run %q has no variant %q (see `kgeval sweep-report --run %s`)", run, variant, run)
		}
	}
	var expl map[string]map[string][]byte
	if explain {
		if expl, err = db.MetricExplanations(ctx, run, []string{kgeval.MetricFactualAccuracy, kgeval.MetricAnswerClass}); err != nil {
			return nil, err
		}
	}
	rows := make([]analysis.Row, len(scores))
	for i, s := range scores {
		rows[i] = analysis.Row{ID: s.ID, System: s.System, Question: s.Question, Human: s.Human,
			Scores: s.Scores, Metrics: s.Metrics, Explanations: expl[s.ID]}
	}
	return rows, nil
}

// analysisStore opens the store for an analysis command.
// loadRunRows checks --run, reads the run's rows (runRows) and closes the
// store again: what correlate and compare start with.
func (m *Main) loadRunRows(cmd *cobra.Command, run, variant string, explain bool) ([]analysis.Row, error) {
	if run == "" {
		return nil, kgeval.Errorf(kgeval.EINVALID, "--run is required (see `kgeval runs list`)")
	}
	db, err := m.analysisStore(cmd)
	if err != nil {
		return nil, err
	}
	defer db.Close(context.WithoutCancel(cmd.Context()))
	return runRows(cmd.Context(), db, run, variant, explain)
}

func (m *Main) analysisStore(cmd *cobra.Command) (*graphstore.DB, error) {
	cfg, err := m.analysisConfig(cmd)
	if err != nil {
		return nil, err
	}
	return openStore(cmd.Context(), cfg)
}

// ---- correlate ----

func (m *Main) correlateCommand() *cobra.Command {
	var run, variant, jsonOut, csvOut, plotOut string
	var patterns []string
	var human bool
	c := &cobra.Command{
		Use:   "correlate --run NAME [--metrics ...] [--human] [--json F] [--csv F] [--plot F.png]",
		Short: "Correlate a run's metrics with each other and with human labels (Pearson, Spearman, p, n)",
		Long: `correlate computes Pearson's r and Spearman's rho with two-sided p-values
for every pair of the run's metrics (KG scores as <pair>.<metric>, other
metrics by name), each over the samples where both values are present. With
--human it adds every human label of the dataset: numbers as they are,
ExpertQA's ordinal labels mapped by the table in the README ("Analysis").
Fewer than 3 pairwise-complete samples, or a constant variable, give null
with the reason.`,
		Example: `  kgeval correlate --run expertqa --human --json corr.json --csv corr.csv --plot corr.png
  kgeval correlate --run wikieval --metrics faithfulness,ts_groundedness,semantic_similarity`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rows, err := m.loadRunRows(cmd, run, variant, false)
			if err != nil {
				return err
			}
			rep, err := correlateRows(rows, patterns, human)
			if err != nil {
				return err
			}
			rep.Run, rep.Variant = run, variant
			printCorrelations(m.Stdout, rep)
			if err := m.writeFile(jsonOut, "--json", func(w io.Writer) error { return writeJSON(w, rep) }); err != nil {
				return err
			}
			if err := m.writeFile(csvOut, "--csv", func(w io.Writer) error { return writeCorrelationsCSV(w, rep.Matrix) }); err != nil {
				return err
			}
			return m.writeFile(plotOut, "--plot", func(w io.Writer) error {
				return heatmapPNG(w, rep.Matrix, fmt.Sprintf("Spearman rho, run %s (%d samples, pairwise-complete)", run, rep.Samples))
			})
		},
	}
	c.Flags().StringVar(&run, "run", "", "run name")
	c.Flags().StringVar(&variant, "variant", kgeval.DefaultVariant, "scoring variant (sweeps store several)")
	c.Flags().StringSliceVar(&patterns, "metrics", nil, "variables: names (faithfulness.multihop), pairs (faithfulness), KG metrics (multihop), families (kg, ts, llm, ragas) or ts base names; default all")
	c.Flags().BoolVar(&human, "human", false, "add the dataset's human labels")
	c.Flags().StringVar(&jsonOut, "json", "", "write the matrix as JSON to this file")
	c.Flags().StringVar(&csvOut, "csv", "", "write the matrix as CSV (one row per pair) to this file")
	c.Flags().StringVar(&plotOut, "plot", "", "write a Spearman heatmap PNG to this file")
	return c
}

// correlateReport is correlate's JSON output.
type correlateReport struct {
	Run     string `json:"run"`
	Variant string `json:"variant"`
	Samples int    `json:"samples"`
	// Empty lists the selected variables without any value (left out).
	Empty []string `json:"empty,omitempty"`
	analysis.Matrix
}

func correlateRows(rows []analysis.Row, patterns []string, human bool) (correlateReport, error) {
	v := analysis.MetricVectors(rows)
	names, err := v.Select(patterns)
	if err != nil {
		return correlateReport{}, err
	}
	if human {
		hv, err := analysis.HumanVectors(rows)
		if err != nil {
			return correlateReport{}, kgeval.Wrap(kgeval.EINVALID, err, "--human")
		}
		if len(hv) == 0 {
			return correlateReport{}, kgeval.Errorf(kgeval.EINVALID, "--human: no sample has a numeric or mapped human label (the README's Analysis section lists the mapping)")
		}
		v.Merge(hv)
		names = append(names, hv.Names()...)
	}
	present, empty := v.Present(names)
	if len(present) < 2 {
		return correlateReport{}, kgeval.Errorf(kgeval.EINVALID, "need at least 2 variables with values to correlate, have %d (%s)", len(present), strings.Join(present, ", "))
	}
	return correlateReport{Samples: len(rows), Empty: empty, Matrix: analysis.Correlate(v, present)}, nil
}

func printCorrelations(w io.Writer, rep correlateReport) {
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

func writeCorrelationsCSV(w io.Writer, mat analysis.Matrix) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"x", "y", "n", "pearson_r", "pearson_p", "spearman_rho", "spearman_p", "reason"})
	for _, c := range mat.Pairs {
		_ = cw.Write([]string{c.X, c.Y, strconv.Itoa(c.N), num(c.Pearson), num(c.PearsonP), num(c.Spearman), num(c.SpearmanP), c.Reason})
	}
	cw.Flush()
	return cw.Error()
}

// ---- compare ----

func (m *Main) compareCommand() *cobra.Command {
	var run, baseline, variant, jsonOut, plotOut string
	var patterns []string
	c := &cobra.Command{
		Use:   "compare --run NAME [--baseline RUN] [--metrics ...] [--json F] [--plot F.png]",
		Short: "Compare the systems of a run, or a run against a baseline run",
		Long: `compare summarises each system of a run (the dataset's system field) per
metric: mean, best and worst value with the sample; the factual_accuracy grade
and answer_class distributions when those metrics were computed. For every
pair of systems and metric it tests the difference — paired by question
(Wilcoxon signed-rank and paired t) when both systems answered the same
questions, else Welch's t — and gives the win rate: the fraction of shared
questions where the first system scores higher, ties counting one half.

With --baseline it compares the run with another run instead ("did my
change help?"): samples paired by id (by question text when the runs share no
id), per metric the two means, the mean difference run − baseline with its
95% t interval, paired Wilcoxon signed-rank and t tests, improved / unchanged
/ regressed counts in the metric's direction and the 10 samples that
regressed most; it warns when the datasets, scoring settings, models or
encoders differ or a run is not done.`,
		Example: `  kgeval compare --run wikieval --metrics faithfulness,answer_relevancy --plot systems.png
  kgeval compare --run wikieval-v2 --baseline wikieval --metrics faithfulness --json v2.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if baseline != "" {
				if plotOut != "" {
					return kgeval.Errorf(kgeval.EINVALID, "--plot draws the systems of one run: not with --baseline")
				}
				return m.compareRuns(cmd, run, baseline, variant, patterns, jsonOut)
			}
			rows, err := m.loadRunRows(cmd, run, variant, true)
			if err != nil {
				return err
			}
			v := analysis.MetricVectors(rows)
			names, err := v.Select(patterns)
			if err != nil {
				return err
			}
			present, empty := v.Present(names)
			rep := compareReport{Run: run, Variant: variant, Samples: len(rows), Empty: empty, Comparison: analysis.Compare(rows, v, present)}
			printComparison(m.Stdout, rep)
			if err := m.writeFile(jsonOut, "--json", func(w io.Writer) error { return writeJSON(w, rep) }); err != nil {
				return err
			}
			return m.writeFile(plotOut, "--plot", func(w io.Writer) error { return comparePNG(w, rep) })
		},
	}
	c.Flags().StringVar(&run, "run", "", "run name")
	c.Flags().StringVar(&variant, "variant", kgeval.DefaultVariant, "scoring variant (sweeps store several)")
	c.Flags().StringVar(&baseline, "baseline", "", "compare --run with this run, sample by sample, instead of its systems")
	c.Flags().StringSliceVar(&patterns, "metrics", nil, "metrics (as for correlate); default all")
	c.Flags().StringVar(&jsonOut, "json", "", "write the comparison as JSON to this file")
	c.Flags().StringVar(&plotOut, "plot", "", "write a PNG of the mean per system and metric to this file")
	return c
}

// compareReport is compare's JSON output.
type compareReport struct {
	Run     string   `json:"run"`
	Variant string   `json:"variant"`
	Samples int      `json:"samples"`
	Empty   []string `json:"empty,omitempty"`
	analysis.Comparison
}

func printComparison(w io.Writer, rep compareReport) {
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

func optTest(t *analysis.Test) string {
	if t == nil {
		return "-"
	}
	return fmt.Sprintf("%.3g", t.P)
}

func reasons(m map[string]string) string {
	var out []string
	for _, k := range sortedKeys(m) {
		out = append(out, k+": "+m[k])
	}
	return strings.Join(out, "; ")
}

// ---- sensitivity ----

func (m *Main) sensitivityCommand() *cobra.Command {
	var o sensitivityOpts
	c := &cobra.Command{
		Use:   "sensitivity --dataset FILE [--run PREFIX] [--system NAME] [--limit N] [--seed S] [--cache-only]",
		Short: "Score reference answers against wrong answers: the paper's sensitivity experiment",
		Long: `sensitivity keeps the dataset's samples that have a reference (the others
are dropped and counted; with --system, only that system's samples) and
derives two answer variants: reference_as_answer (answer := reference) and
wrong_answer (answer := the answer of another sample to another question,
by a derangement seeded with --seed). Pre-extracted
answer triplets go with the answer they belong to. It writes the three
datasets (original, reference_as_answer, wrong_answer) to --dir, evaluates
each as a run (PREFIX, PREFIX-reference_as_answer, PREFIX-wrong_answer; the
model cache makes texts shared with an earlier run free; a finished run of the
same file is kept, an interrupted one resumed), then reports per metric mean,
std and histogram for each run, and AUROC and Cohen's d of
reference_as_answer against wrong_answer.`,
		Example: `  kgeval sensitivity --dataset testdata/wikieval_ragflow.jsonl --run ragflow-sens --seed 1`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := m.config(cmd)
			if err != nil {
				return err
			}
			if o.dataset == "" {
				return kgeval.Errorf(kgeval.EINVALID, "--dataset is required")
			}
			if o.prefix == "" {
				o.prefix = strings.TrimSuffix(filepath.Base(o.dataset), filepath.Ext(o.dataset)) + "-sensitivity"
			}
			if o.dir == "" {
				o.dir = o.prefix
			}
			if o.bins < 1 {
				return kgeval.Errorf(kgeval.EINVALID, "--bins %d: want at least 1", o.bins)
			}
			return m.sensitivity(cmd.Context(), cfg, o)
		},
	}
	f := c.Flags()
	f.StringVar(&o.dataset, "dataset", "", "dataset file (.jsonl, .json, .csv, .parquet)")
	f.StringVar(&o.prefix, "run", "", "run name prefix (default: <dataset name>-sensitivity)")
	f.IntVar(&o.limit, "limit", 0, "use only the first N samples that have a reference (0: all)")
	f.Uint64Var(&o.seed, "seed", 1, "seed of the wrong_answer derangement")
	f.StringVar(&o.dir, "dir", "", "directory for the derived datasets and the report (default: the run prefix)")
	f.StringVar(&o.jsonOut, "json", "", "report file (default: DIR/sensitivity.json)")
	f.StringVar(&o.plotOut, "plot", "", "histogram PNG (default: DIR/sensitivity.png)")
	f.IntVar(&o.bins, "bins", 10, "histogram bins")
	f.BoolVar(&o.replace, "replace", false, "delete and redo runs of the same names")
	f.StringVar(&o.system, "system", "", "use only the records of this system (the dataset's system field)")
	f.String("engine", "", "gds or native (scoring.engine)")
	f.StringSlice("metrics", nil, "metrics to compute (scoring.metrics)")
	f.Int("concurrency", 0, "parallel model calls (llm.concurrency)")
	f.Bool("cache-only", false, "make no model call: a request the cache cannot answer fails (llm.cache_only)")
	return c
}

type sensitivityOpts struct {
	dataset, prefix, dir, jsonOut, plotOut, system string
	limit, bins                                    int
	seed                                           uint64
	replace                                        bool
}

// sensitivityReport is sensitivity's JSON output.
type sensitivityReport struct {
	Dataset string `json:"dataset"`
	// System is the --system the samples were restricted to ("": all).
	System   string `json:"system,omitempty"`
	Seed     uint64 `json:"seed"`
	Samples  int    `json:"samples"`
	Rejected int    `json:"rejected"`
	// DroppedNoReference counts the loaded samples without a reference.
	DroppedNoReference int `json:"dropped_no_reference"`
	// Runs and Files map each variant to its run and derived dataset.
	Runs    map[string]string     `json:"runs"`
	Files   map[string]string     `json:"files"`
	Metrics []analysis.Separation `json:"metrics"`
}

var sensitivityVariants = []string{analysis.VariantOriginal, analysis.VariantReferenceAsAnswer, analysis.VariantWrongAnswer}

func (m *Main) sensitivity(ctx context.Context, cfg *Config, o sensitivityOpts) error {
	res, err := loadDataset(cfg, o.dataset)
	if err != nil {
		return err
	}
	samples := res.Samples
	if o.system != "" {
		samples = nil
		systems := map[string]bool{}
		for _, s := range res.Samples {
			systems[s.System] = true
			if s.System == o.system {
				samples = append(samples, s)
			}
		}
		if len(samples) == 0 {
			return kgeval.Errorf(kgeval.EINVALID, "--system %s: dataset %s has no record of that system (it has: %s)", o.system, o.dataset, strings.Join(sortedKeys(systems), ", "))
		}
		fmt.Fprintf(m.Stdout, "sensitivity: --system %s: %d of %d loaded samples\n", o.system, len(samples), len(res.Samples))
	}
	kept, dropped := analysis.WithReference(samples)
	if o.limit > 0 && o.limit < len(kept) {
		kept = kept[:o.limit]
	}
	fmt.Fprintf(m.Stdout, "sensitivity: %s: %d records, %d loaded, %d rejected; %d without reference dropped; %d samples used (seed %d)\n",
		o.dataset, res.Records(), len(res.Samples), len(res.Rejected), dropped, len(kept), o.seed)
	if len(kept) < 2 {
		return kgeval.Errorf(kgeval.EINVALID, "dataset %s: %d sample(s) with a reference; the experiment needs at least 2", o.dataset, len(kept))
	}
	wrong, _, err := analysis.WrongAnswer(kept, o.seed)
	if err != nil {
		return err
	}
	sets := map[string][]kgeval.Sample{
		analysis.VariantOriginal:          kept,
		analysis.VariantReferenceAsAnswer: analysis.ReferenceAsAnswer(kept),
		analysis.VariantWrongAnswer:       wrong,
	}
	rep := sensitivityReport{Dataset: o.dataset, System: o.system, Seed: o.seed, Samples: len(kept), Rejected: len(res.Rejected), DroppedNoReference: dropped,
		Files: map[string]string{}}
	content := map[string][]byte{}
	rep.Runs = sensitivityRuns(o.prefix)
	for _, variant := range sensitivityVariants {
		rep.Files[variant] = filepath.Join(o.dir, variant+".jsonl")
		if content[variant], err = datasetJSONL(sets[variant]); err != nil {
			return err
		}
	}

	db, err := openMigratedStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close(context.WithoutCancel(ctx))
	// Each run: new, kept (done, same file content), resumed (interrupted,
	// same content) or replaced (--replace). A run of other content is a
	// conflict, found before any file is written.
	opts := map[string]*evalOpts{}
	for _, variant := range sensitivityVariants {
		run := rep.Runs[variant]
		opts[variant] = &evalOpts{replace: o.replace}
		if o.replace {
			continue
		}
		old, err := db.GetRun(ctx, run)
		switch {
		case err != nil && kgeval.ErrorCode(err) == kgeval.ENOTFOUND:
		case err != nil:
			return err
		case old.Fingerprint != sha256Hex(content[variant]):
			return kgeval.Errorf(kgeval.ECONFLICT, "run %q exists and was evaluated from other data (dataset %s; the source, --seed or --limit differ): add --replace or choose another --run", run, old.Dataset)
		case old.Status == kgeval.RunDone:
			opts[variant] = nil
		default:
			opts[variant].resume = true
		}
	}
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return kgeval.Wrap(kgeval.EINVALID, err, "--dir %s", o.dir)
	}
	for _, variant := range sensitivityVariants {
		if err := os.WriteFile(rep.Files[variant], content[variant], 0o644); err != nil {
			return kgeval.Wrap(kgeval.EINVALID, err, "derived dataset %s", rep.Files[variant])
		}
	}
	for _, variant := range sensitivityVariants {
		run, file := rep.Runs[variant], rep.Files[variant]
		if opts[variant] == nil {
			fmt.Fprintf(m.Stdout, "\nsensitivity: %s: run %q of %s is done; kept\n", variant, run, file)
			continue
		}
		fmt.Fprintf(m.Stdout, "\nsensitivity: %s: evaluating %s as run %q\n", variant, file, run)
		if err := m.evaluate(ctx, cfg, file, run, *opts[variant]); err != nil {
			return fmt.Errorf("sensitivity %s: %w", variant, err)
		}
	}

	if rep.Metrics, err = sensitivitySeparations(ctx, db, rep.Runs, o.bins); err != nil {
		return err
	}
	fmt.Fprintln(m.Stdout)
	printSensitivity(m.Stdout, rep)
	jsonOut, plotOut := o.jsonOut, o.plotOut
	if jsonOut == "" {
		jsonOut = filepath.Join(o.dir, "sensitivity.json")
	}
	if plotOut == "" {
		plotOut = filepath.Join(o.dir, "sensitivity.png")
	}
	if err := m.writeFile(jsonOut, "--json", func(w io.Writer) error { return writeJSON(w, rep) }); err != nil {
		return err
	}
	if err := m.writeFile(plotOut, "--plot", func(w io.Writer) error { return sensitivityPNG(w, rep) }); err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "\nwrote %s and %s; derived datasets in %s\n", jsonOut, plotOut, o.dir)
	return nil
}

// sensitivityRuns names the runs of the experiment with run prefix prefix,
// by variant.
func sensitivityRuns(prefix string) map[string]string {
	runs := map[string]string{}
	for _, variant := range sensitivityVariants {
		runs[variant] = prefix
		if variant != analysis.VariantOriginal {
			runs[variant] = prefix + "-" + variant
		}
	}
	return runs
}

// sensitivitySeparations reads the experiment's three runs (runs by
// variant) and describes every metric any of them has, with the AUROC and
// Cohen's d of reference_as_answer against wrong_answer.
func sensitivitySeparations(ctx context.Context, db *graphstore.DB, runs map[string]string, bins int) ([]analysis.Separation, error) {
	var groups []analysis.Group
	all := analysis.Vectors{}
	for _, variant := range sensitivityVariants {
		rows, err := runRows(ctx, db, runs[variant], kgeval.DefaultVariant, false)
		if err != nil {
			return nil, err
		}
		v := analysis.MetricVectors(rows)
		groups = append(groups, analysis.Group{Name: variant, V: v})
		all.Merge(v)
	}
	var out []analysis.Separation
	for _, name := range all.Names() {
		out = append(out, analysis.Separate(name, groups, analysis.VariantReferenceAsAnswer, analysis.VariantWrongAnswer, bins))
	}
	return out, nil
}

func printSensitivity(w io.Writer, rep sensitivityReport) {
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

// datasetRecord is one line of a derived dataset file. Triplets lists only
// the texts whose triplets were provided, an empty list meaning "provided,
// none" (kgeval.SampleTriplets would drop it with omitempty).
type datasetRecord struct {
	ID        string         `json:"id"`
	Question  string         `json:"question"`
	Contexts  []string       `json:"contexts"`
	Answer    string         `json:"answer"`
	Reference string         `json:"reference,omitempty"`
	System    string         `json:"system,omitempty"`
	Human     map[string]any `json:"human,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
	Triplets  map[string]any `json:"triplets,omitempty"`
}

// datasetJSONL renders samples as a JSONL dataset kgeval reads back to the
// same samples (pre-extracted triplets included).
func datasetJSONL(samples []kgeval.Sample) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, s := range samples {
		r := datasetRecord{ID: s.ID, Question: s.Question, Contexts: s.Contexts, Answer: s.Answer, Reference: s.Reference,
			System: s.System, Human: s.Human, Metadata: s.Metadata}
		if r.Contexts == nil {
			r.Contexts = []string{}
		}
		if t := s.Triplets; t != nil {
			r.Triplets = map[string]any{}
			for name, list := range map[string][]kgeval.Triplet{"question": t.Question, "answer": t.Answer, "reference": t.Reference} {
				if list != nil {
					r.Triplets[name] = tripletArrays(list)
				}
			}
			if t.Contexts != nil {
				ps := make([][][3]string, len(t.Contexts))
				for i, p := range t.Contexts {
					ps[i] = tripletArrays(p)
				}
				r.Triplets["contexts"] = ps
			}
		}
		if err := enc.Encode(r); err != nil {
			return nil, kgeval.Wrap(kgeval.EINTERNAL, err, "derived dataset, sample %s", s.ID)
		}
	}
	return b.Bytes(), nil
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func tripletArrays(ts []kgeval.Triplet) [][3]string {
	out := make([][3]string, len(ts))
	for i, t := range ts {
		out[i] = [3]string{t.Subject, t.Relation, t.Object}
	}
	return out
}

// ---- sweep-report ----

func (m *Main) sweepReportCommand() *cobra.Command {
	var run, against, jsonOut, plotOut string
	var patterns, systems []string
	c := &cobra.Command{
		Use:   "sweep-report --run NAME [--systems A,B | --against RUN] [--json F] [--plot F.png]",
		Short: "How mean KG scores and the separation of two groups change over a run's tau/delta sweep",
		Long: `sweep-report reads every scoring variant a sweep stored for the run
("tau=…,delta=…", see ` + "`kgeval sweep`" + `) and reports, per variant and KG score,
the mean and the separation (AUROC, Cohen's d) between two groups: two
systems of the run (--systems A,B; by default the first two systems in
alphabetical order when the run has several), or this run against another run
swept over the same grid (--against, e.g. the reference_as_answer and
wrong_answer runs of a sensitivity experiment).`,
		Example: `  kgeval sweep-report --run wikieval --systems wikieval_grounded,wikieval_ungrounded --plot sweep.png
  kgeval sweep-report --run sens-reference_as_answer --against sens-wrong_answer`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if run == "" {
				return kgeval.Errorf(kgeval.EINVALID, "--run is required (see `kgeval runs list`)")
			}
			if against != "" && len(systems) > 0 {
				return kgeval.Errorf(kgeval.EINVALID, "--systems and --against exclude each other")
			}
			if len(systems) != 0 && len(systems) != 2 {
				return kgeval.Errorf(kgeval.EINVALID, "--systems %s: name exactly two systems", strings.Join(systems, ","))
			}
			if len(patterns) == 0 {
				patterns = []string{kgeval.FamilyKG}
			}
			db, err := m.analysisStore(cmd)
			if err != nil {
				return err
			}
			defer db.Close(context.WithoutCancel(cmd.Context()))
			rep, err := sweepReport(cmd.Context(), db, run, against, systems, patterns)
			if err != nil {
				return err
			}
			printSweepReport(m.Stdout, rep)
			if err := m.writeFile(jsonOut, "--json", func(w io.Writer) error { return writeJSON(w, rep) }); err != nil {
				return err
			}
			return m.writeFile(plotOut, "--plot", func(w io.Writer) error { return sweepPNG(w, rep) })
		},
	}
	c.Flags().StringVar(&run, "run", "", "run name")
	c.Flags().StringVar(&against, "against", "", "another run swept over the same grid: separate run from it")
	c.Flags().StringSliceVar(&systems, "systems", nil, "two systems of the run to separate (A,B: A is expected to score higher)")
	c.Flags().StringSliceVar(&patterns, "metrics", nil, "KG scores to report (as for correlate); default kg")
	c.Flags().StringVar(&jsonOut, "json", "", "write the report as JSON to this file")
	c.Flags().StringVar(&plotOut, "plot", "", "write sweep curves (mean and AUROC against tau, a line per delta) as PNG")
	return c
}

// sweepReportOut is sweep-report's JSON output.
type sweepReportOut struct {
	Run     string           `json:"run"`
	Against string           `json:"against,omitempty"`
	A       string           `json:"a,omitempty"`
	B       string           `json:"b,omitempty"`
	Note    string           `json:"note,omitempty"`
	Metrics []string         `json:"metrics"`
	Points  []analysis.Point `json:"points"`
}

func sweepReport(ctx context.Context, db *graphstore.DB, run, against string, systems, patterns []string) (sweepReportOut, error) {
	rep := sweepReportOut{Run: run, Against: against}
	if _, err := db.GetRun(ctx, run); err != nil {
		return rep, err
	}
	variants, err := db.Variants(ctx, run)
	if err != nil {
		return rep, err
	}
	other := map[string]bool{}
	if against != "" {
		if _, err := db.GetRun(ctx, against); err != nil {
			return rep, err
		}
		vs, err := db.Variants(ctx, against)
		if err != nil {
			return rep, err
		}
		for _, v := range vs {
			other[v.Name] = true
		}
	}
	// The default variant first, then the grid by tau and delta.
	sort.SliceStable(variants, func(i, j int) bool {
		a, b := variants[i], variants[j]
		if (a.Name == kgeval.DefaultVariant) != (b.Name == kgeval.DefaultVariant) {
			return a.Name == kgeval.DefaultVariant
		}
		if a.Tau != b.Tau {
			return a.Tau < b.Tau
		}
		return a.Delta < b.Delta
	})
	var skipped []string
	for _, vr := range variants {
		if against != "" && !other[vr.Name] {
			skipped = append(skipped, vr.Name)
			continue
		}
		rows, err := runRows(ctx, db, run, vr.Name, false)
		if err != nil {
			return rep, err
		}
		v := analysis.MetricVectors(rows)
		if rep.Metrics == nil {
			names, err := v.Select(patterns)
			if err != nil {
				return rep, err
			}
			rep.Metrics = names
		}
		var a, b *analysis.Group
		switch {
		case against != "":
			orows, err := runRows(ctx, db, against, vr.Name, false)
			if err != nil {
				return rep, err
			}
			rep.A, rep.B = run, against
			a, b = &analysis.Group{Name: run, V: v}, &analysis.Group{Name: against, V: analysis.MetricVectors(orows)}
		default:
			idx := map[string][]int{}
			for i, r := range rows {
				idx[r.System] = append(idx[r.System], i)
			}
			if rep.A == "" {
				if len(systems) == 2 {
					for _, s := range systems {
						if idx[s] == nil {
							return rep, kgeval.Errorf(kgeval.EINVALID, "--systems: run %q has no system %q (it has: %s)", run, s, strings.Join(sortedKeys(idx), ", "))
						}
					}
					rep.A, rep.B = systems[0], systems[1]
				} else if names := sortedKeys(idx); len(names) >= 2 {
					rep.A, rep.B = names[0], names[1]
					if len(names) > 2 {
						rep.Note = fmt.Sprintf("the run has %d systems (%s); separating the first two, choose others with --systems", len(names), strings.Join(names, ", "))
					}
				} else {
					rep.Note = "the run has one system: means only (separate two runs with --against)"
				}
			}
			if rep.A != "" {
				a, b = &analysis.Group{Name: rep.A, V: v.Subset(idx[rep.A])}, &analysis.Group{Name: rep.B, V: v.Subset(idx[rep.B])}
			}
		}
		rep.Points = append(rep.Points, analysis.SweepPoint(vr.Name, vr.Tau, vr.Delta, v, a, b, rep.Metrics))
	}
	if len(skipped) > 0 {
		rep.Note = strings.TrimSpace(rep.Note + fmt.Sprintf(" variants not stored for %s, left out: %s", against, strings.Join(skipped, ", ")))
	}
	if len(rep.Points) <= 1 {
		rep.Note = strings.TrimSpace(rep.Note + fmt.Sprintf(" run %q has no sweep variant: run `kgeval sweep --run %s --tau ... --delta ...` first", run, run))
	}
	return rep, nil
}

func printSweepReport(w io.Writer, rep sweepReportOut) {
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

// ---- output helpers ----

// writeFile writes to path when it is set.
func (m *Main) writeFile(path, flag string, fn func(io.Writer) error) error {
	if path == "" {
		return nil
	}
	f, err := os.Create(path)
	if err != nil {
		return kgeval.Wrap(kgeval.EINVALID, err, "%s %s", flag, path)
	}
	if err := fn(f); err != nil {
		f.Close()
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return f.Close()
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func optf(p *float64, format string) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprintf(format, *p)
}

func num(p *float64) string {
	if p == nil {
		return ""
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}

// ---- plots (gonum.org/v1/plot) ----

// corrGrid is the heatmap grid of a correlation matrix: column c is
// variable c, row r variable n−1−r (so the first variable is on top).
type corrGrid struct{ mat analysis.Matrix }

func (g corrGrid) Dims() (c, r int) { return len(g.mat.Variables), len(g.mat.Variables) }
func (g corrGrid) X(c int) float64  { return float64(c) }
func (g corrGrid) Y(r int) float64  { return float64(r) }
func (g corrGrid) Z(c, r int) float64 {
	n := len(g.mat.Variables)
	cr, _ := g.mat.Get(g.mat.Variables[c], g.mat.Variables[n-1-r])
	if cr.Spearman == nil {
		return math.NaN()
	}
	return *cr.Spearman
}

// heatmapPNG draws Spearman's rho of every pair, grey where null, with the
// value written in each cell when there are at most 30 variables.
func heatmapPNG(w io.Writer, mat analysis.Matrix, title string) error {
	n := len(mat.Variables)
	cmap := moreland.SmoothBlueRed()
	cmap.SetMin(-1)
	cmap.SetMax(1)
	h := plotter.NewHeatMap(corrGrid{mat}, cmap.Palette(255))
	h.Min, h.Max = -1, 1
	h.NaN = color.Gray{Y: 200}
	p := plot.New()
	p.Title.Text = title
	p.Add(h)
	p.NominalX(mat.Variables...)
	rev := make([]string, n)
	for i, v := range mat.Variables {
		rev[n-1-i] = v
	}
	p.NominalY(rev...)
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign = draw.XRight
	p.X.Tick.Label.YAlign = draw.YCenter
	if n <= 30 {
		var xys plotter.XYs
		var labels []string
		for c := 0; c < n; c++ {
			for r := 0; r < n; r++ {
				z := corrGrid{mat}.Z(c, r)
				if math.IsNaN(z) {
					continue
				}
				xys = append(xys, plotter.XY{X: float64(c), Y: float64(r)})
				labels = append(labels, fmt.Sprintf("%.2f", z))
			}
		}
		if len(xys) > 0 {
			l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
			if err != nil {
				return err
			}
			for i := range l.TextStyle {
				l.TextStyle[i].Font.Size = vg.Points(7)
				l.TextStyle[i].XAlign = draw.XCenter
				l.TextStyle[i].YAlign = draw.YCenter
			}
			p.Add(l)
		}
	}
	bar := plot.New()
	bar.HideX()
	bar.Y.Label.Text = "Spearman rho (grey: null)"
	bar.Add(&plotter.ColorBar{ColorMap: cmap, Vertical: true})
	side := vg.Length(n)*vg.Points(28) + 3*vg.Inch
	barW := 1.2 * vg.Inch
	img := vgimg.NewWith(vgimg.UseWH(side+barW, side), vgimg.UseDPI(96))
	dc := draw.New(img)
	p.Draw(draw.Crop(dc, 0, -barW, 0, 0))
	bar.Draw(draw.Crop(dc, side+vg.Points(10), 0, 2*vg.Inch, -vg.Inch))
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

// tilesPNG draws the plots in a grid of cols columns.
func tilesPNG(w io.Writer, plots []*plot.Plot, cols int, tileW, tileH vg.Length) error {
	if len(plots) == 0 {
		p := plot.New()
		p.Title.Text = "no data"
		plots = []*plot.Plot{p}
	}
	cols = max(1, min(cols, len(plots)))
	rows := (len(plots) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for j := range grid {
		grid[j] = make([]*plot.Plot, cols)
		for i := range grid[j] {
			if k := j*cols + i; k < len(plots) {
				grid[j][i] = plots[k]
			}
		}
	}
	img := vgimg.NewWith(vgimg.UseWH(vg.Length(cols)*tileW, vg.Length(rows)*tileH), vgimg.UseDPI(96))
	dc := draw.New(img)
	t := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(grid, t, dc)
	for j := range grid {
		for i, p := range grid[j] {
			if p != nil {
				p.Draw(canvases[j][i])
			}
		}
	}
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

// comparePNG draws one bar chart of the system means per metric.
func comparePNG(w io.Writer, rep compareReport) error {
	var plots []*plot.Plot
	if len(rep.Systems) > 0 {
		for k, ms := range rep.Systems[0].Metrics {
			var vals plotter.Values
			var names []string
			for _, s := range rep.Systems {
				v := 0.0
				if m := s.Metrics[k].Mean; m != nil {
					v = *m
				}
				vals = append(vals, v)
				names = append(names, s.System)
			}
			p := plot.New()
			p.Title.Text = ms.Metric
			p.Y.Label.Text = "mean"
			bc, err := plotter.NewBarChart(vals, vg.Points(18))
			if err != nil {
				return err
			}
			bc.Color = plotutil.Color(0)
			p.Add(bc)
			p.NominalX(names...)
			p.X.Tick.Label.Rotation = math.Pi / 6
			p.X.Tick.Label.XAlign = draw.XRight
			lo, hi := analysis.Range(ms.Metric)
			p.Y.Min, p.Y.Max = math.Min(0, lo), hi
			plots = append(plots, p)
		}
	}
	return tilesPNG(w, plots, 4, 3.2*vg.Inch, 2.6*vg.Inch)
}

// sensitivityPNG draws, per metric, the histograms of the three variants.
func sensitivityPNG(w io.Writer, rep sensitivityReport) error {
	var plots []*plot.Plot
	for _, s := range rep.Metrics {
		p := plot.New()
		p.Title.Text = s.Metric
		p.Title.TextStyle.Font.Size = vg.Points(10)
		p.X.Label.Text = fmt.Sprintf("AUROC %s, Cohen's d %s", optf(s.AUROC, "%.2f"), optf(s.CohensD, "%.2f"))
		p.Y.Label.Text = "samples"
		for i, vs := range s.Variants {
			edges := vs.Hist.Edges()
			h := &plotter.Histogram{Width: edges[1] - edges[0]}
			for b, c := range vs.Hist.Counts {
				h.Bins = append(h.Bins, plotter.HistogramBin{Min: edges[b], Max: edges[b+1], Weight: float64(c)})
			}
			col := color.NRGBAModel.Convert(plotutil.Color(i)).(color.NRGBA)
			h.LineStyle = draw.LineStyle{Color: col, Width: vg.Points(1)}
			col.A = 70
			h.FillColor = col
			p.Add(h)
			p.Legend.Add(vs.Variant, h)
		}
		p.Legend.Top = true
		p.Legend.TextStyle.Font.Size = vg.Points(7)
		plots = append(plots, p)
	}
	return tilesPNG(w, plots, 4, 3.4*vg.Inch, 2.8*vg.Inch)
}

// sweepPNG draws, per metric, the mean (and the AUROC of the two groups)
// against tau, one line per delta; the default variant is left out.
func sweepPNG(w io.Writer, rep sweepReportOut) error {
	var deltas []float64
	seen := map[float64]bool{}
	for _, pt := range rep.Points {
		if pt.Variant != kgeval.DefaultVariant && !seen[pt.Delta] {
			seen[pt.Delta] = true
			deltas = append(deltas, pt.Delta)
		}
	}
	sort.Float64s(deltas)
	curve := func(k int, title, ylabel string, lo, hi float64, get func(analysis.SweepMetric) *float64) (*plot.Plot, error) {
		p := plot.New()
		p.Title.Text = title
		p.X.Label.Text = "tau"
		p.Y.Label.Text = ylabel
		p.Y.Min, p.Y.Max = lo, hi
		for i, d := range deltas {
			var xys plotter.XYs
			for _, pt := range rep.Points {
				if pt.Variant == kgeval.DefaultVariant || pt.Delta != d {
					continue
				}
				if v := get(pt.Metrics[k]); v != nil {
					xys = append(xys, plotter.XY{X: pt.Tau, Y: *v})
				}
			}
			if len(xys) == 0 {
				continue
			}
			sort.Slice(xys, func(a, b int) bool { return xys[a].X < xys[b].X })
			l, s, err := plotter.NewLinePoints(xys)
			if err != nil {
				return nil, err
			}
			l.Color, s.Color = plotutil.Color(i), plotutil.Color(i)
			s.Shape = plotutil.Shape(i)
			p.Add(l, s)
			p.Legend.Add(fmt.Sprintf("delta=%g", d), l, s)
		}
		p.Legend.Top = true
		p.Legend.TextStyle.Font.Size = vg.Points(7)
		return p, nil
	}
	var plots []*plot.Plot
	for k, name := range rep.Metrics {
		lo, hi := analysis.Range(name)
		p, err := curve(k, name, "mean", lo, hi, func(sm analysis.SweepMetric) *float64 { return sm.Mean })
		if err != nil {
			return err
		}
		plots = append(plots, p)
	}
	if rep.A != "" {
		for k, name := range rep.Metrics {
			p, err := curve(k, name+": AUROC", fmt.Sprintf("AUROC %s vs %s", rep.A, rep.B), 0, 1, func(sm analysis.SweepMetric) *float64 { return sm.AUROC })
			if err != nil {
				return err
			}
			plots = append(plots, p)
		}
	}
	return tilesPNG(w, plots, 3, 3.4*vg.Inch, 2.8*vg.Inch)
}
