package main

import (
	"github.com/kgeval/kgeval"
	"github.com/spf13/cobra"
)

// notYet is what the commands that later issues fill return for now: a clear
// error and a non-zero exit, never a pretend result.
func notYet(what string) error {
	return kgeval.Errorf(kgeval.EUNAVAILABLE, "%s is not available in this build yet", what)
}

func (m *Main) evaluateCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "evaluate --dataset FILE [--run NAME]",
		Short: "Extract, store and score a dataset (one run)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := m.config(cmd); err != nil {
				return err
			}
			return notYet("kgeval evaluate")
		},
	}
	c.Flags().String("dataset", "", "dataset file (.jsonl, .json, .csv, .parquet)")
	c.Flags().String("run", "", "run name (default: dataset name and time)")
	c.Flags().String("engine", "", "gds or native (scoring.engine)")
	c.Flags().Float64("tau", 0, "SIMILAR edge threshold (scoring.tau)")
	c.Flags().Float64("delta", 0, "multihop path-cost threshold (scoring.delta)")
	c.Flags().StringSlice("metrics", nil, "metrics to compute (scoring.metrics)")
	c.Flags().Int("concurrency", 0, "parallel workers (run.concurrency)")
	c.Flags().Bool("strict", false, "stop before any work when a record is rejected (dataset.strict)")
	c.Flags().Bool("resume", false, "finish an interrupted run")
	return c
}

func (m *Main) serveCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "serve",
		Short: "Serve the web dashboard and JSON API",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := m.config(cmd); err != nil {
				return err
			}
			return notYet("kgeval serve")
		},
	}
	c.Flags().String("addr", "", "listen address (server.addr)")
	return c
}

func (m *Main) sweepCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "sweep --run NAME --tau LIST --delta LIST",
		Short: "Recompute KG scores of a run over a grid of tau and delta",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := m.config(cmd); err != nil {
				return err
			}
			return notYet("kgeval sweep")
		},
	}
	c.Flags().String("run", "", "run name")
	c.Flags().Float64Slice("tau", nil, "tau values")
	c.Flags().Float64Slice("delta", nil, "delta values")
	return c
}

func (m *Main) exportCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "export --run NAME --format jsonl|csv",
		Short: "Export a run's scores, or one pair graph",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := m.config(cmd); err != nil {
				return err
			}
			return notYet("kgeval export")
		},
	}
	c.Flags().String("run", "", "run name")
	c.Flags().String("format", "jsonl", "jsonl or csv")
	return c
}

func (m *Main) runsCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "runs list|show|delete",
		Short: "List, show or delete stored runs",
	}
	for _, sub := range []string{"list", "show", "delete"} {
		sub := sub
		c.AddCommand(&cobra.Command{
			Use:   sub,
			Short: sub + " runs",
			RunE: func(cmd *cobra.Command, _ []string) error {
				if _, err := m.config(cmd); err != nil {
					return err
				}
				return notYet("kgeval runs " + sub)
			},
		})
	}
	return c
}
