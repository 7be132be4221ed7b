package main

import (
	"io"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/export"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/render"
	"github.com/kgeval/kgeval/runner"
	"github.com/spf13/cobra"
)

func (m *Main) exportCommand() *cobra.Command {
	var run, format, out, variant string
	var headline bool
	c := &cobra.Command{
		Use:   "export --run NAME [--format jsonl|csv] [--out FILE]",
		Short: "Export a run's scores, one row per sample (or `export graph` for one pair graph)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if run == "" {
				return kgeval.Errorf(kgeval.EINVALID, "--run is required")
			}
			if format != "jsonl" && format != "csv" {
				return kgeval.Errorf(kgeval.EINVALID, "--format %q: want jsonl or csv", format)
			}
			cfg, err := m.config(cmd)
			if err != nil {
				return err
			}
			db, err := runner.OpenStore(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			defer db.Close(cmd.Context())
			// The pair columns are the run's own pairs, not today's config.
			rows, pairs, err := analysis.LoadRunScores(cmd.Context(), db, run, variant, cfg.Scoring.Pairs)
			if err != nil {
				return err
			}
			return render.WriteTo(m.Stdout, out, "--out", func(w io.Writer) error {
				if format == "csv" {
					return export.WriteCSV(w, rows, pairs, export.CSVOptions{})
				}
				return export.WriteJSONLWith(w, rows, export.JSONLOptions{Headline: headline, Pairs: pairs})
			})
		},
	}
	c.Flags().BoolVar(&headline, "headline", false, "jsonl: add each pair's headline (metric, value, pass mark, pass) and the sample's pass")
	c.Flags().StringVar(&run, "run", "", "run name")
	c.Flags().StringVar(&format, "format", "jsonl", "jsonl or csv")
	c.Flags().StringVar(&out, "out", "", "output file (default: standard output)")
	c.Flags().StringVar(&variant, "variant", kgeval.DefaultVariant, "scoring variant (sweeps store several)")

	var gRun, sample, pair, gOut string
	graph := &cobra.Command{
		Use:   "graph --run NAME --sample ID --pair PAIR [--out FILE]",
		Short: "Export one pair graph as JSON: nodes, edges, costs, weights, communities, paths",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if gRun == "" || sample == "" || pair == "" {
				return kgeval.Errorf(kgeval.EINVALID, "--run, --sample and --pair are required")
			}
			return m.withStore(cmd, true, func(db *graphstore.DB) error {
				g, err := db.ReadGraphExplanation(cmd.Context(), gRun, sample, pair)
				if err != nil {
					return err
				}
				return render.WriteTo(m.Stdout, gOut, "--out", func(w io.Writer) error { return render.JSON(w, g) })
			})
		},
	}
	graph.Flags().StringVar(&gRun, "run", "", "run name")
	graph.Flags().StringVar(&sample, "sample", "", "sample id")
	graph.Flags().StringVar(&pair, "pair", "", "pair name (e.g. faithfulness)")
	graph.Flags().StringVar(&gOut, "out", "", "output file (default: standard output)")
	c.AddCommand(graph, m.exportClaimsCommand())
	return c
}

// exportClaimsCommand writes a run's claim checks, one JSON line per claim
// (export.ClaimRow).
func (m *Main) exportClaimsCommand() *cobra.Command {
	var run, out, variant string
	c := &cobra.Command{
		Use:   "claims --run NAME [--out FILE]",
		Short: "Export a run's claims as JSONL, one row per claim: text, verdict, score, the model's P(supported), best evidence sentence",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if run == "" {
				return kgeval.Errorf(kgeval.EINVALID, "--run is required")
			}
			return m.withStore(cmd, false, func(db *graphstore.DB) error {
				x, err := analysis.NewReader(db, analysis.ReaderOptions{}).Claims(cmd.Context(), run, variant)
				if err != nil {
					return err
				}
				return render.WriteTo(m.Stdout, out, "--out", func(w io.Writer) error { return export.WriteClaimsJSONL(w, x.Rows, x.Pairs) })
			})
		},
	}
	c.Flags().StringVar(&run, "run", "", "run name")
	c.Flags().StringVar(&out, "out", "", "output file (default: standard output)")
	c.Flags().StringVar(&variant, "variant", kgeval.DefaultVariant, "scoring variant (sweeps store several)")
	return c
}

func (m *Main) datasetCommand() *cobra.Command {
	c := &cobra.Command{Use: "dataset", Short: "Work with dataset files"}
	check := &cobra.Command{
		Use:   "check FILE...",
		Short: "Load and validate datasets; report every rejected record",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := m.config(cmd)
			if err != nil {
				return err
			}
			rejected := 0
			for _, path := range args {
				res, err := dataset.Load(path, cfg.DatasetOptions())
				if err != nil {
					return err
				}
				render.Dataset(m.Stdout, res)
				rejected += len(res.Rejected)
			}
			if rejected > 0 && cfg.Dataset.Strict {
				return kgeval.Errorf(kgeval.EINVALID, "%d record(s) rejected and --strict is set", rejected)
			}
			return nil
		},
	}
	check.Flags().Bool("strict", false, "exit non-zero when any record is rejected (dataset.strict)")
	c.AddCommand(check)
	return c
}
