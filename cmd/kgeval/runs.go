package main

import (
	"fmt"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/render"
	"github.com/spf13/cobra"
)

func (m *Main) runsCommand() *cobra.Command {
	c := &cobra.Command{Use: "runs", Short: "List, show or delete stored runs"}
	var listJSON, showJSON bool
	list := &cobra.Command{
		Use: "list", Short: "List stored runs, newest first", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return m.withStore(cmd, true, func(db *graphstore.DB) error {
				runs, err := db.ListRuns(cmd.Context())
				if err != nil {
					return err
				}
				if listJSON {
					if runs == nil {
						runs = []kgeval.Run{}
					}
					return render.JSON(m.Stdout, runs)
				}
				return render.RunList(m.Stdout, runs)
			})
		},
	}
	list.Flags().BoolVar(&listJSON, "json", false, "print the run records as a JSON array")
	show := &cobra.Command{
		Use: "show NAME", Short: "Show a run: its record (with the model's cost per stage and pair) and mean scores per pair", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return m.withStore(cmd, true, func(db *graphstore.DB) error {
				if showJSON {
					r, err := db.GetRun(cmd.Context(), args[0])
					if err != nil {
						return err
					}
					return render.JSON(m.Stdout, r)
				}
				v, err := analysis.NewReader(db, analysis.ReaderOptions{}).View(cmd.Context(), args[0], kgeval.DefaultVariant)
				if err != nil {
					return err
				}
				return render.RunShow(m.Stdout, v.Record, v.Summary)
			})
		},
	}
	show.Flags().BoolVar(&showJSON, "json", false, "print the run's record as JSON (its ledger included)")
	c.AddCommand(list, show)
	c.AddCommand(&cobra.Command{
		Use: "delete NAME", Short: "Delete a run: its record, samples, graphs and scores (not the shared model cache)", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return m.withStore(cmd, true, func(db *graphstore.DB) error {
				if err := db.DeleteRun(cmd.Context(), args[0]); err != nil {
					return err
				}
				fmt.Fprintf(m.Stdout, "deleted run %s\n", args[0])
				return nil
			})
		},
	})
	return c
}
