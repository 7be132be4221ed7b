package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/render"
	"github.com/kgeval/kgeval/runner"
	"github.com/spf13/cobra"
)

// The analysis commands (SPEC §8): correlate, compare, sensitivity,
// sweep-report, validity, gate and explain. They read stored runs through
// package analysis (or run a use case of package pipeline) and render with
// package render.

// loadRows checks --run and reads the rows of one variant of the run
// (analysis.LoadRows); only the global flags configure.
func (m *Main) loadRows(cmd *cobra.Command, run, variant string, explain bool) (rows []analysis.Row, err error) {
	if run == "" {
		return nil, kgeval.Errorf(kgeval.EINVALID, "--run is required (see `kgeval runs list`)")
	}
	return rows, m.withStore(cmd, false, func(db *graphstore.DB) error {
		rows, err = analysis.LoadRows(cmd.Context(), db, run, variant, explain)
		return err
	})
}

func (m *Main) correlateCommand() *cobra.Command {
	var run, variant, jsonOut, csvOut, plotOut string
	var patterns []string
	var human bool
	c := &cobra.Command{
		Use:   "correlate --run NAME [--metrics ...] [--human] [--json F] [--csv F] [--plot F.png]",
		Short: "Correlate a run's metrics with each other and with human labels (Pearson, Spearman, p, n)",
		Long:  help("correlate"),
		Example: `  kgeval correlate --run expertqa --human --json corr.json --csv corr.csv --plot corr.png
  kgeval correlate --run wikieval --metrics faithfulness,ts_groundedness,semantic_similarity`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rows, err := m.loadRows(cmd, run, variant, false)
			if err != nil {
				return err
			}
			o := analysis.CorrelateOptions{Patterns: patterns, MinVariables: 2}
			if human {
				o.Human = analysis.HumanRequired
			}
			c, err := analysis.CorrelateRows(rows, o)
			if err != nil {
				return err
			}
			rep := render.CorrelationReport{Run: run, Variant: variant, Samples: len(rows), Empty: c.Empty, Matrix: c.Matrix}
			render.Correlations(m.Stdout, rep)
			return render.WriteFiles(render.File(jsonOut, "--json", func(w io.Writer) error { return render.JSON(w, rep) }),
				render.File(csvOut, "--csv", func(w io.Writer) error { return render.CorrelationsCSV(w, rep.Matrix) }),
				render.File(plotOut, "--plot", func(w io.Writer) error {
					return render.HeatmapPNG(w, rep.Matrix, fmt.Sprintf("Spearman rho, run %s (%d samples, pairwise-complete)", run, rep.Samples))
				}))
		},
	}
	c.Flags().StringVar(&run, "run", "", "run name")
	c.Flags().StringVar(&variant, "variant", kgeval.DefaultVariant, "scoring variant (sweeps store several)")
	c.Flags().StringSliceVar(&patterns, "metrics", nil, "variables: names (faithfulness.multihop), pairs (faithfulness), KG metrics (multihop), families (kg, ts, llm, ragas, baseline) or ts base names; default all")
	c.Flags().BoolVar(&human, "human", false, "add the dataset's human labels")
	c.Flags().StringVar(&jsonOut, "json", "", "write the matrix as JSON to this file")
	c.Flags().StringVar(&csvOut, "csv", "", "write the matrix as CSV (one row per pair) to this file")
	c.Flags().StringVar(&plotOut, "plot", "", "write a Spearman heatmap PNG to this file")
	return c
}

func (m *Main) compareCommand() *cobra.Command {
	var run, baseline, variant, jsonOut, plotOut string
	var patterns []string
	c := &cobra.Command{
		Use:   "compare --run NAME [--baseline RUN] [--metrics ...] [--json F] [--plot F.png]",
		Short: "Compare the systems of a run, or a run against a baseline run",
		Long:  help("compare"),
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
			rows, err := m.loadRows(cmd, run, variant, true)
			if err != nil {
				return err
			}
			c, empty, err := analysis.CompareSystems(rows, patterns, nil)
			if err != nil {
				return err
			}
			rep := render.ComparisonReport{Run: run, Variant: variant, Samples: len(rows), Empty: empty, Comparison: c}
			render.Comparison(m.Stdout, rep)
			return render.WriteFiles(render.File(jsonOut, "--json", func(w io.Writer) error { return render.JSON(w, rep) }),
				render.File(plotOut, "--plot", func(w io.Writer) error { return render.ComparePNG(w, rep) }))
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

// compareRuns is `compare --run RUN --baseline BASELINE`.
func (m *Main) compareRuns(cmd *cobra.Command, run, baseline, variant string, patterns []string, jsonOut string) error {
	if err := analysis.CheckBaseline(run, baseline); err != nil {
		return optionAdvice(err)
	}
	return m.withStore(cmd, false, func(db *graphstore.DB) error {
		c, err := analysis.LoadRunComparison(cmd.Context(), db, run, baseline, variant, patterns)
		if err != nil {
			return err
		}
		rep := render.RunComparisonReport{Variant: variant, RunComparison: c}
		render.RunComparison(m.Stdout, rep)
		return render.WriteFiles(render.File(jsonOut, "--json", func(w io.Writer) error { return render.JSON(w, rep) }))
	})
}

func (m *Main) sensitivityCommand() *cobra.Command {
	var o pipeline.SensitivityOptions
	var jsonOut, plotOut string
	c := &cobra.Command{
		Use:     "sensitivity --dataset FILE [--run PREFIX] [--system NAME] [--limit N] [--seed S] [--cache-only]",
		Short:   "Score reference answers against wrong answers: the paper's sensitivity experiment",
		Long:    help("sensitivity"),
		Example: `  kgeval sensitivity --dataset testdata/wikieval_ragflow.jsonl --run ragflow-sens --seed 1`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := m.config(cmd)
			if err != nil {
				return err
			}
			if err := o.Check(); err != nil {
				return err
			}
			o.Log = m.Stdout
			r := runner.New(cfg)
			defer r.Close(context.WithoutCancel(cmd.Context()))
			plan, err := r.PlanSensitivity(cmd.Context(), o)
			if err != nil {
				return adviseIf(err, pipeline.IsMismatch, keepMismatchAdvice)
			}
			for _, st := range plan.Steps {
				if st.Keep {
					fmt.Fprintf(m.Stdout, "\nsensitivity: %s: run %q of %s is done; kept\n", st.Variant, st.Run, st.File)
					continue
				}
				fmt.Fprintf(m.Stdout, "\nsensitivity: %s: evaluating %s as run %q\n", st.Variant, st.File, st.Run)
				err := m.evaluate(cmd.Context(), r, runner.Request{Path: st.File, Run: st.Run, Resume: st.Resume, Replace: st.Replace}, printOptions{})
				if err != nil {
					return fmt.Errorf("sensitivity %s: %w", st.Variant, adviseIf(err, pipeline.IsMismatch, resumeMismatchAdvice))
				}
			}
			rep, err := r.ReadSensitivity(cmd.Context(), plan)
			if err != nil {
				return err
			}
			fmt.Fprintln(m.Stdout)
			render.Sensitivity(m.Stdout, *rep)
			if jsonOut == "" {
				jsonOut = filepath.Join(o.Dir, "sensitivity.json")
			}
			if plotOut == "" {
				plotOut = filepath.Join(o.Dir, "sensitivity.png")
			}
			if err := render.WriteFiles(render.File(jsonOut, "--json", func(w io.Writer) error { return render.JSON(w, rep) }),
				render.File(plotOut, "--plot", func(w io.Writer) error { return render.SensitivityPNG(w, *rep) })); err != nil {
				return err
			}
			fmt.Fprintf(m.Stdout, "\nwrote %s and %s; derived datasets in %s\n", jsonOut, plotOut, o.Dir)
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&o.Dataset, "dataset", "", "dataset file (.jsonl, .json, .csv, .parquet)")
	f.StringVar(&o.Prefix, "run", "", "run name prefix (default: <dataset name>-sensitivity)")
	f.IntVar(&o.Limit, "limit", 0, "use only the first N samples that have a reference (0: all)")
	f.Uint64Var(&o.Seed, "seed", 1, "seed of the wrong_answer derangement")
	f.StringVar(&o.Dir, "dir", "", "directory for the derived datasets and the report (default: the run prefix)")
	f.StringVar(&jsonOut, "json", "", "report file (default: DIR/sensitivity.json)")
	f.StringVar(&plotOut, "plot", "", "histogram PNG (default: DIR/sensitivity.png)")
	f.IntVar(&o.Bins, "bins", 10, "histogram bins")
	f.BoolVar(&o.Replace, "replace", false, "delete and redo runs of the same names")
	f.StringVar(&o.System, "system", "", "use only the records of this system (the dataset's system field)")
	f.String("engine", "", "gds or native (scoring.engine)")
	f.StringSlice("metrics", nil, "metrics to compute (scoring.metrics)")
	f.Int("concurrency", 0, "parallel model calls (llm.concurrency)")
	f.Bool("cache-only", false, "make no model call: a request the cache cannot answer fails (llm.cache_only)")
	return c
}

func (m *Main) sweepReportCommand() *cobra.Command {
	var run, against, jsonOut, plotOut string
	var patterns, systems []string
	c := &cobra.Command{
		Use:   "sweep-report --run NAME [--systems A,B | --against RUN] [--json F] [--plot F.png]",
		Short: "How mean KG scores and the separation of two groups change over a run's tau/delta sweep",
		Long:  help("sweep-report"),
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
				patterns = []string{metricreg.FamilyKG}
			}
			return m.withStore(cmd, false, func(db *graphstore.DB) error {
				rep, err := analysis.LoadSweepReport(cmd.Context(), db, run, against, systems, patterns)
				if err != nil {
					return err
				}
				render.SweepReport(m.Stdout, rep)
				return render.WriteFiles(render.File(jsonOut, "--json", func(w io.Writer) error { return render.JSON(w, rep) }),
					render.File(plotOut, "--plot", func(w io.Writer) error { return render.SweepPNG(w, rep) }))
			})
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
