package main

import (
	"encoding/json"
	"io"
	"os"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/export"
	"github.com/spf13/cobra"
)

func (m *Main) exportCommand() *cobra.Command {
	var run, format, out, variant string
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
			db, err := openStore(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			defer db.Close(cmd.Context())
			rec, err := db.GetRun(cmd.Context(), run)
			if err != nil {
				return err
			}
			// The pair columns are the run's own pairs, not today's config.
			pairs := cfg.Scoring.Pairs
			if rec.Settings != nil && len(rec.Settings.Pairs) > 0 {
				pairs = rec.Settings.Pairs
			}
			rows, err := db.RunScores(cmd.Context(), run, variant)
			if err != nil {
				return err
			}
			return m.writeTo(out, func(w io.Writer) error {
				if format == "csv" {
					return export.WriteCSV(w, rows, pairs, export.CSVOptions{})
				}
				return export.WriteJSONL(w, rows)
			})
		},
	}
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
			db, err := m.store(cmd)
			if err != nil {
				return err
			}
			defer db.Close(cmd.Context())
			g, err := db.ReadGraphExplanation(cmd.Context(), gRun, sample, pair)
			if err != nil {
				return err
			}
			return m.writeTo(gOut, func(w io.Writer) error {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				return enc.Encode(g)
			})
		},
	}
	graph.Flags().StringVar(&gRun, "run", "", "run name")
	graph.Flags().StringVar(&sample, "sample", "", "sample id")
	graph.Flags().StringVar(&pair, "pair", "", "pair name (e.g. faithfulness)")
	graph.Flags().StringVar(&gOut, "out", "", "output file (default: standard output)")
	c.AddCommand(graph)
	return c
}

// writeTo writes to path, or to standard output when path is empty.
func (m *Main) writeTo(path string, fn func(io.Writer) error) error {
	if path == "" {
		return fn(m.Stdout)
	}
	f, err := os.Create(path)
	if err != nil {
		return kgeval.Wrap(kgeval.EINVALID, err, "--out %s", path)
	}
	if err := fn(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
