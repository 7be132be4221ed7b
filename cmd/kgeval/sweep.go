package main

import (
	"context"
	"fmt"
	"time"

	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/render"
	"github.com/kgeval/kgeval/runner"
	"github.com/spf13/cobra"
)

func (m *Main) sweepCommand() *cobra.Command {
	var run string
	var taus, deltas []float64
	c := &cobra.Command{
		Use:     "sweep --run NAME --tau LIST --delta LIST",
		Short:   "Recompute KG scores of a run over a grid of tau and delta",
		Long:    help("sweep"),
		Example: `  kgeval sweep --run wikieval-demo --tau 0.6,0.7,0.8 --delta 0.3,0.5,0.7`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// --tau and --delta here are grids, not scoring.tau / .delta:
			// only the global flags configure.
			cfg, err := m.readConfig(cmd)
			if err != nil {
				return err
			}
			o := pipeline.SweepOptions{Run: run, Taus: taus, Deltas: deltas, Progress: render.Progress(m.Stderr), Log: m.Stderr}
			if err := o.Check(); err != nil {
				return err
			}
			r := runner.New(cfg)
			defer r.Close(context.WithoutCancel(cmd.Context()))
			start := time.Now()
			res, err := r.Sweep(cmd.Context(), o)
			if err != nil {
				return err
			}
			fmt.Fprintf(m.Stdout, "\nsweep of run %s: %d grid points stored as variants; 0 model calls, 0 embedding calls; %s\n\n",
				run, len(res.Points), time.Since(start).Round(time.Millisecond))
			render.Sweep(m.Stdout, res.Points, res.Pairs)
			return nil
		},
	}
	c.Flags().StringVar(&run, "run", "", "run name")
	c.Flags().Float64SliceVar(&taus, "tau", nil, "SIMILAR thresholds, comma-separated")
	c.Flags().Float64SliceVar(&deltas, "delta", nil, "multihop path-cost thresholds, comma-separated")
	return c
}
