package pipeline

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/models"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/kgeval/kgeval/scoring"
	"github.com/kgeval/kgeval/stats"
)

// SweepOptions are a sweep of a stored run over a grid of tau and delta.
type SweepOptions struct {
	Run          string
	Taus, Deltas []float64
	// Cache is the model cache the run's label vectors are read from
	// (models.CacheOnly: a sweep makes no model call).
	Cache kgeval.Cache
	// Progress, if set, is told about the grid points done.
	Progress func(stage string, done, total int)
	// Log receives what the sweep found before it scores; nil discards it.
	Log io.Writer
}

// Check checks the run name and the grid before any store access: each
// tau a cosine threshold in [0, 1], each delta a path cost >= 0. Errors:
// EINVALID (the messages name the CLI's flags).
func (o SweepOptions) Check() error {
	if o.Run == "" {
		return kgeval.Errorf(kgeval.EINVALID, "--run is required (see `kgeval runs list`)")
	}
	if len(o.Taus) == 0 || len(o.Deltas) == 0 {
		return kgeval.Errorf(kgeval.EINVALID, "--tau and --delta each need at least one value, e.g. --tau 0.6,0.7,0.8 --delta 0.3,0.5,0.7")
	}
	for _, t := range o.Taus {
		if t < 0 || t > 1 {
			return kgeval.Errorf(kgeval.EINVALID, "--tau %v: a cosine threshold must be in [0, 1]", t)
		}
	}
	for _, d := range o.Deltas {
		if d < 0 {
			return kgeval.Errorf(kgeval.EINVALID, "--delta %v: a path-cost threshold must be >= 0", d)
		}
	}
	return nil
}

// SweepPoint is one grid point's mean KG scores per pair and metric.
type SweepPoint struct {
	Tau, Delta float64
	Variant    string
	Mean       map[string]map[string]float64 // pair -> metric -> mean
	N          map[string]int                // pair -> scored graphs
}

// SweepResult is what a sweep stored.
type SweepResult struct {
	Pairs  []kgeval.Pair
	Points []SweepPoint
}

// SweepVariant names the stored variant of one grid point.
func SweepVariant(tau, delta float64) string {
	return "tau=" + strconv.FormatFloat(tau, 'g', -1, 64) + ",delta=" + strconv.FormatFloat(delta, 'g', -1, 64)
}

// Sweep rebuilds every stored pair graph of a run for each tau of the grid
// from the run's stored triplets and cached label vectors, scores it with
// the in-process engine for each delta, and stores each grid point as a
// variant of the run's KG scores (SweepVariant). The run's other settings
// (structural weight and cost, directed, empty_as_zero, pairs, seed) are
// those it was evaluated with. Errors: ENOTFOUND for an unknown run or a
// label vector missing from the cache, EINVALID for a run without a stored
// pair graph or options Check refuses, EINTERNAL for a run without a
// recorded configuration.
func Sweep(ctx context.Context, store readmodel.Services, o SweepOptions) (*SweepResult, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	run := o.Run
	rec, err := store.GetRun(ctx, run)
	if err != nil {
		return nil, err
	}
	// The run's own settings, except tau and delta.
	if rec.Config == "" {
		return nil, kgeval.Errorf(kgeval.EINTERNAL, "run %q: no stored configuration", run)
	}
	var was kgeval.RunSettings
	if rec.Settings != nil {
		was = *rec.Settings
	}
	base := was.GraphParams()
	pairs := was.Pairs
	start := time.Now()
	graphs, err := store.ReadRunGraphs(ctx, run)
	if err != nil {
		return nil, err
	}
	stored, err := store.RunScores(ctx, run, kgeval.DefaultVariant)
	if err != nil {
		return nil, err
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
				it.in, it.cx = scoring.GraphTriplets(g)
				ks := scoring.LabelKeys(it.in, it.cx)
				if scoring.UsesPhrases(it.pair) {
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
		return nil, kgeval.Errorf(kgeval.EINVALID, "run %q has no stored pair graph to sweep", run)
	}
	vec, err := cachedVectors(ctx, models.CacheOnly(rec.Encoder, o.Cache), keys)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "sweep: run %q, %d pair graphs, %d label embeddings from the cache (%s), %d grid points\n",
		run, len(items), len(keys), time.Since(start).Round(time.Millisecond), len(o.Taus)*len(o.Deltas))

	engine := &scoring.Native{Seed: uint64(was.Seed)}
	progress := o.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	res := &SweepResult{Pairs: pairs}
	total, done := len(o.Taus)*len(o.Deltas), 0
	progress("sweep", 0, total)
	for _, tau := range o.Taus {
		for _, delta := range o.Deltas {
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
					return nil, err
				}
				built = append(built, g)
			}
			scored, err := engine.Score(ctx, run, built, p)
			if err != nil {
				return nil, err
			}
			results = append(results, scored...)
			carryTextChecks(results, stored)
			variant := SweepVariant(tau, delta)
			if err := store.WriteKGResults(ctx, run, variant, engine.Name(), p, results); err != nil {
				return nil, err
			}
			res.Points = append(res.Points, summarisePoint(tau, delta, variant, results))
			done++
			progress("sweep", done, total)
		}
	}
	return res, nil
}

// cachedVectors are the vectors of keys, 1000 at a time.
func cachedVectors(ctx context.Context, emb kgeval.Embedder, keys []string) (scoring.Vectors, error) {
	vec := scoring.Vectors{}
	for lo := 0; lo < len(keys); lo += 1000 {
		part := keys[lo:min(lo+1000, len(keys))]
		vs, err := emb.Embed(ctx, part)
		if err != nil {
			return nil, err
		}
		for i, k := range part {
			vec[k] = vs[i]
		}
	}
	return vec, nil
}

// summarisePoint is one grid point's mean of every KG metric per pair.
func summarisePoint(tau, delta float64, variant string, results []kgeval.KGResult) SweepPoint {
	sp := SweepPoint{Tau: tau, Delta: delta, Variant: variant, Mean: map[string]map[string]float64{}, N: map[string]int{}}
	values := map[string]map[string][]float64{}
	for _, r := range results {
		if r.Value(metricreg.MetricMultihop) != nil {
			sp.N[r.Pair]++
		}
		for _, s := range r.Scores() {
			if s.Value == nil {
				continue
			}
			if values[r.Pair] == nil {
				values[r.Pair] = map[string][]float64{}
			}
			values[r.Pair][s.Metric] = append(values[r.Pair][s.Metric], *s.Value)
		}
	}
	for pair, ms := range values {
		sp.Mean[pair] = map[string]float64{}
		for metric, vs := range ms {
			sp.Mean[pair][metric] = stats.Mean(vs)
		}
	}
	return sp
}

// textOnly are the KG metrics that read the sample texts, not the graph: a
// sweep point cannot change them, so each keeps the default variant's value.
var textOnly = []string{metricreg.MetricAtomSupport, metricreg.MetricTypedSlotCoverage}

// carryTextChecks copies the text-only metrics (textOnly) of the default
// variant into a sweep point's results, with their null reasons.
func carryTextChecks(results []kgeval.KGResult, stored []readmodel.SampleScores) {
	byID := map[string]*readmodel.SampleScores{}
	for i := range stored {
		byID[stored[i].ID] = &stored[i]
	}
	for i := range results {
		r := &results[i]
		row := byID[r.Sample]
		if row == nil {
			continue
		}
		d, ok := row.Scores[r.Pair]
		if !ok {
			continue
		}
		for _, m := range textOnly {
			v := d.Value(m)
			r.SetValue(m, v)
			delete(r.Reasons, m)
			if why := d.ReasonFor(m); v == nil && why != "" {
				if r.Reasons == nil {
					r.Reasons = map[string]string{}
				}
				r.Reasons[m] = why
			}
		}
	}
}
