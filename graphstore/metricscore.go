package graphstore

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// Queries, resolved when the package loads.
var (
	qMetricscoreWrite        = statement("metricscore_write")
	qMetricscoreCounts       = statement("metricscore_counts")
	qMetricscoreSample       = statement("metricscore_sample")
	qMetricscoreByUid        = statement("metricscore_by_uid")
	qMetricscoreExplanations = statement("metricscore_explanations")
	qMetricscoreGroups       = statement("metricscore_groups")
	qMetricscoreNullReasons  = statement("metricscore_null_reasons")
)

// MetricScore nodes: the per-sample values of the other metrics.

// WriteMetricScores stores per-sample metric values of run (one
// MetricScore node per sample and metric); rewriting replaces.
func (db *DB) WriteMetricScores(ctx context.Context, run string, scores []kgeval.MetricScore) error {
	rows := make([]any, 0, len(scores))
	for _, s := range scores {
		rows = append(rows, map[string]any{"uid": kgeval.JoinKey(run, s.Sample, s.Metric), "run": run, "sample": s.Sample,
			"metric": s.Metric, "family": s.Family, "value": optional(s.Value), "reason": s.Reason, "explanation": string(s.Explanation)})
	}
	for lo := 0; lo < len(rows); lo += 2000 {
		if _, err := db.write(ctx, qMetricscoreWrite, map[string]any{"rows": rows[lo:min(lo+2000, len(rows))]}); err != nil {
			return mapError(err, "write metric scores")
		}
	}
	return nil
}

// MetricsDone returns, per sample of run, the names of the metrics stored.
func (db *DB) MetricsDone(ctx context.Context, run string) (map[string]map[string]bool, error) {
	recs, err := db.read(ctx, qMetricscoreCounts, map[string]any{"run": run})
	if err != nil {
		return nil, mapError(err, "read metric scores")
	}
	out := map[string]map[string]bool{}
	for _, r := range recs {
		m := r.AsMap()
		set := map[string]bool{}
		ms, _ := m["metrics"].([]any)
		for _, x := range ms {
			set[asString(x)] = true
		}
		out[asString(m["sample"])] = set
	}
	return out, nil
}

// ReadMetricScores returns the metric values of one sample with their
// explanations, in family then name order. A MetricScore uid starts with
// run and sample id, which the uid constraint's index finds without
// scanning the run.
func (db *DB) ReadMetricScores(ctx context.Context, run, sample string) ([]kgeval.MetricScore, error) {
	recs, err := db.read(ctx, qMetricscoreSample, map[string]any{"prefix": kgeval.JoinKey(run, sample, ""), "run": run, "sample": sample})
	if err != nil {
		return nil, mapError(err, "read metric scores")
	}
	out := make([]kgeval.MetricScore, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		s := kgeval.MetricScore{Sample: sample, Metric: asString(m["metric"]), Family: asString(m["family"]), Value: floatOrNil(m["value"]), Reason: asString(m["reason"])}
		if e := asString(m["explanation"]); e != "" {
			s.Explanation = []byte(e)
		}
		out = append(out, s)
	}
	return out, nil
}

// sampleMetrics reads every metric value of one sample with its
// explanation (when it is JSON), in display order (metricreg.MetricLess).
func (db *DB) sampleMetrics(ctx context.Context, run, id string) ([]readmodel.MetricValue, error) {
	ms, err := db.ReadMetricScores(ctx, run, id)
	if err != nil {
		return nil, err
	}
	out := make([]readmodel.MetricValue, 0, len(ms))
	for _, m := range ms {
		v := readmodel.MetricValue{Metric: m.Metric, Family: m.Family, Value: m.Value, Reason: m.Reason}
		if len(m.Explanation) > 0 && json.Valid(m.Explanation) {
			v.Explanation = json.RawMessage(m.Explanation)
		}
		out = append(out, v)
	}
	sort.SliceStable(out, func(i, j int) bool {
		return metricreg.MetricLess(out[i].Family, out[i].Metric, out[j].Family, out[j].Metric)
	})
	return out, nil
}

// metricsByUID reads stored metric values (no explanation) by MetricScore
// uid, grouped by sample.
func (db *DB) metricsByUID(ctx context.Context, uids []any) (map[string][]readmodel.MetricValue, error) {
	out := map[string][]readmodel.MetricValue{}
	if len(uids) == 0 {
		return out, nil
	}
	recs, err := db.read(ctx, qMetricscoreByUid, map[string]any{"uids": uids})
	if err != nil {
		return nil, mapError(err, "read metric values")
	}
	for _, r := range recs {
		m := r.AsMap()
		s := asString(m["sample"])
		out[s] = append(out[s], readmodel.MetricValue{Metric: asString(m["metric"]), Family: asString(m["family"]), Value: floatOrNil(m["value"]), Reason: asString(m["reason"])})
	}
	return out, nil
}

// MetricExplanations returns, per sample of run, the stored explanations
// (JSON) of the named metrics; samples and metrics without one are absent.
func (db *DB) MetricExplanations(ctx context.Context, run string, metrics []string) (map[string]map[string][]byte, error) {
	recs, err := db.read(ctx, qMetricscoreExplanations, map[string]any{"run": run, "metrics": metrics})
	if err != nil {
		return nil, mapError(err, "read metric explanations")
	}
	out := map[string]map[string][]byte{}
	for _, r := range recs {
		m := r.AsMap()
		sample := asString(m["sample"])
		if out[sample] == nil {
			out[sample] = map[string][]byte{}
		}
		out[sample][asString(m["metric"])] = []byte(asString(m["explanation"]))
	}
	return out, nil
}

// RunMetricGroups returns a run's metric values grouped by metric and by
// the system of their sample.
func (db *DB) RunMetricGroups(ctx context.Context, run string) ([]readmodel.MetricGroup, error) {
	recs, err := db.read(ctx, qMetricscoreGroups, map[string]any{"run": run})
	if err != nil {
		return nil, mapError(err, "read run metric values")
	}
	out := make([]readmodel.MetricGroup, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		g := readmodel.MetricGroup{Metric: asString(m["metric"]), Family: asString(m["family"]), System: asString(m["system"]), N: int(asInt(m["n"]))}
		xs, _ := m["values"].([]any)
		for _, x := range xs {
			if v := floatOrNil(x); v != nil {
				g.Values = append(g.Values, *v)
			}
		}
		out = append(out, g)
	}
	return out, nil
}

// RunNullReasons returns why a run's metric values are null: per metric
// (in name order) its reasons with counts, most frequent first.
func (db *DB) RunNullReasons(ctx context.Context, run string) ([]readmodel.ReasonCount, error) {
	recs, err := db.read(ctx, qMetricscoreNullReasons, map[string]any{"run": run})
	if err != nil {
		return nil, mapError(err, "read run metric null reasons")
	}
	out := make([]readmodel.ReasonCount, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, readmodel.ReasonCount{Metric: asString(m["metric"]), Reason: asString(m["reason"]), N: int(asInt(m["n"]))})
	}
	return out, nil
}
