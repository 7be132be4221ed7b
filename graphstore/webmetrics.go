package graphstore

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
)

// This file holds the dashboard's reads of the metrics beside the KG scores
// (MetricScore nodes: triplet similarity, encoder and LLM-judged metrics)
// and of a run's sweep variants.

// sampleMetrics reads every metric value of one sample with its
// explanation, in family then name order.
func (db *DB) sampleMetrics(ctx context.Context, run, id string) ([]kgeval.MetricValue, error) {
	recs, err := db.read(ctx, cypher.MustGet("web_sample_metrics"), map[string]any{"prefix": kgeval.JoinKey(run, id, ""), "run": run, "sample": id})
	if err != nil {
		return nil, mapError(err, "read metric values")
	}
	out := make([]kgeval.MetricValue, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		v := kgeval.MetricValue{Metric: asString(m["metric"]), Family: asString(m["family"]), Value: floatOrNil(m["value"]), Reason: asString(m["reason"])}
		if e := asString(m["explanation"]); e != "" && json.Valid([]byte(e)) {
			v.Explanation = json.RawMessage(e)
		}
		out = append(out, v)
	}
	sort.SliceStable(out, func(i, j int) bool {
		return kgeval.MetricLess(out[i].Family, out[i].Metric, out[j].Family, out[j].Metric)
	})
	return out, nil
}

// metricsByUID reads stored metric values (no explanation) by MetricScore
// uid, grouped by sample.
func (db *DB) metricsByUID(ctx context.Context, uids []any) (map[string][]kgeval.MetricValue, error) {
	out := map[string][]kgeval.MetricValue{}
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
		out[s] = append(out[s], kgeval.MetricValue{Metric: asString(m["metric"]), Family: asString(m["family"]), Value: floatOrNil(m["value"]), Reason: asString(m["reason"])})
	}
	return out, nil
}

// RunSweep returns, for every sweep variant stored for run (every variant
// but kgeval.DefaultVariant), each pair's mean scores, ordered by tau, delta and
// pair; none when the run was never swept.
func (db *DB) RunSweep(ctx context.Context, run string) ([]kgeval.VariantMeans, error) {
	recs, err := db.read(ctx, cypher.MustGet("web_run_sweep"), map[string]any{"run": run, "default": kgeval.DefaultVariant})
	if err != nil {
		return nil, mapError(err, "read sweep")
	}
	out := make([]kgeval.VariantMeans, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, kgeval.VariantMeans{Variant: asString(m["variant"]), Pair: asString(m["pair"]), Tau: asFloat(m["tau"]), Delta: asFloat(m["delta"]),
			Graphs: int(asInt(m["graphs"])), Scored: int(asInt(m["scored"])), Multihop: floatOrNil(m["multihop"]),
			CommunityOverlap: floatOrNil(m["community_overlap"]), CommunityCoverage: floatOrNil(m["community_coverage"])})
	}
	return out, nil
}

// RunScoreRows returns every KG score of a run's variant with its sample's
// system (the verdicts left out).
func (db *DB) RunScoreRows(ctx context.Context, run, variant string) ([]kgeval.SystemScore, error) {
	if variant == "" {
		variant = kgeval.DefaultVariant
	}
	recs, err := db.read(ctx, cypher.MustGet("web_run_scores"), map[string]any{"run": run, "variant": variant, "sep": kgeval.KeySep})
	if err != nil {
		return nil, mapError(err, "read run scores")
	}
	out := make([]kgeval.SystemScore, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, kgeval.SystemScore{System: asString(m["system"]), Score: kgResultFrom("", m["score"])})
	}
	return out, nil
}

// RunMetricGroups returns a run's metric values grouped by metric and by
// the system of their sample.
func (db *DB) RunMetricGroups(ctx context.Context, run string) ([]kgeval.MetricGroup, error) {
	recs, err := db.read(ctx, cypher.MustGet("web_run_metric_values"), map[string]any{"run": run})
	if err != nil {
		return nil, mapError(err, "read run metric values")
	}
	out := make([]kgeval.MetricGroup, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		g := kgeval.MetricGroup{Metric: asString(m["metric"]), Family: asString(m["family"]), System: asString(m["system"]), N: int(asInt(m["n"]))}
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
func (db *DB) RunNullReasons(ctx context.Context, run string) ([]kgeval.ReasonCount, error) {
	recs, err := db.read(ctx, cypher.MustGet("web_run_metric_reasons"), map[string]any{"run": run})
	if err != nil {
		return nil, mapError(err, "read run metric null reasons")
	}
	out := make([]kgeval.ReasonCount, 0, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		out = append(out, kgeval.ReasonCount{Metric: asString(m["metric"]), Reason: asString(m["reason"]), N: int(asInt(m["n"]))})
	}
	return out, nil
}
