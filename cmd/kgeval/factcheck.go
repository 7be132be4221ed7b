package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis/fit"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/render"
	"github.com/kgeval/kgeval/scoring/claims"
	"github.com/spf13/cobra"
)

// factcheck and calibrate: how well each faithfulness score of
// a run over a claim-level dataset separates supported from unsupported
// claims (fit.LoadFactcheck), and the logistic calibration of the
// claim features fitted on such a run (fit.LoadCalibration).

// DefaultCalibrationFile is where calibrate writes: the file package
// scoring/claims embeds.
const DefaultCalibrationFile = "scoring/claims/calibration.json"

// factcheckOpts are the flags of factcheck and calibrate.
type factcheckOpts struct {
	runs                          []string
	run                           string // runs[0]
	variant, csvOut, jsonOut, out string
	fo                            fit.FactcheckOptions // --folds, --lambda
}

func (o *factcheckOpts) flags(c *cobra.Command) {
	f := c.Flags()
	f.StringArrayVar(&o.runs, "run", nil, "run name (a claim-level dataset with human faithfulness 0/1, e.g. testdata/expertqa_claims_balanced.jsonl); "+
		"repeat it for a training mix, one run per dataset: each is left out in turn (leave-one-dataset-out)")
	f.StringVar(&o.variant, "variant", kgeval.DefaultVariant, "scoring variant of the KG scores")
	f.IntVar(&o.fo.Folds, "folds", fit.FactcheckFolds, "cross-validation folds (samples of one group, the id before '#', share a fold)")
	f.Float64Var(&o.fo.Lambda, "lambda", fit.FactcheckLambda, "L2 penalty of the logistic regression (1/C in scikit-learn); with several --run, unset: chosen from 1, 10, 100, 1000 leaving each dataset out")
}

func (o *factcheckOpts) check() error {
	if len(o.runs) == 0 || o.runs[0] == "" {
		return kgeval.Errorf(kgeval.EINVALID, "--run is required (see `kgeval runs list`)")
	}
	o.run = o.runs[0]
	if o.fo.Folds < 2 {
		return kgeval.Errorf(kgeval.EINVALID, "--folds %d: want at least 2", o.fo.Folds)
	}
	if !(o.fo.Lambda > 0) {
		return kgeval.Errorf(kgeval.EINVALID, "--lambda %v: want a value above 0", o.fo.Lambda)
	}
	return nil
}

func (m *Main) factcheckCommand() *cobra.Command {
	var o factcheckOpts
	c := &cobra.Command{
		Use:     "factcheck --run NAME [--csv F] [--json F] [--calibration F]",
		Short:   "How well each faithfulness score separates supported from unsupported claims: AUROC and cross-validated balanced accuracy",
		Long:    help("factcheck"),
		Example: `  kgeval factcheck --run factcheck-expertqa --csv docs/results/factcheck-expertqa.csv > docs/results/factcheck-expertqa.txt`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.check(); err != nil {
				return err
			}
			if len(o.runs) > 1 {
				return m.factcheckMix(cmd, o, "")
			}
			fo := o.fo
			if o.out != "" {
				cal, err := claims.ReadCalibration(o.out)
				if err != nil {
					return fmt.Errorf("--calibration: %w", err)
				}
				fo.Calibration, fo.CalibrationName = &cal, o.out
			}
			return m.withStore(cmd, false, func(db *graphstore.DB) error {
				rep, err := fit.LoadFactcheck(cmd.Context(), db, o.run, o.variant, fo)
				if err != nil {
					return err
				}
				render.Factcheck(m.Stdout, rep)
				return render.WriteFiles(render.File(o.csvOut, "--csv", func(w io.Writer) error { return render.FactcheckCSV(w, rep) }),
					render.File(o.jsonOut, "--json", func(w io.Writer) error { return render.JSON(w, rep) }))
			})
		},
	}
	o.flags(c)
	c.Flags().StringVar(&o.csvOut, "csv", "", "write the rows as CSV to this file")
	c.Flags().StringVar(&o.jsonOut, "json", "", "write the report as JSON to this file")
	c.Flags().StringVar(&o.out, "calibration", "", "also judge this calibration file (written by calibrate, e.g. "+DefaultCalibrationFile+") on the run: each fit and its pass mark as they are")
	return c
}

func (m *Main) calibrateCommand() *cobra.Command {
	var o factcheckOpts
	c := &cobra.Command{
		Use:     "calibrate --run NAME [--out FILE]",
		Short:   "Fit the logistic calibrations of the claim features (with and without the model) on a run's claims and write them (default " + DefaultCalibrationFile + ")",
		Long:    help("calibrate"),
		Example: `  kgeval calibrate --run factcheck-expertqa --out scoring/claims/calibration.json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.check(); err != nil {
				return err
			}
			if len(o.runs) > 1 {
				return m.factcheckMix(cmd, o, o.out)
			}
			if o.out == "" {
				return kgeval.Errorf(kgeval.EINVALID, "--out is empty: name the file to write")
			}
			if dir := filepath.Dir(o.out); dir != "." {
				if st, err := os.Stat(dir); err != nil || !st.IsDir() {
					return kgeval.Errorf(kgeval.EINVALID, "--out %s: no directory %s (run from the repository root for the default)", o.out, dir)
				}
			}
			co := fit.CalibrateOptions{FactcheckOptions: o.fo, Kgeval: version + " (commit " + commit + ")"}
			if _, err := os.Stat(o.out); err == nil {
				prev, err := claims.ReadCalibration(o.out)
				if err != nil {
					return fmt.Errorf("--out: %w", err)
				}
				co.Previous = &prev
			}
			return m.withStore(cmd, false, func(db *graphstore.DB) error {
				cal, err := fit.LoadCalibration(cmd.Context(), db, o.run, o.variant, co)
				if err != nil {
					return err
				}
				if err := render.WriteFiles(render.File(o.out, "--out", func(w io.Writer) error { return render.JSON(w, cal.Calibration) })); err != nil {
					return err
				}
				render.Calibrated(m.Stdout, cal, o.out)
				return nil
			})
		},
	}
	o.flags(c)
	c.Flags().StringVar(&o.out, "out", DefaultCalibrationFile, "calibration file to write (JSON)")
	return c
}

// factcheckMix reads several runs, one per dataset, as the training mix
// (fit.LoadMix), prints the report and writes its files; with out,
// calibrate writes the calibration fitted on every dataset there.
func (m *Main) factcheckMix(cmd *cobra.Command, o factcheckOpts, out string) error {
	return m.withStore(cmd, false, func(db *graphstore.DB) error {
		mo := fit.MixOptions{Kgeval: version + " (commit " + commit + ")"}
		if cmd.Flags().Changed("lambda") {
			mo.Lambda = o.fo.Lambda // else chosen leaving each dataset out
		}
		rep, err := fit.LoadMix(cmd.Context(), db, o.runs, o.variant, mo)
		if err != nil {
			return err
		}
		render.Mix(m.Stdout, rep)
		files := []render.Output{render.File(o.csvOut, "--csv", func(w io.Writer) error { return render.MixCSV(w, rep) }),
			render.File(o.jsonOut, "--json", func(w io.Writer) error { return render.JSON(w, rep) })}
		if out != "" {
			if rep.Calibration.WithModel == nil {
				return kgeval.Errorf(kgeval.EINVALID, "no claim of the runs has the model's answer: no with_model fit to write (run them with scoring.verify prob)")
			}
			files = append(files, render.File(out, "--out", func(w io.Writer) error { return render.JSON(w, rep.Calibration) }))
			fmt.Fprintf(m.Stdout, "\nwrote the calibration to %s\n", out)
		}
		return render.WriteFiles(files...)
	})
}
