package render

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/scoring/claims"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis/fit"
	"github.com/kgeval/kgeval/stats"
)

// Factcheck prints the factcheck report: the run, the labels and claims,
// one line per score (n, AUROC with its interval, cross-validated balanced
// accuracy with its interval, pass mark) and the cost of the claims.
func Factcheck(w io.Writer, rep fit.Factcheck) {
	verify := rep.Verify
	if verify == "" {
		verify = "-"
	}
	fmt.Fprintf(w, "run %s (variant %s): %d samples of %s (sha256 %.12s), model %s, encoder %s, extraction.method %s, scoring.verify %s\n",
		rep.Run, rep.Variant, rep.Samples, rep.Dataset, rep.Fingerprint, kgeval.ModelOf(rep.LLM), rep.Encoder, rep.Extraction, verify)
	fmt.Fprintf(w, "KG engine %s\n", rep.Engine)
	fmt.Fprintf(w, "labels: human.%s of %d samples, %d supported (1), %d not (0); %d without a label; %s (sample id before '#')\n",
		fit.FactcheckLabel, rep.Labelled, rep.Positives, rep.Labelled-rep.Positives, rep.Samples-rep.Labelled, analysis.Plural(rep.Groups, "group", "groups"))
	if rep.Labelled > 0 {
		failed := ""
		if rep.ModelFailed > 0 {
			failed = fmt.Sprintf(", %d whose model question failed", rep.ModelFailed)
		}
		fmt.Fprintf(w, "claims: %d claim checks stored on the %s pair of the labelled samples (%.2f per sample), %d with the model's P(supported)%s\n",
			rep.Claims, fit.FactcheckPair, float64(rep.Claims)/float64(rep.Labelled), rep.WithModel, failed)
	}
	fmt.Fprintf(w, "AUROC: 95%% DeLong interval (a lower-is-better score negated, so that above 0.5 is right); balanced accuracy: at the threshold chosen on\n"+
		"the other folds (%d folds by sha256(group)), pooled over the held-out samples, 95%% bootstrap over groups (%d resamples, seed %d);\n"+
		"pass mark: the threshold chosen on all samples. cv rows: out-of-fold logistic regression (lambda %g) on the claim features,\n"+
		"each claim with its sample's label, a sample's score the mean over its claims.\n",
		rep.Folds, stats.ThresholdResamples, stats.ThresholdSeed, rep.Lambda)
	for _, n := range rep.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if len(rep.Empty) > 0 {
		fmt.Fprintf(w, "left out, no value in any sample: %s\n", strings.Join(rep.Empty, ", "))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "score\tn\tAUROC\t95% CI\tbal. acc. (cv)\t95% CI\tpass mark\tnote")
	for _, r := range rep.Rows {
		note := r.Reason
		switch {
		case r.Reason != "":
		case r.Kind == fit.FactcheckCV:
			note = fmt.Sprintf("%d claims; %s", r.Claims, strings.Join(r.Features, ", "))
		case r.Kind == fit.FactcheckFixed:
			note = fmt.Sprintf("%d claims; %s; nothing fitted on this run, balanced accuracy at the file's pass mark", r.Claims, strings.Join(r.Features, ", "))
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, r.N, optf(r.AUROC, "%.3f"), interval(r.AUROCLo, r.AUROCHi),
			optf(r.BalancedAccuracy, "%.3f"), interval(r.BALo, r.BAHi), passMark(r), note)
	}
	tw.Flush()
	c := rep.Cost
	stages := "no claims or verify stage recorded"
	if len(c.Stages) > 0 {
		stages = fmt.Sprintf("%.1f s in stage %s", c.Seconds, strings.Join(c.Stages, " + "))
	}
	fmt.Fprintf(w, "\ncost (run record): %d model calls (every stage), %d answered from the cache, %d prompt tokens; %s\n",
		c.Calls, c.CacheHits, c.PromptTokens, stages)
	for _, s := range []struct {
		what  string
		share *fit.CostShare
	}{{"claim", c.PerClaim}, {"sample", c.PerSample}} {
		if s.share != nil {
			fmt.Fprintf(w, "  per %s: %.2f calls, %.0f prompt tokens, %.3f s\n", s.what, s.share.Calls, s.share.PromptTokens, s.share.Seconds)
		}
	}
}

func interval(lo, hi *float64) string {
	if lo == nil || hi == nil {
		return "-"
	}
	return fmt.Sprintf("[%.3f, %.3f]", *lo, *hi)
}

func passMark(r fit.FactcheckRow) string {
	if r.Threshold == nil {
		return "-"
	}
	if r.LowerIsBetter {
		return fmt.Sprintf("<= %.3f", *r.Threshold)
	}
	return fmt.Sprintf(">= %.3f", *r.Threshold)
}

// FactcheckCSV writes the report's rows, one per score.
func FactcheckCSV(w io.Writer, rep fit.Factcheck) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"score", "kind", "features", "lower_is_better", "n", "positives", "claims", "auroc", "auroc_lo", "auroc_hi",
		"balanced_accuracy", "balanced_accuracy_lo", "balanced_accuracy_hi", "pass_mark", "reason"})
	for _, r := range rep.Rows {
		_ = cw.Write([]string{r.Name, r.Kind, strings.Join(r.Features, " "), strconv.FormatBool(r.LowerIsBetter), strconv.Itoa(r.N),
			strconv.Itoa(r.Positives), strconv.Itoa(r.Claims), num(r.AUROC), num(r.AUROCLo), num(r.AUROCHi), num(r.BalancedAccuracy),
			num(r.BALo), num(r.BAHi), num(r.Threshold), r.Reason})
	}
	cw.Flush()
	return cw.Error()
}

// Calibrated prints what `kgeval calibrate` fitted and wrote.
func Calibrated(w io.Writer, c fit.CalibrateResult, path string) {
	for _, f := range []struct {
		name string
		fit  *claims.Fit
	}{{"with_model", c.WithModel}, {"without_model", c.WithoutModel}} {
		if slices.Contains(c.Kept, f.name) {
			fmt.Fprintf(w, "%s: kept from %s (no claim of the run has the model's feature), fitted on run %s\n\n", f.name, path, f.fit.FittedOn.Run)
			continue
		}
		m := f.fit
		fmt.Fprintf(w, "%s: fitted on %d claims of run %s (%s, sha256 %.12s), model %s; %d claims without every feature left out\n",
			f.name, m.FittedOn.Claims, m.FittedOn.Run, m.FittedOn.Dataset, m.FittedOn.Fingerprint, kgeval.ModelOf(m.FittedOn.LLM), m.LeftOut)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "feature\tmean\tscale\tcoefficient (standardised)")
		for j, name := range m.Names {
			fmt.Fprintf(tw, "%s\t%.4f\t%.4f\t%+.4f\n", name, m.Mean[j], m.Scale[j], m.Coef[j])
		}
		fmt.Fprintf(tw, "(intercept)\t\t\t%+.4f\n", m.Intercept)
		tw.Flush()
		fmt.Fprintf(w, "lambda %g; out of fold (%d folds by group): AUROC %.3f [%.3f, %.3f], balanced accuracy %.3f [%.3f, %.3f]; pass mark %.4f\n\n",
			m.Lambda, m.Folds, m.CVAUROC, m.CVAUROCCI[0], m.CVAUROCCI[1], m.CVBalancedAccuracy, m.CVBalancedAccuracyCI[0], m.CVBalancedAccuracyCI[1], m.PassMark)
	}
	fmt.Fprintf(w, "wrote %s\n", path)
}
