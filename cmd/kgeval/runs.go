package main

import (
	"encoding/json"
	"reflect"
	"strings"

	"fmt"
	"text/tabwriter"
	"time"

	"github.com/kgeval/kgeval"

	"github.com/kgeval/kgeval/graphstore"
	"github.com/spf13/cobra"
)

func (m *Main) runsCommand() *cobra.Command {
	c := &cobra.Command{Use: "runs", Short: "List, show or delete stored runs"}
	c.AddCommand(&cobra.Command{
		Use: "list", Short: "List stored runs, newest first", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := m.store(cmd)
			if err != nil {
				return err
			}
			defer db.Close(cmd.Context())
			runs, err := db.ListRuns(cmd.Context())
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(m.Stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "name\tstatus\tsamples\tengine\tstarted\tdataset")
			for _, r := range runs {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", r.Name, r.Status, r.Samples, r.Engine, r.Started.Format(time.DateTime), r.Dataset)
			}
			return tw.Flush()
		},
	})
	c.AddCommand(&cobra.Command{
		Use: "show NAME", Short: "Show a run: its record and mean scores per pair", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, err := m.store(cmd)
			if err != nil {
				return err
			}
			defer db.Close(cmd.Context())
			r, err := db.GetRun(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(m.Stdout, "run %s: %s\ndataset %s (sha256 %s), %d samples, %d rejected\nllm %s, encoder %s, engine %s\nstarted %s, finished %s\nstages (s) %s\ncalls %s\ntexts %s\nresumed %d times\n",
				r.Name, r.Status, r.Dataset, r.Fingerprint, r.Samples, r.Rejected, r.LLM, r.Encoder, r.Engine,
				r.Started.Format(time.DateTime), r.Finished.Format(time.DateTime), jsonOrEmpty(r.Stages), jsonOrEmpty(r.Calls), jsonOrEmpty(r.Texts), r.Resumes)
			if r.Error != "" {
				fmt.Fprintf(m.Stdout, "error %s\n", r.Error)
			}
			sum, err := db.RunSummary(cmd.Context(), r.Name, kgeval.DefaultVariant)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(m.Stdout, 0, 0, 2, ' ', 0)
			// Metrics without a value in any pair (verify off) are left out.
			var cols []string
			for _, name := range kgeval.KGMetricNames {
				for _, p := range sum {
					if p.Means[name] != nil {
						cols = append(cols, name)
						break
					}
				}
			}
			fmt.Fprintln(tw, "\npair\tgraphs\tscored\t"+strings.Join(cols, "\t"))
			for _, p := range sum {
				fmt.Fprintf(tw, "%s\t%d\t%d", p.Pair, p.Graphs, p.Scored)
				for _, c := range cols {
					fmt.Fprintf(tw, "\t%s", opt(p.Means[c]))
				}
				fmt.Fprintln(tw)
			}
			return tw.Flush()
		},
	})
	c.AddCommand(&cobra.Command{
		Use: "delete NAME", Short: "Delete a run: its record, samples, graphs and scores (not the shared model cache)", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			db, err := m.store(cmd)
			if err != nil {
				return err
			}
			defer db.Close(cmd.Context())
			if err := db.DeleteRun(cmd.Context(), args[0]); err != nil {
				return err
			}
			fmt.Fprintf(m.Stdout, "deleted run %s\n", args[0])
			return nil
		},
	})
	return c
}

// jsonOrEmpty renders a recorded part of a run as JSON, "" when it was
// never recorded.
func jsonOrEmpty[T any](v T) string {
	if reflect.ValueOf(v).IsNil() {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func opt(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.3f", *v)
}

// store loads the configuration and connects to Neo4j.
func (m *Main) store(cmd *cobra.Command) (*graphstore.DB, error) {
	cfg, err := m.config(cmd)
	if err != nil {
		return nil, err
	}
	return openStore(cmd.Context(), cfg)
}
