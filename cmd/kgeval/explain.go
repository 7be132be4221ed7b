package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
)

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
			db, err := m.analysisStore(cmd)
			if err != nil {
				return err
			}
			defer db.Close(context.WithoutCancel(cmd.Context()))
			return explain(cmd.Context(), m.Stdout, db, run, sample, pairs)
		},
	}
	c.Flags().StringVar(&run, "run", "", "run name")
	c.Flags().StringVar(&sample, "sample", "", "sample id")
	c.Flags().StringSliceVar(&pairs, "pair", nil, "pairs to show (default: all of the run's)")
	return c
}

func explain(ctx context.Context, w io.Writer, db *graphstore.DB, run, sample string, only []string) error {
	rec, err := db.GetRun(ctx, run)
	if err != nil {
		return err
	}
	settings := analysis.DisplayOf(rec)
	d, err := db.GetSample(ctx, run, sample, kgeval.DefaultVariant, settings.Pairs)
	if err != nil {
		return err
	}
	var pairs []kgeval.Pair
	results := map[string]kgeval.KGResult{}
	for _, p := range settings.Pairs {
		if len(only) > 0 && !contains(only, p.Name) {
			continue
		}
		st, err := db.ReadKGScore(ctx, run, sample, p.Name, kgeval.DefaultVariant)
		if kgeval.ErrorCode(err) == kgeval.ENOTFOUND {
			continue
		} else if err != nil {
			return err
		}
		pairs = append(pairs, p)
		results[p.Name] = st.KGResult
	}
	fmt.Fprintf(w, "sample %s", d.ID)
	if d.System != "" {
		fmt.Fprintf(w, " (system %s)", d.System)
	}
	fmt.Fprintf(w, ", run %s\n", run)
	texts := analysis.SampleTexts{Question: d.Question, Answer: d.Answer, Reference: d.Reference, Contexts: d.Contexts}
	lines := analysis.WhyLines(texts, pairs, results)
	for _, p := range pairs {
		r := results[p.Name]
		var parts []string
		for _, name := range kgeval.KGMetricNames {
			if kgeval.GraphMetric(name) {
				continue
			}
			if v := r.Value(name); v != nil {
				parts = append(parts, fmt.Sprintf("%s %.2f", name, *v))
			} else if why := r.ReasonFor(name); why != "" && !kgeval.NotApplicable(why) {
				parts = append(parts, fmt.Sprintf("%s null (%s)", name, why))
			}
		}
		fmt.Fprintf(w, "\n%s (%s → %s): %s\n", p.Name, p.Input, p.Context, strings.Join(parts, ", "))
		for _, l := range lines {
			if l.Pair != p.Name {
				continue
			}
			label := strings.ToUpper(strings.ReplaceAll(l.Verdict, "_", " "))
			if l.Conflict {
				label += " (CONFLICT)"
			}
			fmt.Fprintf(w, "  %-13s %s\n", label, l.Triplet)
			if l.Model != "" {
				fmt.Fprintf(w, "  %-13s model: %s — %s\n", "", l.Model, l.ModelReason)
			}
			if l.Evidence != "" {
				fmt.Fprintf(w, "  %-13s evidence %s [%s]\n", "", l.Evidence, l.Source)
			} else if l.Sentence != "" {
				fmt.Fprintf(w, "  %-13s evidence sentence [%s]\n", "", l.Source)
			}
			if l.Sentence != "" {
				fmt.Fprintf(w, "  %-13s %q\n", "", l.Sentence)
			}
		}
	}
	gs, err := db.SampleGrounding(ctx, run, sample)
	if err != nil {
		return err
	}
	var dropped []string
	for _, g := range gs {
		for _, t := range g.Dropped {
			where := string(g.Text)
			if g.Text == kgeval.TextContexts {
				where = fmt.Sprintf("passage %d", g.Passage+1)
			}
			dropped = append(dropped, fmt.Sprintf("  %-10s %s — %s", where, analysis.Triplet(t.Subject, t.Relation, t.Object), t.Reason))
		}
	}
	if len(dropped) > 0 {
		fmt.Fprintf(w, "\ndropped by the grounding check (in no graph, no score; the extractor's inventions):\n%s\n", strings.Join(dropped, "\n"))
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
