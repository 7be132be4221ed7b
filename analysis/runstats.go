package analysis

import (
	"context"
	"math"
	"sort"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// Display is what the dashboard shows of a run's scoring settings: its
// pairs, delta, tau and the KG metrics of its pair columns.
type Display struct {
	Pairs   []kgeval.Pair `json:"pairs"`
	Delta   float64       `json:"delta"`
	Tau     float64       `json:"tau"`
	Metrics []string      `json:"metrics"` // the KG metrics shown
	// Extraction is the run's extraction.method (llm, rules or both); llm
	// for a run recorded before the setting existed.
	Extraction string `json:"extraction"`
}

// DisplayOf reads the pairs, delta, tau and metrics of a run's recorded
// scoring settings, with the SPEC defaults for a run recorded without them.
func DisplayOf(r kgeval.Run) Display {
	def := kgeval.DefaultGraphParams()
	s := Display{Delta: def.Delta, Tau: def.Tau, Extraction: ExtractionMethod(r)}
	if r.Settings != nil {
		s.Pairs, s.Delta, s.Tau, s.Metrics = r.Settings.Pairs, r.Settings.Delta, r.Settings.Tau, r.Settings.Metrics
	}
	if len(s.Pairs) == 0 {
		s.Pairs = kgeval.DefaultPairs()
	}
	// scoring.metrics names metric families (kg, ts, ...) or, in older runs,
	// KG metrics; the dashboard's pair scores are the KG metrics either way.
	var kg []string
	for _, m := range s.Metrics {
		if metricreg.MetricFamily(m) == metricreg.FamilyKG {
			kg = append(kg, m)
		}
	}
	s.Metrics = kg
	if len(s.Metrics) == 0 {
		s.Metrics = []string{metricreg.MetricMultihop, metricreg.MetricCommunityOverlap, metricreg.MetricCommunityCoverage,
			metricreg.MetricSupport, metricreg.MetricContradiction, metricreg.MetricSlotCoverage}
	}
	return s
}

// Histogram counts scores in HistogramBins equal-width bins over [0, 1];
// the last bin holds 1.
type Histogram struct {
	Pair   string   `json:"pair"`
	Metric string   `json:"metric"`
	Counts []int    `json:"counts"`
	Nulls  int      `json:"nulls"`
	Mean   *float64 `json:"mean"`
}

// SystemStats is the mean of each pair and metric over one system's samples.
type SystemStats struct {
	System string `json:"system"`
	// Means maps "pair.metric" (KG scores) or a metric name (other metrics)
	// to the mean; a key is absent when every value is null.
	Means map[string]*float64 `json:"means"`
	// Scored maps the same keys to how many non-null values the mean is over.
	Scored map[string]int `json:"scored"`
	Graphs int            `json:"graphs"`
}

// PairReason is how many null scores of a pair have a reason.
type PairReason struct {
	Pair   string `json:"pair"`
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// RunStats are a run's score distributions, per-system means and null
// reasons: the KG scores per pair (Histograms, Reasons) and the other
// metric values (Metrics).
type RunStats struct {
	Bins       int           `json:"bins"`
	Histograms []Histogram   `json:"histograms"`
	Systems    []SystemStats `json:"systems"`
	Reasons    []PairReason  `json:"reasons"`
	Metrics    []MetricStat  `json:"metrics"`
}

// MetricStat is the distribution of one metric over a run's samples:
// Counts is a histogram of HistogramBins equal-width bins over [Lo, Hi]
// (the last bin holds Hi), Mean is over the Scored non-null values.
type MetricStat struct {
	Metric string   `json:"metric"`
	Family string   `json:"family"`
	Lo     float64  `json:"lo"`
	Hi     float64  `json:"hi"`
	Counts []int    `json:"counts"`
	Scored int      `json:"scored"`
	Nulls  int      `json:"nulls"`
	Mean   *float64 `json:"mean"`
	Min    *float64 `json:"min"`
	Max    *float64 `json:"max"`
	// Reasons are the TopReasons most frequent reasons of null values.
	Reasons []NullReason `json:"reasons"`
}

// NullReason is how many null values of a metric give one reason.
type NullReason struct {
	Reason string `json:"reason"`
	Count  int    `json:"count"`
}

// HistogramBins is the number of bins of RunStats histograms.
const HistogramBins = 10

// TopReasons is how many null reasons MetricStat keeps per metric.
const TopReasons = 5

// StatsSource is what LoadRunStats reads: a run's scores, metric values and
// null reasons as rows.
type StatsSource interface {
	RunScoreRows(ctx context.Context, run, variant string) ([]readmodel.SystemScore, error)
	RunMetricGroups(ctx context.Context, run string) ([]readmodel.MetricGroup, error)
	RunNullReasons(ctx context.Context, run string) ([]readmodel.ReasonCount, error)
}

// LoadRunStats reads the rows of a run's variant from st and computes its
// RunStats for the pairs and KG metrics of d.
func LoadRunStats(ctx context.Context, st StatsSource, run, variant string, d Display) (*RunStats, error) {
	scores, err := st.RunScoreRows(ctx, run, variant)
	if err != nil {
		return nil, err
	}
	groups, err := st.RunMetricGroups(ctx, run)
	if err != nil {
		return nil, err
	}
	reasons, err := st.RunNullReasons(ctx, run)
	if err != nil {
		return nil, err
	}
	return ComputeRunStats(d, scores, groups, reasons), nil
}

// ComputeRunStats computes a run's distributions: a histogram of every KG
// metric of d per pair of d (verdict metrics without any value left out),
// per-system means, the null reasons of the KG scores by pair, and the
// distribution, per-system means and top null reasons of every other
// metric (groups and reasons).
func ComputeRunStats(d Display, scores []readmodel.SystemScore, groups []readmodel.MetricGroup, reasonRows []readmodel.ReasonCount) *RunStats {
	st := &RunStats{Bins: HistogramBins, Histograms: []Histogram{}, Systems: []SystemStats{}, Reasons: []PairReason{}}
	hist := map[string]*Histogram{}
	sums := map[string]float64{}
	for _, p := range d.Pairs {
		for _, m := range d.Metrics {
			st.Histograms = append(st.Histograms, Histogram{Pair: p.Name, Metric: m, Counts: make([]int, HistogramBins)})
		}
	}
	for i := range st.Histograms {
		h := &st.Histograms[i]
		hist[KGName(h.Pair, h.Metric)] = h
	}
	systems := map[string]*SystemStats{}
	sysSums := map[string]map[string]float64{}
	reasons := map[[2]string]int{}
	for _, r := range scores {
		pair, system, score := r.Score.Pair, r.System, r.Score
		ss := systems[system]
		if ss == nil {
			ss = &SystemStats{System: system, Means: map[string]*float64{}, Scored: map[string]int{}}
			systems[system] = ss
			sysSums[system] = map[string]float64{}
		}
		ss.Graphs++
		nullSeen := false
		for _, metric := range d.Metrics {
			key := KGName(pair, metric)
			h := hist[key]
			if h == nil {
				continue
			}
			v := score.Value(metric)
			if v == nil {
				if !kgeval.NotApplicable(score.ReasonFor(metric)) {
					h.Nulls++
					nullSeen = true
				}
				continue
			}
			b := int(math.Floor(*v * HistogramBins))
			b = max(0, min(b, HistogramBins-1))
			h.Counts[b]++
			sums[key] += *v
			ss.Scored[key]++
			sysSums[system][key] += *v
		}
		if nullSeen {
			reasons[[2]string{pair, score.Reason}]++
		}
	}
	for i := range st.Histograms {
		h := &st.Histograms[i]
		n := 0
		for _, c := range h.Counts {
			n += c
		}
		if n > 0 {
			h.Mean = kgeval.Float(sums[KGName(h.Pair, h.Metric)] / float64(n))
		}
	}
	// Histograms of verdict metrics without a value (recall outside the
	// reference pair, a verify that is off) are left out.
	kept := st.Histograms[:0]
	for _, h := range st.Histograms {
		n := 0
		for _, c := range h.Counts {
			n += c
		}
		if n > 0 || metricreg.GraphMetric(h.Metric) {
			kept = append(kept, h)
		}
	}
	st.Histograms = kept
	for name, ss := range systems {
		for key, n := range ss.Scored {
			ss.Means[key] = kgeval.Float(sysSums[name][key] / float64(n))
		}
	}
	st.Metrics = metricStats(groups, reasonRows, systems)
	for _, ss := range systems {
		st.Systems = append(st.Systems, *ss)
	}
	sort.Slice(st.Systems, func(i, j int) bool { return st.Systems[i].System < st.Systems[j].System })
	for k, n := range reasons {
		st.Reasons = append(st.Reasons, PairReason{Pair: k[0], Reason: k[1], Count: n})
	}
	sort.Slice(st.Reasons, func(i, j int) bool {
		if st.Reasons[i].Count != st.Reasons[j].Count {
			return st.Reasons[i].Count > st.Reasons[j].Count
		}
		return st.Reasons[i].Pair+st.Reasons[i].Reason < st.Reasons[j].Pair+st.Reasons[j].Reason
	})
	return st
}

// histogramRange picks the range of a metric's histogram: [0, 1] for
// scores and similarities, [-1, 1] for cosines that go negative, [0, 100]
// for percentages (the RAGAS-style family), else the values' own range.
func histogramRange(lo, hi float64) (float64, float64) {
	switch {
	case lo >= 0 && hi <= 1:
		return 0, 1
	case lo >= -1 && hi <= 1:
		return -1, 1
	case lo >= 0 && hi <= 100:
		return 0, 100
	}
	lo, hi = math.Floor(lo), math.Ceil(hi)
	if hi <= lo {
		hi = lo + 1
	}
	return lo, hi
}

// metricStats returns the distributions of a run's metric values (groups:
// per metric and system) with their top null reasons (reasonRows: per
// metric, most frequent first), in FamilyRank then name order, and adds
// the per-system means to systems (keyed by metric name).
func metricStats(groups []readmodel.MetricGroup, reasonRows []readmodel.ReasonCount, systems map[string]*SystemStats) []MetricStat {
	type group struct {
		system string
		values []float64
	}
	byMetric := map[string]*MetricStat{}
	byName := map[string][]group{}
	for _, mg := range groups {
		ms := byMetric[mg.Metric]
		if ms == nil {
			ms = &MetricStat{Metric: mg.Metric, Family: mg.Family, Counts: make([]int, HistogramBins), Reasons: []NullReason{}}
			byMetric[mg.Metric] = ms
		}
		g := group{system: mg.System}
		for _, v := range mg.Values {
			if !math.IsNaN(v) {
				g.values = append(g.values, v)
			}
		}
		ms.Nulls += mg.N - len(g.values)
		byName[mg.Metric] = append(byName[mg.Metric], g)
	}
	for name, ms := range byMetric {
		lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
		for _, g := range byName[name] {
			ss := systems[g.system]
			if ss == nil {
				ss = &SystemStats{System: g.system, Means: map[string]*float64{}, Scored: map[string]int{}}
				systems[g.system] = ss
			}
			gsum := 0.0
			for _, v := range g.values {
				lo, hi = min(lo, v), max(hi, v)
				gsum += v
			}
			sum += gsum
			ms.Scored += len(g.values)
			if len(g.values) > 0 { // one group per metric and system
				ss.Scored[name] = len(g.values)
				ss.Means[name] = kgeval.Float(gsum / float64(len(g.values)))
			}
		}
		if ms.Scored == 0 {
			ms.Lo, ms.Hi = 0, 1
			continue
		}
		ms.Mean = kgeval.Float(sum / float64(ms.Scored))
		ms.Min, ms.Max = kgeval.Float(lo), kgeval.Float(hi)
		ms.Lo, ms.Hi = histogramRange(lo, hi)
		width := (ms.Hi - ms.Lo) / HistogramBins
		for _, g := range byName[name] {
			for _, v := range g.values {
				b := int(math.Floor((v - ms.Lo) / width))
				ms.Counts[max(0, min(b, HistogramBins-1))]++
			}
		}
	}
	for _, r := range reasonRows {
		if ms := byMetric[r.Metric]; ms != nil && len(ms.Reasons) < TopReasons {
			ms.Reasons = append(ms.Reasons, NullReason{Reason: r.Reason, Count: r.N})
		}
	}
	out := make([]MetricStat, 0, len(byMetric))
	for _, ms := range byMetric {
		out = append(out, *ms)
	}
	sort.Slice(out, func(i, j int) bool {
		return metricreg.MetricLess(out[i].Family, out[i].Metric, out[j].Family, out[j].Metric)
	})
	return out
}
