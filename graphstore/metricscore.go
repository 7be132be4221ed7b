package graphstore

import (
	"context"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
)

// WriteMetricScores stores per-sample metric values of run (one
// MetricScore node per sample and metric); rewriting replaces.
func (db *DB) WriteMetricScores(ctx context.Context, run string, scores []kgeval.MetricScore) error {
	rows := make([]any, 0, len(scores))
	for _, s := range scores {
		rows = append(rows, map[string]any{"uid": kgeval.JoinKey(run, s.Sample, s.Metric), "run": run, "sample": s.Sample,
			"metric": s.Metric, "family": s.Family, "value": optional(s.Value), "reason": s.Reason, "explanation": string(s.Explanation)})
	}
	for lo := 0; lo < len(rows); lo += 2000 {
		if _, err := db.write(ctx, cypher.MustGet("metricscore_write"), map[string]any{"rows": rows[lo:min(lo+2000, len(rows))]}); err != nil {
			return mapError(err, "write metric scores")
		}
	}
	return nil
}

// MetricsDone returns, per sample of run, the names of the metrics stored.
func (db *DB) MetricsDone(ctx context.Context, run string) (map[string]map[string]bool, error) {
	recs, err := db.read(ctx, cypher.MustGet("metricscore_counts"), map[string]any{"run": run})
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
// explanations.
func (db *DB) ReadMetricScores(ctx context.Context, run, sample string) ([]kgeval.MetricScore, error) {
	recs, err := db.read(ctx, cypher.MustGet("metricscore_read"), map[string]any{"run": run, "sample": sample})
	if err != nil {
		return nil, mapError(err, "read metric scores")
	}
	out := make([]kgeval.MetricScore, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		s := kgeval.MetricScore{Sample: sample, Metric: asString(m["metric"]), Family: asString(m["family"]), Reason: asString(m["reason"])}
		if v, ok := m["value"].(float64); ok {
			s.Value = &v
		}
		if e := asString(m["explanation"]); e != "" {
			s.Explanation = []byte(e)
		}
		out = append(out, s)
	}
	return out, nil
}
