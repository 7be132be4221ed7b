package main

import (
	"io"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/analysis/check"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/render"
	"github.com/spf13/cobra"
)

// validityOpts are validity's flags (vo: check.ValidityOptions's).
type validityOpts struct {
	run, variant, sensRun, jsonOut, mdOut string
	patterns                              []string
	vo                                    check.ValidityOptions
}

func (m *Main) validityCommand() *cobra.Command {
	var o validityOpts
	c := &cobra.Command{
		Use:     "validity --run NAME [--sensitivity-run PREFIX] [--json F] [--md F]",
		Short:   "Does each metric prefer the right answer? Win rates with bootstrap intervals on a WikiEval-style run",
		Long:    help("validity"),
		Example: `  kgeval validity --run validity-wikieval50 --sensitivity-run validity-wikieval50-sens --md docs/results/validity-wikieval50.md`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.run == "" {
				return kgeval.Errorf(kgeval.EINVALID, "--run is required (see `kgeval runs list`)")
			}
			return m.withStore(cmd, false, func(db *graphstore.DB) error {
				rep, err := check.LoadValidity(cmd.Context(), db, o.run, o.variant, o.patterns, o.sensRun, o.vo)
				if err != nil {
					return err
				}
				render.Validity(m.Stdout, rep)
				return render.WriteFiles(render.File(o.jsonOut, "--json", func(w io.Writer) error { return render.JSON(w, rep) }),
					render.File(o.mdOut, "--md", func(w io.Writer) error { return render.ValidityMarkdown(w, rep) }))
			})
		},
	}
	f := c.Flags()
	f.StringVar(&o.run, "run", "", "run name")
	f.StringVar(&o.variant, "variant", kgeval.DefaultVariant, "scoring variant of the KG scores")
	f.StringVar(&o.vo.Good, "good", "wikieval_grounded", "the system that answers well")
	f.StringVar(&o.vo.BadFaithfulness, "bad-faithfulness", "wikieval_ungrounded", "the system faithfulness-type metrics should rank below --good")
	f.StringVar(&o.vo.BadRelevance, "bad-relevance", "wikieval_poor", "the system relevance-type metrics should rank below --good")
	f.StringVar(&o.sensRun, "sensitivity-run", "", "run prefix of a finished `kgeval sensitivity` (its runs PREFIX, PREFIX-reference_as_answer, PREFIX-wrong_answer)")
	f.StringSliceVar(&o.patterns, "metrics", nil, "metrics (as for correlate); default all")
	f.StringVar(&o.jsonOut, "json", "", "write the report as JSON to this file")
	f.StringVar(&o.mdOut, "md", "", "write the report as Markdown to this file")
	return c
}

// gate: a CI check on a stored run (check.Gate), rendered as a table,
// Markdown and JUnit XML by package render; a failed gate is an
// *check.GateError (exit status 1).

func (m *Main) gateCommand() *cobra.Command {
	var run, baseline, variant, mdOut, junitOut, jsonOut string
	var require, maxRegression []string
	c := &cobra.Command{
		Use:   "gate --run NAME --require 'VAR>=X' ... [--baseline RUN --max-regression VAR=D ...] [--markdown F] [--junit F] [--json F]",
		Short: "Check a run against thresholds and a baseline for CI: exit 1 when a check fails",
		Long:  help("gate"),
		Example: `  kgeval gate --run pr-123 --require 'faithfulness.support>=0.8' --require 'faithfulness.contradiction<=0.1' \
    --baseline main --max-regression 'faithfulness.support=0.05' --markdown gate.md --junit gate.xml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := check.ParseGate(run, baseline, require, maxRegression)
			if err != nil {
				return optionAdvice(err)
			}
			return m.withStore(cmd, false, func(db *graphstore.DB) error {
				res, err := check.LoadGate(cmd.Context(), db, run, baseline, variant, o)
				if err != nil {
					return err
				}
				render.Gate(m.Stdout, res, variant)
				if err := render.WriteFiles(render.File(mdOut, "--markdown", func(w io.Writer) error { return render.GateMarkdown(w, res, variant) }),
					render.File(junitOut, "--junit", func(w io.Writer) error { return render.GateJUnit(w, res, variant) }),
					render.File(jsonOut, "--json", func(w io.Writer) error { return render.JSON(w, res) })); err != nil {
					return err
				}
				if !res.Pass {
					return &check.GateError{Result: res}
				}
				return nil
			})
		},
	}
	f := c.Flags()
	f.StringVar(&run, "run", "", "the run to check")
	f.StringVar(&baseline, "baseline", "", "a run to compare with (needed by --max-regression)")
	f.StringVar(&variant, "variant", kgeval.DefaultVariant, "scoring variant (sweeps store several)")
	f.StringArrayVar(&require, "require", nil, "a threshold on the run's mean, VAR OP NUMBER with OP one of >= <= == > < (repeatable)")
	f.StringArrayVar(&maxRegression, "max-regression", nil, "VAR=D: fail when VAR's mean got worse than the baseline's by more than D (repeatable)")
	f.StringVar(&mdOut, "markdown", "", "write a Markdown summary to this file (e.g. $GITHUB_STEP_SUMMARY)")
	f.StringVar(&junitOut, "junit", "", "write a JUnit XML report to this file")
	f.StringVar(&jsonOut, "json", "", "write the result as JSON to this file")
	return c
}

// explainCommand prints why a sample scored as it did: every input
// triplet's verdict with its evidence sentence, contradictions first, and
// the triplets the grounding check dropped.
func (m *Main) explainCommand() *cobra.Command {
	var run, sample string
	var pairs []string
	c := &cobra.Command{
		Use:   "explain --run NAME --sample ID [--pair NAME ...]",
		Short: "Why a sample scored as it did: each triplet's verdict (supported, contradicted, not found) with its evidence sentence",
		Example: `  kgeval explain --run wikieval-demo --sample wikieval-00-ungrounded
  kgeval explain --run wikieval-demo --sample wikieval-00-poor --pair answer_relevancy`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if run == "" || sample == "" {
				return kgeval.Errorf(kgeval.EINVALID, "--run and --sample are required (see `kgeval runs list` and `kgeval export --run`)")
			}
			return m.withStore(cmd, false, func(db *graphstore.DB) error {
				v, err := analysis.NewReader(db, analysis.ReaderOptions{}).Sample(cmd.Context(), run, sample, kgeval.DefaultVariant)
				if err != nil {
					return err
				}
				render.Explain(m.Stdout, run, v.SampleDetail, pairs)
				return nil
			})
		},
	}
	c.Flags().StringVar(&run, "run", "", "run name")
	c.Flags().StringVar(&sample, "sample", "", "sample id")
	c.Flags().StringSliceVar(&pairs, "pair", nil, "pairs to show (default: all of the run's)")
	return c
}
