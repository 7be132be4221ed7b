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
