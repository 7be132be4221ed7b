package main

import (
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/render"
	"github.com/kgeval/kgeval/runner"
	"github.com/spf13/cobra"
)

func (m *Main) doctorCommand() *cobra.Command {
	var fix bool
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check Neo4j, GDS, the schema and the model endpoints",
		Long:  help("doctor"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := m.config(cmd)
			if err != nil {
				return err
			}
			checks := runner.Doctor(cmd.Context(), cfg, fix)
			for i, c := range checks {
				if c.Err != nil {
					checks[i].Detail = m.oneLine(c.Err) // with the CLI's advice
				}
			}
			if render.Doctor(m.Stdout, checks) {
				return kgeval.Errorf(kgeval.EUNAVAILABLE, "doctor: something required is missing (see FAIL lines above)")
			}
			return nil
		},
	}
	c.Flags().BoolVar(&fix, "fix", false, "create kgeval's constraints and indexes when they are missing, and rewrite stored runs' records to the configuration's allowlist")
	return c
}
