package graphstore

import (
	"context"
	"encoding/json"
	"math"
	"sort"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
)

// This file holds the dashboard's reads of the metrics beside the KG scores
// (MetricScore nodes: triplet similarity, encoder and LLM-judged metrics)
// and of a run's sweep variants.

// MetricValue is one stored metric value of a sample as the dashboard shows
// it: a nil Value is null and Reason says why; Explanation is the stored
// JSON (absent from lists, and when none was stored or it is not JSON).
type MetricValue struct {
	Metric      string          `json:"metric"`
	Family      string          `json:"family"`
	Value       *float64        `json:"value"`
	Reason      string          `json:"reason,omitempty"`
	Explanation json.RawMessage `json:"explanation,omitempty"`
}

func metricLess(famA, a, famB, b string) bool {
	if ra, rb := kgeval.FamilyRank(famA), kgeval.FamilyRank(famB); ra != rb {
		return ra < rb
	}
	if famA != famB {
		return famA < famB
	}
	return a < b
}

// sampleMetrics reads every metric value of one sample with its
// explanation, in family then name order.
func (db *DB) sampleMetrics(ctx context.Context, run, id string) ([]MetricValue, error) {
	recs, err := db.read(ctx, cypher.MustGet("web_sample_metrics"), map[string]any{"prefix": kgeval.JoinKey(run, id, ""), "run": run, "sample": id})
	if err != nil {
		return nil, mapError(err, "read metric values")
	}
	out := make([]MetricValue, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		v := MetricValue{Metric: asString(m["metric"]), Family: asString(m["family"]), Value: floatOrNil(m["value"]), Reason: asString(m["reason"])}
		if e := asString(m["explanation"]); e != "" && json.Valid([]byte(e)) {
			v.Explanation = json.RawMessage(e)
		}
		out = append(out, v)
	}
	sort.SliceStable(out, func(i, j int) bool { return metricLess(out[i].Family, out[i].Metric, out[j].Family, out[j].Metric) })
	return out, nil
}

// metricsByUID reads stored metric values (no explanation) by MetricScore
// uid, grouped by sample.
func (db *DB) metricsByUID(ctx context.Context, uids []any) (map[string][]MetricValue, error) {
	out := map[string][]MetricValue{}
	if len(uids) == 0 {
		return out, nil
	}
	recs, err := db.read(ctx, cypher.MustGet("web_metrics_by_uid"), map[string]any{"uids": uids})
	if err != nil {
		return nil, mapError(err, "read metric values")
	}
	for _, r := range recs {
		m := r.AsMap()
		s := asString(m["sample"])
		out[s] = append(out[s], MetricValue{Metric: asString(m["metric"]), Family: asString(m["family"]), Value: floatOrNil(m["value"]), Reason: asString(m["reason"])})
	}
	return out, nil
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

// TopReasons is how many null reasons MetricStat keeps per metric.
const TopReasons = 5

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

// metricStats adds the distributions, per-system means and null reasons of
// a run's metric values to st (means keyed by metric name).
func (db *DB) metricStats(ctx context.Context, run string, st *RunStats, systems map[string]*SystemStats) error {
	recs, err := db.read(ctx, cypher.MustGet("web_run_metric_values"), map[string]any{"run": run})
	if err != nil {
		return mapError(err, "read run metric values")
	}
	type group struct {
		system string
		values []float64
	}
	byMetric := map[string]*MetricStat{}
	groups := map[string][]group{}
	for _, r := range recs {
		m := r.AsMap()
		name := asString(m["metric"])
		ms := byMetric[name]
		if ms == nil {
			ms = &MetricStat{Metric: name, Family: asString(m["family"]), Counts: make([]int, HistogramBins), Reasons: []NullReason{}}
			byMetric[name] = ms
		}
		g := group{system: asString(m["system"])}
		xs, _ := m["values"].([]any)
		for _, x := range xs {
			if v := floatOrNil(x); v != nil && !math.IsNaN(*v) {
				g.values = append(g.values, *v)
			}
		}
		ms.Nulls += int(asInt(m["n"])) - len(g.values)
		groups[name] = append(groups[name], g)
	}
	for name, ms := range byMetric {
		lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
		for _, g := range groups[name] {
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
		for _, g := range groups[name] {
			for _, v := range g.values {
				b := int(math.Floor((v - ms.Lo) / width))
				ms.Counts[max(0, min(b, HistogramBins-1))]++
			}
		}
	}
	recs, err = db.read(ctx, cypher.MustGet("web_run_metric_reasons"), map[string]any{"run": run})
	if err != nil {
		return mapError(err, "read run metric null reasons")
	}
	for _, r := range recs {
		m := r.AsMap()
		if ms := byMetric[asString(m["metric"])]; ms != nil && len(ms.Reasons) < TopReasons {
			ms.Reasons = append(ms.Reasons, NullReason{Reason: asString(m["reason"]), Count: int(asInt(m["n"]))})
		}
	}
	st.Metrics = make([]MetricStat, 0, len(byMetric))
	for _, ms := range byMetric {
		st.Metrics = append(st.Metrics, *ms)
	}
	sort.Slice(st.Metrics, func(i, j int) bool {
		return metricLess(st.Metrics[i].Family, st.Metrics[i].Metric, st.Metrics[j].Family, st.Metrics[j].Metric)
	})
	return nil
}

// SweepPoint is one pair's mean KG scores under one sweep variant.
type SweepPoint struct {
	Variant           string   `json:"variant"`
	Pair              string   `json:"pair"`
	Tau               float64  `json:"tau"`
	Delta             float64  `json:"delta"`
	Graphs            int      `json:"graphs"`
	Scored            int      `json:"scored"`
	Multihop          *float64 `json:"multihop"`
	CommunityOverlap  *float64 `json:"community_overlap"`
	CommunityCoverage *float64 `json:"community_coverage"`
}

// RunSweep returns, for every sweep variant stored for run (every variant
// but DefaultVariant), each pair's mean scores, ordered by tau, delta and
// pair; none when the run was never swept.
func (db *DB) RunSweep(ctx context.Context, run string) ([]SweepPoint, error) {
	recs, err := db.read(ctx, cypher.MustGet("web_run_sweep"), map[string]any{"run": run, "default": DefaultVariant})
	if err != nil {
		return nil, mapError(err, "read sweep")
	}
	out := make([]SweepPoint, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, SweepPoint{Variant: asString(m["variant"]), Pair: asString(m["pair"]), Tau: asFloat(m["tau"]), Delta: asFloat(m["delta"]),
			Graphs: int(asInt(m["graphs"])), Scored: int(asInt(m["scored"])), Multihop: floatOrNil(m["multihop"]),
			CommunityOverlap: floatOrNil(m["community_overlap"]), CommunityCoverage: floatOrNil(m["community_coverage"])})
	}
	return out, nil
}
