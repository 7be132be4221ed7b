package main

import (
	"fmt"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/dataset"
	"github.com/spf13/cobra"
)

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
				res, err := loadDataset(cfg, path)
				if err != nil {
					return err
				}
				m.reportDataset(res)
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

func loadDataset(cfg *Config, path string) (*dataset.Result, error) {
	return dataset.Load(path, dataset.Options{MaxTextChars: cfg.Dataset.MaxTextChars, MaxLabelChars: cfg.Dataset.MaxLabelChars})
}

// reportDataset prints what a load produced: counts, then one line per
// rejected record.
func (m *Main) reportDataset(res *dataset.Result) {
	systems := map[string]int{}
	withRef, withTriplets := 0, 0
	for _, s := range res.Samples {
		systems[s.System]++
		if s.Reference != "" {
			withRef++
		}
		if s.Triplets != nil {
			withTriplets++
		}
	}
	fmt.Fprintf(m.Stdout, "%s: %s, %d records, %d loaded, %d rejected; %d with reference, %d with triplets, %d system(s)\n",
		res.Path, res.Format, res.Records(), len(res.Samples), len(res.Rejected), withRef, withTriplets, len(systems))
	for _, r := range res.Rejected {
		id := ""
		if r.ID != "" {
			id = fmt.Sprintf(" (id %s)", r.ID)
		}
		fmt.Fprintf(m.Stdout, "  record %d%s rejected: %s\n", r.Record, id, r.Reason)
	}
}
