package analysis

import (
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/kgeval/kgeval/scoring/claims"
	"github.com/kgeval/kgeval/stats"
)

// The headline: one metric per pair that says, for people, whether a
// sample's pair is good, against one pass mark. `kgeval evaluate` prints it
// first and the dashboard's triage ranks by it; every other score of the
// pair is a diagnostic.

// Headline returns the headline metric of a pair, chosen by the kinds of
// its texts, not by its name: slot_coverage when the input is the question
// (does the other side answer what the question asks: answer and context
// relevance), score otherwise (the calibrated probability that the input's
// claims are supported by the other side: faithfulness, factual
// correctness).
func Headline(p kgeval.Pair) string {
	if p.Input == kgeval.TextQuestion {
		return metricreg.MetricSlotCoverage
	}
	return metricreg.MetricClaimScore
}

// HeadlinePairs returns pairs in the order the headline is read: the pairs
// that read the answer (as input or as the other side) first, then the
// rest (context relevance, which judges the retriever), each group in the
// given order.
func HeadlinePairs(pairs []kgeval.Pair) []kgeval.Pair {
	out := slices.Clone(pairs)
	readsAnswer := func(p kgeval.Pair) bool { return p.Input == kgeval.TextAnswer || p.Context == kgeval.TextAnswer }
	slices.SortStableFunc(out, func(a, b kgeval.Pair) int {
		switch ra, rb := readsAnswer(a), readsAnswer(b); {
		case ra && !rb:
			return -1
		case rb && !ra:
			return 1
		}
		return 0
	})
	return out
}

// calibration is the committed claim calibration, read once.
var calibration = sync.OnceValues(claims.DefaultCalibration)

// PassMark returns the pass mark of a metric: for score, the calibrated
// pass mark of claims.DefaultCalibration, of its fit with the model's
// P(supported) when withModel (the pair's claims were checked by the model:
// p_supported has values in the run) and of its fit without it otherwise;
// for any other metric its default threshold (DefaultThresholds: 0.5, or 0
// for a lower-is-better one).
func PassMark(metric string, withModel bool) float64 {
	if metric == metricreg.MetricClaimScore {
		if c, err := calibration(); err == nil {
			if withModel {
				return c.WithModel.PassMark
			}
			return c.WithoutModel.PassMark
		}
	}
	if metricreg.IsLowerBetter(metric) {
		return 0
	}
	return 0.5
}

// MarkCalibrated reports whether the pass mark PassMark gives metric was
// fitted (score: claims.DefaultCalibration's, against labelled claims)
// rather than a default threshold. Only a fitted mark, or one the user
// configured, makes a value a pass or a fail for a caller that acts on it
// (the Python package's pass); a default one sits beside the score.
func MarkCalibrated(metric string) bool {
	if metric != metricreg.MetricClaimScore {
		return false
	}
	_, err := calibration()
	return err == nil
}

// WithModel reports whether the claims of pair were scored with the model's
// P(supported) in rows: p_supported has a value for at least one sample.
func WithModel(rows []readmodel.SampleScores, pair string) bool {
	for _, r := range rows {
		if res, ok := r.Scores[pair]; ok && res.Value(metricreg.MetricPSupported) != nil {
			return true
		}
	}
	return false
}

// PairPassMark is the pass mark of pair's headline metric in rows: the
// configured threshold of the metric when thresholds names it (web.thresholds),
// else PassMark (with the model when WithModel).
func PairPassMark(rows []readmodel.SampleScores, p kgeval.Pair, thresholds map[string]float64) float64 {
	m := Headline(p)
	if v, ok := thresholds[m]; ok {
		return v
	}
	return PassMark(m, m == metricreg.MetricClaimScore && WithModel(rows, p.Name))
}

// PairMark is the pass mark of pair's headline metric in rows
// (PairPassMark) and what it is: calibrated when it is the built-in mark and
// that one was fitted (MarkCalibrated); configured when thresholds set it
// to another value than the built-in mark (web.thresholds' default 0.5 for
// slot_coverage is the built-in mark, not a choice).
func PairMark(rows []readmodel.SampleScores, p kgeval.Pair, thresholds map[string]float64) (mark float64, calibrated, configured bool) {
	builtIn := PairPassMark(rows, p, nil)
	mark = PairPassMark(rows, p, thresholds)
	if mark != builtIn {
		return mark, false, true
	}
	return mark, MarkCalibrated(Headline(p)), false
}

// HeadlineStat is one row of the headline table: a pair's headline metric
// over the samples of one system, or over all samples (All; System ""):
// its mean over the N samples with a value, how many of them pass the pass
// mark, and the null reasons of the others.
type HeadlineStat struct {
	Pair   kgeval.Pair
	Metric string
	System string
	All    bool
	// Mean is NaN when N is 0.
	Mean     float64
	N        int
	Passing  int
	PassMark float64
	// WithModel says the pass mark is the calibrated one with the model's
	// P(supported) (score only).
	WithModel bool
	// Calibrated says the pass mark was fitted (MarkCalibrated) and not
	// overridden by thresholds.
	Calibrated bool
	// Nulls counts the samples of the pair without a value, by reason.
	Nulls map[string]int
}

// Share is the share of the samples with a value that pass (NaN when
// there is none).
func (h HeadlineStat) Share() float64 {
	if h.N == 0 {
		return math.NaN()
	}
	return float64(h.Passing) / float64(h.N)
}

// Headlines is the headline table of a run: for each pair (HeadlinePairs
// order) with a result in rows, its headline metric (Headline) with mean,
// n and the number passing its pass mark (PairPassMark with thresholds:
// nil for the calibrated and default marks): one row per system (sorted)
// when rows hold several systems, else one row over all samples, which is
// also the one row of a pair without any value (null everywhere).
func Headlines(rows []readmodel.SampleScores, pairs []kgeval.Pair, thresholds map[string]float64) []HeadlineStat {
	systems := map[string]bool{}
	for _, r := range rows {
		systems[r.System] = true
	}
	var names []string
	for s := range systems {
		names = append(names, s)
	}
	sort.Strings(names)
	all := len(names) <= 1
	var out []HeadlineStat
	for _, p := range HeadlinePairs(pairs) {
		m := Headline(p)
		mark := PairPassMark(rows, p, thresholds)
		withModel := m == metricreg.MetricClaimScore && WithModel(rows, p.Name)
		_, calibrated, _ := PairMark(rows, p, thresholds)
		if _, ok := thresholds[m]; ok {
			withModel = false
		}
		groups := names
		if all || !hasValue(rows, p.Name, m) {
			groups = []string{""}
		}
		for _, sys := range groups {
			one := len(groups) == 1 && sys == ""
			h := HeadlineStat{Pair: p, Metric: m, System: sys, All: one, PassMark: mark, WithModel: withModel, Calibrated: calibrated, Nulls: map[string]int{}}
			var vals []float64
			seen := false
			for _, r := range rows {
				if !one && r.System != sys {
					continue
				}
				res, ok := r.Scores[p.Name]
				if !ok {
					continue
				}
				seen = true
				v := res.Value(m)
				if v == nil {
					h.Nulls[res.ReasonFor(m)]++
					continue
				}
				vals = append(vals, *v)
				if Passes(m, *v, mark) {
					h.Passing++
				}
			}
			if !seen {
				continue
			}
			h.N = len(vals)
			h.Mean, _ = stats.MeanStd(vals)
			out = append(out, h)
		}
	}
	return out
}

// hasValue reports whether metric has a value for pair in rows.
func hasValue(rows []readmodel.SampleScores, pair, metric string) bool {
	for _, r := range rows {
		if res, ok := r.Scores[pair]; ok && res.Value(metric) != nil {
			return true
		}
	}
	return false
}
