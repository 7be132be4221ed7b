package analysis

import (
	"math"
	"slices"
	"sort"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/kgeval/kgeval/stats"
)

// SideMetric is one pair and KG metric's mean in two runs, each over its
// own samples with a value.
type SideMetric struct {
	Pair   string   `json:"pair"`
	Metric string   `json:"metric"`
	A      *float64 `json:"a"`
	B      *float64 `json:"b"`
	NA     int      `json:"n_a"`
	NB     int      `json:"n_b"`
	Diff   *float64 `json:"diff"` // B - A
}

// SideSample is one sample present in both runs with its score in each.
type SideSample struct {
	ID   string   `json:"id"`
	A    *float64 `json:"a"`
	B    *float64 `json:"b"`
	Diff *float64 `json:"diff"`
}

// sideValue is a sample's value of a KG metric of pair, or of another
// metric (pair not used).
func sideValue(r readmodel.SampleScores, pair, metric string) *float64 {
	if slices.Contains(metricreg.KGMetricNames, metric) {
		s := r.Scores[pair]
		return s.Value(metric)
	}
	return r.Metrics[metric].Value
}

// SideBySideLimit caps the samples SideBySide returns.
const SideBySideLimit = 100

// SideBySide sets two runs' rows side by side: for every pair and KG
// metric the mean in each run over its own samples (verdict metrics
// without a value in either run left out), and the samples of both runs,
// matched by id, by largest change of one pair's KG metric (or of another
// metric, pair not used) first (at most
// SideBySideLimit; the dashboard's compare page). Common counts the
// matched samples.
func SideBySide(a, b []readmodel.SampleScores, pairs []kgeval.Pair, metrics []string, pair, metric string) (ms []SideMetric, common int, samples []SideSample) {
	ms, samples = []SideMetric{}, []SideSample{}
	mean := func(rows []readmodel.SampleScores, p, m string) (*float64, int) {
		var vs []float64
		for _, r := range rows {
			s := r.Scores[p]
			if x := s.Value(m); x != nil {
				vs = append(vs, *x)
			}
		}
		if len(vs) == 0 {
			return nil, 0
		}
		return kgeval.Float(stats.Mean(vs)), len(vs)
	}
	for _, p := range pairs {
		for _, m := range metrics {
			cm := SideMetric{Pair: p.Name, Metric: m}
			cm.A, cm.NA = mean(a, p.Name, m)
			cm.B, cm.NB = mean(b, p.Name, m)
			if cm.A != nil && cm.B != nil {
				cm.Diff = kgeval.Float(*cm.B - *cm.A)
			}
			if cm.NA+cm.NB == 0 && !metricreg.GraphMetric(m) {
				continue // a verdict score that does not apply to this pair
			}
			ms = append(ms, cm)
		}
	}
	byID := map[string]readmodel.SampleScores{}
	for _, r := range a {
		byID[r.ID] = r
	}
	for _, r := range b {
		ra, ok := byID[r.ID]
		if !ok {
			continue
		}
		common++
		cs := SideSample{ID: r.ID, A: sideValue(ra, pair, metric), B: sideValue(r, pair, metric)}
		if cs.A != nil && cs.B != nil {
			cs.Diff = kgeval.Float(*cs.B - *cs.A)
		}
		samples = append(samples, cs)
	}
	size := func(d *float64) float64 {
		if d == nil {
			return -1
		}
		return math.Abs(*d)
	}
	sort.SliceStable(samples, func(i, j int) bool { return size(samples[i].Diff) > size(samples[j].Diff) })
	if len(samples) > SideBySideLimit {
		samples = samples[:SideBySideLimit]
	}
	return ms, common, samples
}
