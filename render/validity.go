package render

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/analysis/check"
	"github.com/kgeval/kgeval/metricreg"
)

// validitySection is one table of the report: the rows of some types.
type validitySection struct {
	title string
	types []string
	// vs: the rows compare with both bad systems (a column says which).
	vs bool
}

func validitySections(rep check.RunValidity) []validitySection {
	return []validitySection{
		{fmt.Sprintf("Faithfulness-type metrics: %s over %s", rep.Good, rep.BadFaithfulness), []string{metricreg.TypeFaithfulness}, false},
		{fmt.Sprintf("Relevance-type metrics: %s over %s", rep.Good, rep.BadRelevance), []string{metricreg.TypeRelevance}, false},
		{"Reference-based metrics (they compare the answer with the reference; on WikiEval the reference is the grounded answer, so a high win rate is by construction)",
			[]string{metricreg.TypeReference}, true},
		{"Other metrics (they read the answer but measure neither type alone)", []string{metricreg.TypeOther}, true},
		{"Unclassified metrics (give them a validity type in the metric registry, metricreg/registry.go)", []string{metricreg.TypeUnclassified}, true},
		{"Metrics that do not read the answer (answers to one question with the same contexts tie by construction)", []string{metricreg.TypeNoAnswer}, true},
	}
}

func (s validitySection) rows(rep check.RunValidity) []check.ValidityRow {
	var out []check.ValidityRow
	for _, r := range rep.Rows {
		for _, t := range s.types {
			if r.Type == t {
				out = append(out, r)
			}
		}
	}
	return out
}

// validityCells renders a row's numbers: win rate, interval, w/t/l, n,
// nulls (good/bad), AUROC, d.
func validityCells(r check.ValidityRow) []string {
	ci := "-"
	if r.Lo != nil {
		ci = fmt.Sprintf("[%.3f, %.3f]", *r.Lo, *r.Hi)
	}
	return []string{optf(r.Rate, "%.3f"), ci, fmt.Sprintf("%d/%d/%d", r.Wins, r.Ties, r.Losses), fmt.Sprint(r.N),
		fmt.Sprintf("%d/%d", r.NullGood, r.NullBad), optf(r.AUROC, "%.3f"), optf(r.CohensD, "%.2f")}
}

// noteReason is the note column: the metric's note, and why a win rate is
// missing.
func noteReason(r check.ValidityRow) string {
	if r.Note != "" && r.Reason != "" {
		return r.Note + "; " + r.Reason
	}
	return r.Note + r.Reason
}

func better(r check.ValidityRow) string {
	if r.Direction == metricreg.LowerIsBetter.String() {
		return "lower"
	}
	return "higher"
}

func validityPreamble(rep check.RunValidity) []string {
	lines := []string{
		fmt.Sprintf("run %s (variant %s): %d samples of %s (sha256 %.12s), model %s, encoder %s, extraction.method %s%s", rep.Run, rep.Variant, rep.Samples, rep.Dataset, rep.Fingerprint, kgeval.ModelOf(rep.LLM), rep.Encoder, rep.Extraction, extractionNote(rep.Extraction)),
		fmt.Sprintf("KG engine %s", rep.Engine),
		fmt.Sprintf("good system %s; questions paired with %s: %d, with %s: %d", rep.Good, rep.BadFaithfulness, rep.Questions[rep.BadFaithfulness], rep.BadRelevance, rep.Questions[rep.BadRelevance]),
		fmt.Sprintf("win rate: share of paired questions with both values where the good answer scores better (ties ½); n: those questions; null: questions without the good / bad value; 95%% CI: percentile bootstrap over questions, %d resamples, seed %d", rep.Resamples, rep.Seed),
	}
	if rep.SensitivityRuns != nil {
		lines = append(lines, fmt.Sprintf("AUROC, d: sensitivity runs %s / %s / %s, reference_as_answer against wrong_answer (turned round for lower-is-better metrics)",
			rep.SensitivityRuns[analysis.VariantOriginal], rep.SensitivityRuns[analysis.VariantReferenceAsAnswer], rep.SensitivityRuns[analysis.VariantWrongAnswer]))
	}
	if len(rep.Empty) > 0 {
		lines = append(lines, "left out, no value in any sample: "+strings.Join(rep.Empty, ", "))
	}
	return lines
}

func Validity(w io.Writer, rep check.RunValidity) {
	for _, l := range validityPreamble(rep) {
		fmt.Fprintln(w, l)
	}
	for _, s := range validitySections(rep) {
		rows := s.rows(rep)
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", s.title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		head := "metric\tbetter\t"
		if s.vs {
			head += "vs\t"
		}
		fmt.Fprintln(tw, head+"win rate\t95% CI\tw/t/l\tn\tnull\tAUROC\td\tnote")
		for _, r := range rows {
			cells := []string{r.Metric, better(r)}
			if s.vs {
				cells = append(cells, r.Against)
			}
			cells = append(append(cells, validityCells(r)...), noteReason(r))
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		tw.Flush()
	}
}

// ValidityMarkdown writes the report as a Markdown page: nothing in it
// changes between two runs over the same data, so a committed copy diffs
// clean.
func ValidityMarkdown(w io.Writer, rep check.RunValidity) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Validity: run %s\n\n", rep.Run)
	fmt.Fprintf(&b, "Written by `kgeval validity` (protocol and metric types: [docs/VALIDITY.md](../VALIDITY.md)).\n\n")
	for _, l := range validityPreamble(rep) {
		fmt.Fprintf(&b, "- %s\n", strings.ReplaceAll(l, "|", "\\|"))
	}
	for _, s := range validitySections(rep) {
		rows := s.rows(rep)
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## %s\n\n", s.title)
		head := []string{"metric", "better"}
		if s.vs {
			head = append(head, "vs")
		}
		head = append(head, "win rate", "95% CI", "w/t/l", "n", "null", "AUROC", "d", "note")
		fmt.Fprintf(&b, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
		for _, r := range rows {
			cells := []string{"`" + r.Metric + "`", better(r)}
			if s.vs {
				cells = append(cells, r.Against)
			}
			cells = append(append(cells, validityCells(r)...), noteReason(r))
			for i := range cells {
				cells[i] = strings.ReplaceAll(cells[i], "|", "\\|")
			}
			fmt.Fprintf(&b, "| %s |\n", strings.Join(cells, " | "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// extractionNote says what an extraction method means for the model named
// beside it.
func extractionNote(method string) string {
	switch method {
	case "rules":
		return " (triplets read by rule: no metric here calls the model)"
	case "both":
		return " (the model's triplets and the ones read by rule)"
	}
	return ""
}
