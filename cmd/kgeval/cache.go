package main

import (
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/render"
	"github.com/kgeval/kgeval/runner"
	"github.com/spf13/cobra"
)

// The cache commands move the shared model cache (extraction answers,
// label vectors, judge answers) in and out of Neo4j as snapshot files
// (package cachefile), so that a snapshot in the repository replays an
// evaluation with `evaluate --cache-only` and no model call.

func (m *Main) cacheCommand() *cobra.Command {
	c := &cobra.Command{
		Use:   "cache",
		Short: "Export, import and count the shared model cache (snapshots for zero-call replays)",
		Long:  help("cache"),
	}
	c.AddCommand(m.cacheExportCommand(), m.cacheImportCommand(), m.cacheStatsCommand())
	return c
}

func (m *Main) cacheExportCommand() *cobra.Command {
	var out string
	var runs, kinds []string
	var noTime bool
	c := &cobra.Command{
		Use:     "export --out FILE [--run NAME ...] [--kind extract,embed,judge,verify] [--no-time]",
		Short:   "Write cache entries (all, or those some runs used) to a snapshot file",
		Long:    help("cache-export"),
		Example: `  kgeval cache export --run validity-wikieval50 --run validity-wikieval50-sens --kind extract,judge,verify --out testdata/cache/wikieval50.jsonl.gz`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return kgeval.Errorf(kgeval.EINVALID, "--out is required")
			}
			for _, k := range kinds {
				if k == "" || strings.Contains(k, ":") {
					return kgeval.Errorf(kgeval.EINVALID, "--kind %q: want a kind such as extract, embed or judge", k)
				}
			}
			cfg, err := m.config(cmd)
			if err != nil {
				return err
			}
			f := kgeval.CacheFilter{Kinds: kinds, Runs: runs}
			h, size, err := runner.ExportCache(cmd.Context(), cfg, out, pipeline.CacheExportOptions{Filter: f, Kgeval: version + " (commit " + commit + ")", NoTime: noTime})
			if err != nil {
				return err
			}
			render.CacheExported(m.Stdout, m.Stderr, h, size, f, out)
			return nil
		},
	}
	c.Flags().StringVar(&out, "out", "", "snapshot file to write (.jsonl.gz)")
	c.Flags().StringArrayVar(&runs, "run", nil, "only entries this run used (repeat for several runs)")
	c.Flags().StringSliceVar(&kinds, "kind", nil, "only these kinds (extract, embed, judge, verify)")
	c.Flags().BoolVar(&noTime, "no-time", false, "leave the export time out of the header (byte-identical files from the same store)")
	return c
}

func (m *Main) cacheImportCommand() *cobra.Command {
	var overwrite bool
	c := &cobra.Command{
		Use:     "import FILE [--overwrite]",
		Short:   "Add the entries of a snapshot file to the cache",
		Long:    help("cache-import"),
		Example: `  kgeval cache import testdata/cache/wikieval50.jsonl.gz`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := m.config(cmd)
			if err != nil {
				return err
			}
			return runner.ImportCacheFile(cmd.Context(), cfg, args[0], overwrite, m.Stdout, m.Stderr)
		},
	}
	c.Flags().BoolVar(&overwrite, "overwrite", false, "replace the value of a key the cache already holds")
	return c
}

func (m *Main) cacheStatsCommand() *cobra.Command {
	var runs []string
	c := &cobra.Command{
		Use:   "stats [--run NAME ...]",
		Short: "Count cache entries per kind (all, or those some runs used)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return m.withStore(cmd, true, func(db *graphstore.DB) error {
				st, err := runner.CacheStats(cmd.Context(), db, kgeval.CacheFilter{Runs: runs})
				if err != nil {
					return err
				}
				render.CacheStats(m.Stdout, st, runs)
				return nil
			})
		},
	}
	c.Flags().StringArrayVar(&runs, "run", nil, "only entries this run used (repeat for several runs)")
	return c
}
