package render

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/kgeval/kgeval/scoring/claims"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis/fit"
)

// Mix prints the mix report: the datasets, then one line per score with
// each dataset's AUROC, the macro AUROC with its interval and the macro
// balanced accuracy at the pass marks chosen on the other datasets; then
// the forward selections and the calibration fitted on every dataset.
func Mix(w io.Writer, rep fit.Mix) {
	fmt.Fprintf(w, "training mix: %d datasets, each a run, each left out in turn (leave-one-dataset-out)\n", len(rep.Datasets))
	fmt.Fprintf(w, "KG engine %s\n", mixEngines(rep))
	for _, d := range rep.Datasets {
		contra := ""
		if d.Contradiction > 0 {
			contra = fmt.Sprintf(", %d with a contradiction label (%d contradicted)", d.Contradiction, d.Contradicted)
		}
		fmt.Fprintf(w, "  %-18s %4d samples of %s: %d supported, %d not%s; %d claims, %d with the model's answer, %d in more than one chunk\n",
			d.Name, d.Labelled, d.Dataset, d.Positives, d.Labelled-d.Positives, contra, d.Claims, d.WithModel, d.MultiChunk)
	}
	fmt.Fprintln(w, "AUROC per dataset, and their macro mean with a 95% interval (normal, from each dataset's DeLong interval); balanced accuracy")
	fmt.Fprintln(w, "(macro mean) at the pass mark chosen on the other datasets (the threshold with the best mean balanced accuracy there).")
	fmt.Fprintln(w, "lodo rows: a logistic fit (lambda "+strconv.FormatFloat(rep.Lambda, 'g', -1, 64)+") on the other datasets' claims, a sample's score the mean over its claims.")
	if len(rep.LambdaGrid) > 0 {
		var g []string
		for _, s := range rep.LambdaGrid {
			g = append(g, fmt.Sprintf("%s: %.3f", s.Added, s.MacroAUROC))
		}
		fmt.Fprintln(w, "lambda: the largest whose with-model selection's leave-one-dataset-out macro AUROC is within "+strconv.FormatFloat(fit.MixLambdaTolerance, 'g', -1, 64)+" of the best ("+strings.Join(g, ", ")+")")
	}
	fmt.Fprintln(w, "requests: model requests per claim the score needs ('as run': what the runs asked).")
	for _, label := range []string{fit.FactcheckLabel, "contradiction"} {
		var rows []fit.MixRow
		for _, r := range rep.Rows {
			if r.Label == label {
				rows = append(rows, r)
			}
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintln(w)
		names := datasetNames(rep, rows[0])
		if label == fit.FactcheckLabel {
			fmt.Fprintln(w, "against human.faithfulness (1 supported):")
		} else {
			fmt.Fprintln(w, "against human.contradiction (1 contradicted; every other labelled claim 0), on "+strings.Join(names, ", ")+":")
		}
		tw := tabwriter.NewWriter(w, 2, 2, 2, ' ', 0)
		fmt.Fprintf(tw, "score\trequests\t%s\tmacro AUROC\t95%% CI\tmacro BAcc\t95%% CI\tnote\n", strings.Join(names, "\t"))
		for _, r := range rows {
			cells := make([]string, len(r.Cells))
			var reasons []string
			for i, c := range r.Cells {
				cells[i] = num3(c.AUROC)
				if c.Reason != "" && c.AUROC == nil {
					reasons = append(reasons, c.Reason)
				}
			}
			req := "as run"
			if r.Requests != nil {
				req = strconv.FormatFloat(*r.Requests, 'f', 2, 64)
			}
			note := strings.Join(r.Features, ", ")
			if r.TokensPerSample != nil {
				note = fmt.Sprintf("%.0f prompt tokens a sample; ", *r.TokensPerSample) + note
			}
			if len(reasons) > 0 {
				note = strings.TrimPrefix(note+"; "+reasons[0], "; ")
			}
			name := r.Name
			if r.MarkRule != "" {
				name += " [mark: " + r.MarkRule + "]"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, req, strings.Join(cells, "\t"),
				num3(r.Macro.AUROC), interval(r.Macro.AUROCLo, r.Macro.AUROCHi), num3(r.Macro.BalancedAccuracy), interval(r.Macro.BALo, r.Macro.BAHi), note)
		}
		tw.Flush()
	}
	for _, s := range []struct {
		name  string
		steps []fit.MixStep
		fit   *claims.Fit
	}{{"with the model", rep.SelectionWithModel, rep.Calibration.WithModel}, {"without the model", rep.SelectionWithoutModel, rep.Calibration.WithoutModel}} {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "forward selection %s (a feature is added while it raises the leave-one-dataset-out macro AUROC by %g or more):\n", s.name, rep.MinGain)
		for _, st := range s.steps {
			fmt.Fprintf(w, "  + %-20s macro AUROC %.3f, macro BAcc %.3f\n", st.Added, st.MacroAUROC, st.MacroBA)
		}
		if s.fit == nil {
			fmt.Fprintln(w, "  no fit")
			continue
		}
		var coefs []string
		for i, n := range s.fit.Names {
			coefs = append(coefs, fmt.Sprintf("%s %+.3f", n, s.fit.Coef[i]))
		}
		fmt.Fprintf(w, "  fitted on every dataset (%d claims): %s (standardised), intercept %+.3f; pass mark %.3f",
			s.fit.FittedOn.Claims, strings.Join(coefs, ", "), s.fit.Intercept, s.fit.PassMark)
		if s.fit.MarkRule != "" {
			fmt.Fprintf(w, " (%s dataset's balanced accuracy on held-out predictions; there %.3f to %.3f)", s.fit.MarkRule, s.fit.BARange[0], s.fit.BARange[1])
		}
		fmt.Fprintln(w)
	}
	if c := rep.Calibration.Cascade; c != nil {
		fmt.Fprintln(w)
		fmt.Fprintf(w, "cascade (scoring.verify cascade): the model is asked when no conflict settles a claim and its probability without the model is in [%.3f, %.3f); pass mark %.3f (%s dataset's balanced accuracy on held-out predictions; there %.3f to %.3f); nested leave-one-dataset-out: %.0f%% of claims asked, %.0f prompt tokens a sample, macro AUROC %.3f, macro BAcc %.3f\n",
			c.Lo, c.Hi, c.PassMark, c.MarkRule, c.BARange[0], c.BARange[1], 100*c.AskedShare, c.TokensPerSample, c.CVAUROC, c.CVBalancedAccuracy)
	}
	for _, n := range rep.Notes {
		fmt.Fprintln(w, "note: "+n)
	}
}

// datasetNames are the names of a row's cells.
func datasetNames(rep fit.Mix, r fit.MixRow) []string {
	if len(r.On) > 0 {
		return r.On
	}
	out := make([]string, len(rep.Datasets))
	for i, d := range rep.Datasets {
		out[i] = d.Name
	}
	return out
}

// num3 formats a value to three places, "-" for none.
func num3(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v, 'f', 3, 64)
}

// MixCSV writes one line per row and dataset (and "macro"): label, score,
// kind, requests, dataset, n, positives, AUROC with its interval, balanced
// accuracy with its interval, pass mark.
func MixCSV(w io.Writer, rep fit.Mix) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"label", "score", "kind", "requests", "dataset", "n", "positives", "auroc", "auroc_lo", "auroc_hi", "balanced_accuracy", "ba_lo", "ba_hi", "pass_mark", "features"})
	f := func(v *float64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(*v, 'f', 6, 64)
	}
	for _, r := range rep.Rows {
		names := datasetNames(rep, r)
		req := ""
		if r.Requests != nil {
			req = strconv.FormatFloat(*r.Requests, 'f', 4, 64)
		}
		cells := append(append([]fit.MixCell(nil), r.Cells...), r.Macro)
		for i, c := range cells {
			name := "macro"
			if i < len(names) {
				name = names[i]
			}
			cw.Write([]string{r.Label, r.Name, r.Kind, req, name, strconv.Itoa(c.N), strconv.Itoa(c.Positives), f(c.AUROC), f(c.AUROCLo), f(c.AUROCHi),
				f(c.BalancedAccuracy), f(c.BALo), f(c.BAHi), f(c.PassMark), strings.Join(r.Features, " ")})
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return kgeval.Wrap(kgeval.EINTERNAL, err, "mix csv")
	}
	return nil
}

// mixEngines names the KG engine of the mix's runs (kgeval.Run.KGEngine),
// each run's when they differ.
func mixEngines(rep fit.Mix) string {
	var seen []string
	for _, d := range rep.Datasets {
		if !slices.Contains(seen, d.Engine) {
			seen = append(seen, d.Engine)
		}
	}
	if len(seen) <= 1 {
		return strings.Join(seen, "")
	}
	parts := make([]string, len(rep.Datasets))
	for i, d := range rep.Datasets {
		parts[i] = d.Name + ": " + d.Engine
	}
	return strings.Join(parts, "; ")
}
