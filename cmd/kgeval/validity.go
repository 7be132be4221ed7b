package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/spf13/cobra"
)

// validityOpts are validity's flags.
type validityOpts struct {
	run, variant, sensRun, jsonOut, mdOut string
	good, badFaith, badRel                string
	patterns                              []string
}

func (m *Main) validityCommand() *cobra.Command {
	var o validityOpts
	c := &cobra.Command{
		Use:   "validity --run NAME [--sensitivity-run PREFIX] [--json F] [--md F]",
		Short: "Does each metric prefer the right answer? Win rates with bootstrap intervals on a WikiEval-style run",
		Long: `validity reads a run over a WikiEval-style dataset (each question answered by a
good system, one that answers without support in the contexts, and one that
answers off the question) and asks of every metric stored in the run (KG
scores of every pair, every other metric; new metrics appear by themselves)
whether it prefers the good answer. Each metric has a type in kgeval's metric
registry (kgeval.ValidityOf): a faithfulness-type metric is scored by the win rate
of --good over --bad-faithfulness, a relevance-type one of --good over
--bad-relevance; reference-based metrics, metrics that do not read the answer
and the others are listed apart, against both. The win rate is the share of
the questions both systems answered (both values present) where the good
answer scores better — higher, or lower for a lower-is-better metric — ties
counting one half; with wins/ties/losses, n, nulls and a 95% percentile
bootstrap interval over questions (10,000 resamples, seed 1: the same numbers
every time). --sensitivity-run adds the AUROC and Cohen's d of reference
answers against wrong answers from a finished ` + "`kgeval sensitivity --run PREFIX`" + `.
No model is called. See docs/VALIDITY.md.`,
		Example: `  kgeval validity --run validity-wikieval50 --sensitivity-run validity-wikieval50-sens --md docs/results/validity-wikieval50.md`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.run == "" {
				return kgeval.Errorf(kgeval.EINVALID, "--run is required (see `kgeval runs list`)")
			}
			db, err := m.analysisStore(cmd)
			if err != nil {
				return err
			}
			defer db.Close(context.WithoutCancel(cmd.Context()))
			rep, err := validityReport(cmd.Context(), db, o)
			if err != nil {
				return err
			}
			printValidity(m.Stdout, rep)
			if err := m.writeFile(o.jsonOut, "--json", func(w io.Writer) error { return writeJSON(w, rep) }); err != nil {
				return err
			}
			return m.writeFile(o.mdOut, "--md", func(w io.Writer) error { return writeValidityMarkdown(w, rep) })
		},
	}
	f := c.Flags()
	f.StringVar(&o.run, "run", "", "run name")
	f.StringVar(&o.variant, "variant", kgeval.DefaultVariant, "scoring variant of the KG scores")
	f.StringVar(&o.good, "good", "wikieval_grounded", "the system that answers well")
	f.StringVar(&o.badFaith, "bad-faithfulness", "wikieval_ungrounded", "the system faithfulness-type metrics should rank below --good")
	f.StringVar(&o.badRel, "bad-relevance", "wikieval_poor", "the system relevance-type metrics should rank below --good")
	f.StringVar(&o.sensRun, "sensitivity-run", "", "run prefix of a finished `kgeval sensitivity` (its runs PREFIX, PREFIX-reference_as_answer, PREFIX-wrong_answer)")
	f.StringSliceVar(&o.patterns, "metrics", nil, "metrics (as for correlate); default all")
	f.StringVar(&o.jsonOut, "json", "", "write the report as JSON to this file")
	f.StringVar(&o.mdOut, "md", "", "write the report as Markdown to this file")
	return c
}

// validityOut is validity's report (JSON output).
type validityOut struct {
	Run     string `json:"run"`
	Variant string `json:"variant"`
	Dataset string `json:"dataset"`
	// Fingerprint is the dataset's sha256; LLM and Encoder the run's models.
	Fingerprint string `json:"fingerprint"`
	LLM         string `json:"llm"`
	Encoder     string `json:"encoder"`
	Samples     int    `json:"samples"`
	// SensitivityRuns are the runs of --sensitivity-run, by variant.
	SensitivityRuns map[string]string `json:"sensitivity_runs,omitempty"`
	// Empty lists the metrics without any value in the run (left out).
	Empty []string `json:"empty,omitempty"`
	analysis.ValidityReport
}

func validityReport(ctx context.Context, db *graphstore.DB, o validityOpts) (validityOut, error) {
	out := validityOut{Run: o.run, Variant: o.variant}
	rec, err := db.GetRun(ctx, o.run)
	if err != nil {
		return out, err
	}
	out.Dataset, out.Fingerprint, out.LLM, out.Encoder = rec.Dataset, rec.Fingerprint, rec.LLM, rec.Encoder
	rows, err := runRows(ctx, db, o.run, o.variant, false)
	if err != nil {
		return out, err
	}
	out.Samples = len(rows)
	v := analysis.MetricVectors(rows)
	names, err := v.Select(o.patterns)
	if err != nil {
		return out, err
	}
	present, empty := v.Present(names)
	out.Empty = empty
	opts := analysis.ValidityOptions{Good: o.good, BadFaithfulness: o.badFaith, BadRelevance: o.badRel}
	if o.sensRun != "" {
		out.SensitivityRuns = sensitivityRuns(o.sensRun)
		for _, variant := range sensitivityVariants {
			if _, err := db.GetRun(ctx, out.SensitivityRuns[variant]); err != nil {
				return out, fmt.Errorf("--sensitivity-run %s: %w", o.sensRun, err)
			}
		}
		if opts.Sensitivity, err = sensitivitySeparations(ctx, db, out.SensitivityRuns, 10); err != nil {
			return out, err
		}
	}
	out.ValidityReport, err = analysis.Validity(rows, v, present, opts)
	if err != nil {
		return out, fmt.Errorf("run %s: %w", o.run, err)
	}
	return out, nil
}

// modelOf returns the model of a run's "endpoint#model" (the endpoint is
// left out of the report: it differs between machines, the model does not).
func modelOf(llm string) string {
	if i := strings.LastIndexByte(llm, '#'); i >= 0 {
		return llm[i+1:]
	}
	return llm
}

// validitySection is one table of the report: the rows of some types.
type validitySection struct {
	title string
	types []string
	// vs: the rows compare with both bad systems (a column says which).
	vs bool
}

func validitySections(rep validityOut) []validitySection {
	return []validitySection{
		{fmt.Sprintf("Faithfulness-type metrics: %s over %s", rep.Good, rep.BadFaithfulness), []string{kgeval.TypeFaithfulness}, false},
		{fmt.Sprintf("Relevance-type metrics: %s over %s", rep.Good, rep.BadRelevance), []string{kgeval.TypeRelevance}, false},
		{"Reference-based metrics (they compare the answer with the reference; on WikiEval the reference is the grounded answer, so a high win rate is by construction)",
			[]string{kgeval.TypeReference}, true},
		{"Other metrics (they read the answer but measure neither type alone)", []string{kgeval.TypeOther}, true},
		{"Unclassified metrics (give them a validity type in the metric registry, metric.go)", []string{kgeval.TypeUnclassified}, true},
		{"Metrics that do not read the answer (answers to one question with the same contexts tie by construction)", []string{kgeval.TypeNoAnswer}, true},
	}
}

func (s validitySection) rows(rep validityOut) []analysis.ValidityRow {
	var out []analysis.ValidityRow
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
func validityCells(r analysis.ValidityRow) []string {
	ci := "-"
	if r.Lo != nil {
		ci = fmt.Sprintf("[%.3f, %.3f]", *r.Lo, *r.Hi)
	}
	return []string{optf(r.Rate, "%.3f"), ci, fmt.Sprintf("%d/%d/%d", r.Wins, r.Ties, r.Losses), fmt.Sprint(r.N),
		fmt.Sprintf("%d/%d", r.NullGood, r.NullBad), optf(r.AUROC, "%.3f"), optf(r.CohensD, "%.2f")}
}

// noteReason is the note column: the metric's note, and why a win rate is
// missing.
func noteReason(r analysis.ValidityRow) string {
	if r.Note != "" && r.Reason != "" {
		return r.Note + "; " + r.Reason
	}
	return r.Note + r.Reason
}

func better(r analysis.ValidityRow) string {
	if r.Direction == kgeval.LowerIsBetter.String() {
		return "lower"
	}
	return "higher"
}

func validityPreamble(rep validityOut) []string {
	lines := []string{
		fmt.Sprintf("run %s (variant %s): %d samples of %s (sha256 %.12s), model %s, encoder %s", rep.Run, rep.Variant, rep.Samples, rep.Dataset, rep.Fingerprint, modelOf(rep.LLM), rep.Encoder),
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

func printValidity(w io.Writer, rep validityOut) {
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

// writeValidityMarkdown writes the report as a Markdown page: nothing in it
// changes between two runs over the same data, so a committed copy diffs
// clean.
func writeValidityMarkdown(w io.Writer, rep validityOut) error {
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
