package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/scoring"
	"github.com/spf13/cobra"
)

func (m *Main) sweepCommand() *cobra.Command {
	var run string
	var taus, deltas []float64
	c := &cobra.Command{
		Use:   "sweep --run NAME --tau LIST --delta LIST",
		Short: "Recompute KG scores of a run over a grid of tau and delta",
		Long: `sweep rebuilds every pair graph of a stored run for each tau of the grid
from the run's stored triplets and cached entity embeddings, scores it with the
in-process engine for each delta, and stores each grid point as a scored
variant of the run ("tau=0.6,delta=0.3"). It makes no model call and no
embedding call: an embedding missing from the cache is an error.
The run's other settings (structural weight and cost, directed, empty_as_zero,
pairs, seed) are those it was evaluated with.`,
		Example: `  kgeval sweep --run wikieval-demo --tau 0.6,0.7,0.8 --delta 0.3,0.5,0.7`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// --tau and --delta here are grids, not scoring.tau / .delta:
			// only the global flags configure.
			cfg, err := loadConfig(m.configFile, cmd.InheritedFlags())
			if err != nil {
				return err
			}
			if run == "" {
				return kgeval.Errorf(kgeval.EINVALID, "--run is required (see `kgeval runs list`)")
			}
			if len(taus) == 0 || len(deltas) == 0 {
				return kgeval.Errorf(kgeval.EINVALID, "--tau and --delta each need at least one value, e.g. --tau 0.6,0.7,0.8 --delta 0.3,0.5,0.7")
			}
			for _, t := range taus {
				if t < 0 || t > 1 {
					return kgeval.Errorf(kgeval.EINVALID, "--tau %v: a cosine threshold must be in [0, 1]", t)
				}
			}
			for _, d := range deltas {
				if d < 0 {
					return kgeval.Errorf(kgeval.EINVALID, "--delta %v: a path-cost threshold must be >= 0", d)
				}
			}
			return m.sweep(cmd.Context(), cfg, run, taus, deltas)
		},
	}
	c.Flags().StringVar(&run, "run", "", "run name")
	c.Flags().Float64SliceVar(&taus, "tau", nil, "SIMILAR thresholds, comma-separated")
	c.Flags().Float64SliceVar(&deltas, "delta", nil, "multihop path-cost thresholds, comma-separated")
	return c
}

// SweepVariant names the stored variant of one grid point.
func SweepVariant(tau, delta float64) string {
	return "tau=" + strconv.FormatFloat(tau, 'g', -1, 64) + ",delta=" + strconv.FormatFloat(delta, 'g', -1, 64)
}

func (m *Main) sweep(ctx context.Context, cfg *Config, run string, taus, deltas []float64) error {
	db, err := openMigratedStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close(context.WithoutCancel(ctx))
	rec, err := db.GetRun(ctx, run)
	if err != nil {
		return err
	}
	// The run's own settings, except tau and delta.
	if rec.Config == "" {
		return kgeval.Errorf(kgeval.EINTERNAL, "run %q: no stored configuration", run)
	}
	var was kgeval.RunSettings
	if rec.Settings != nil {
		was = *rec.Settings
	}
	base := was.GraphParams()
	pairs := was.Pairs
	start := time.Now()
	graphs, err := db.ReadRunGraphs(ctx, run)
	if err != nil {
		return err
	}
	stored, err := db.RunScores(ctx, run, kgeval.DefaultVariant)
	if err != nil {
		return err
	}
	// Triplets of each graph, and every entity key to look up.
	type item struct {
		sample string
		pair   kgeval.Pair
		in, cx []kgeval.Triplet
		reason string // set when the graph could not be built (kept as is)
	}
	var items []item
	var keys []string
	seen := map[string]bool{}
	for _, row := range stored {
		for _, p := range pairs {
			it := item{sample: row.ID, pair: p}
			g := graphs[kgeval.GraphID(run, row.ID, p.Name)]
			switch {
			case g != nil:
				it.in, it.cx = g.Triplets()
				ks := scoring.LabelKeys(it.in, it.cx)
				if it.pair.Input == kgeval.TextQuestion {
					ks = append(ks, scoring.AnswerPhraseKeys(it.cx)...)
				}
				for _, k := range ks {
					if !seen[k] {
						seen[k] = true
						keys = append(keys, k)
					}
				}
			case row.Scores[p.Name].Reason != "":
				it.reason = row.Scores[p.Name].Reason
			}
			items = append(items, it)
		}
	}
	if len(items) == 0 {
		return kgeval.Errorf(kgeval.EINVALID, "run %q has no stored pair graph to sweep", run)
	}
	emb := &llm.CachedEmbedder{Next: noCallEmbedder{name: rec.Encoder}, Cache: &graphstore.Cache{DB: db}}
	vec := scoring.Vectors{}
	for lo := 0; lo < len(keys); lo += 1000 {
		part := keys[lo:min(lo+1000, len(keys))]
		vs, err := emb.Embed(ctx, part)
		if err != nil {
			return err
		}
		for i, k := range part {
			vec[k] = vs[i]
		}
	}
	fmt.Fprintf(m.Stderr, "sweep: run %q, %d pair graphs, %d label embeddings from the cache (%s), %d grid points\n",
		run, len(items), len(keys), time.Since(start).Round(time.Millisecond), len(taus)*len(deltas))

	engine := &scoring.Native{Seed: uint64(was.Seed)}
	progress := m.progressPrinter()
	var points []sweepPoint
	total, done := len(taus)*len(deltas), 0
	progress("sweep", 0, total)
	for _, tau := range taus {
		for _, delta := range deltas {
			p := base
			p.Tau, p.Delta = tau, delta
			var built []*kgeval.PairGraph
			var results []kgeval.KGResult
			for _, it := range items {
				if it.in == nil && it.cx == nil {
					results = append(results, kgeval.KGResult{Sample: it.sample, Pair: it.pair.Name, Reason: it.reason})
					continue
				}
				g, err := scoring.Build(it.sample, it.pair, scoring.Side{Text: it.pair.Input, Triplets: it.in}, scoring.Side{Text: it.pair.Context, Triplets: it.cx}, vec, p)
				if err != nil {
					return err
				}
				built = append(built, g)
			}
			scored, err := engine.Score(ctx, run, built, p)
			if err != nil {
				return err
			}
			results = append(results, scored...)
			variant := SweepVariant(tau, delta)
			if err := db.WriteKGResults(ctx, run, variant, engine.Name(), p, results); err != nil {
				return err
			}
			points = append(points, summarisePoint(tau, delta, variant, results))
			done++
			progress("sweep", done, total)
		}
	}
	fmt.Fprintf(m.Stdout, "\nsweep of run %s: %d grid points stored as variants; 0 model calls, 0 embedding calls; %s\n\n",
		run, len(points), time.Since(start).Round(time.Millisecond))
	printSweep(m.Stdout, points, pairs)
	return nil
}

// sweepPoint is one grid point's mean scores per pair and metric.
type sweepPoint struct {
	Tau, Delta float64
	Variant    string
	Mean       map[string]map[string]float64 // pair -> metric -> mean
	N          map[string]int                // pair -> scored graphs
}

func summarisePoint(tau, delta float64, variant string, results []kgeval.KGResult) sweepPoint {
	sp := sweepPoint{Tau: tau, Delta: delta, Variant: variant, Mean: map[string]map[string]float64{}, N: map[string]int{}}
	sums := map[string]map[string]float64{}
	counts := map[string]map[string]int{}
	for _, r := range results {
		if r.Multihop != nil {
			sp.N[r.Pair]++
		}
		for _, s := range r.Scores() {
			if s.Value == nil {
				continue
			}
			if sums[r.Pair] == nil {
				sums[r.Pair], counts[r.Pair] = map[string]float64{}, map[string]int{}
			}
			sums[r.Pair][s.Metric] += *s.Value
			counts[r.Pair][s.Metric]++
		}
	}
	for pair, ms := range sums {
		sp.Mean[pair] = map[string]float64{}
		for metric, v := range ms {
			sp.Mean[pair][metric] = v / float64(counts[pair][metric])
		}
	}
	return sp
}

func printSweep(w io.Writer, points []sweepPoint, pairs []kgeval.Pair) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "tau\tdelta\t")
	for _, p := range pairs {
		fmt.Fprintf(tw, "%s multihop\t%s overlap\t%s coverage\t", p.Name, p.Name, p.Name)
	}
	fmt.Fprintln(tw)
	for _, pt := range points {
		fmt.Fprintf(tw, "%g\t%g\t", pt.Tau, pt.Delta)
		for _, p := range pairs {
			n := pt.N[p.Name]
			for _, metric := range []string{kgeval.MetricMultihop, kgeval.MetricCommunityOverlap, kgeval.MetricCommunityCoverage} {
				fmt.Fprintf(tw, "%s\t", fmtNum(pt.Mean[p.Name][metric], n))
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

// noCallEmbedder stands behind the embedding cache in a sweep: it has the
// run's encoder name (the cache key) and refuses to embed, so a sweep can
// never call a model.
type noCallEmbedder struct{ name string }

func (e noCallEmbedder) Name() string { return e.name }

func (e noCallEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	return nil, kgeval.Errorf(kgeval.ENOTFOUND, "%d entity embeddings of this run are not in the cache (was it evaluated with encoder %s?); a sweep makes no embedding call", len(texts), e.name)
}
