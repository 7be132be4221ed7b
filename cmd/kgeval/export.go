package main

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"os"
	"sort"
	"strconv"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
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
			if _, err := db.GetRun(cmd.Context(), run); err != nil {
				return err
			}
			rows, err := db.RunScores(cmd.Context(), run, variant)
			if err != nil {
				return err
			}
			return m.writeTo(out, func(w io.Writer) error {
				if format == "csv" {
					return writeScoresCSV(w, rows, cfg.Scoring.Pairs)
				}
				return writeScoresJSONL(w, rows)
			})
		},
	}
	c.Flags().StringVar(&run, "run", "", "run name")
	c.Flags().StringVar(&format, "format", "jsonl", "jsonl or csv")
	c.Flags().StringVar(&out, "out", "", "output file (default: standard output)")
	c.Flags().StringVar(&variant, "variant", graphstore.DefaultVariant, "scoring variant (sweeps store several)")

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

type exportRow struct {
	ID     string                     `json:"id"`
	Record int                        `json:"record"`
	System string                     `json:"system,omitempty"`
	Scores map[string]exportPairScore `json:"scores"`
	// Metrics holds the other metric values: a number or null, with the
	// reasons for the nulls in Nulls.
	Metrics map[string]*float64 `json:"metrics,omitempty"`
	Nulls   map[string]string   `json:"nulls,omitempty"`
}

type exportPairScore struct {
	Multihop          *float64 `json:"multihop"`
	CommunityOverlap  *float64 `json:"community_overlap"`
	CommunityCoverage *float64 `json:"community_coverage"`
	Reason            string   `json:"reason,omitempty"`
}

func writeScoresJSONL(w io.Writer, rows []graphstore.SampleScores) error {
	enc := json.NewEncoder(w)
	for _, r := range rows {
		row := exportRow{ID: r.ID, Record: r.Record, System: r.System, Scores: map[string]exportPairScore{}}
		for pair, s := range r.Scores {
			row.Scores[pair] = exportPairScore{s.Multihop, s.CommunityOverlap, s.CommunityCoverage, s.Reason}
		}
		for name, m := range r.Metrics {
			if row.Metrics == nil {
				row.Metrics, row.Nulls = map[string]*float64{}, map[string]string{}
			}
			row.Metrics[name] = m.Value
			if m.Value == nil {
				row.Nulls[name] = m.Reason
			}
		}
		if err := enc.Encode(row); err != nil {
			return err
		}
	}
	return nil
}

func writeScoresCSV(w io.Writer, rows []graphstore.SampleScores, pairs []kgeval.Pair) error {
	cw := csv.NewWriter(w)
	header := []string{"id", "record", "system"}
	for _, p := range pairs {
		header = append(header, p.Name+"."+kgeval.MetricMultihop, p.Name+"."+kgeval.MetricCommunityOverlap, p.Name+"."+kgeval.MetricCommunityCoverage, p.Name+".reason")
	}
	// Other metrics: one value column and one reason column each, for every
	// metric any sample has, sorted.
	seen := map[string]bool{}
	var metricNames []string
	for _, r := range rows {
		for name := range r.Metrics {
			if !seen[name] {
				seen[name] = true
				metricNames = append(metricNames, name)
			}
		}
	}
	sort.Strings(metricNames)
	for _, name := range metricNames {
		header = append(header, name, name+".reason")
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	num := func(v *float64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(*v, 'g', -1, 64)
	}
	for _, r := range rows {
		rec := []string{r.ID, strconv.Itoa(r.Record), r.System}
		for _, p := range pairs {
			s := r.Scores[p.Name]
			rec = append(rec, num(s.Multihop), num(s.CommunityOverlap), num(s.CommunityCoverage), s.Reason)
		}
		for _, name := range metricNames {
			m := r.Metrics[name]
			rec = append(rec, num(m.Value), m.Reason)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
