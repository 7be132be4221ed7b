package graphstore

import (
	"context"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
)

// RunScores returns the rows ExportScores returns, read with three scans —
// the run's samples, the variant's KG scores, the run's other metric values
// — joined here. Its cost grows with the size of the run, where
// ExportScores' lookup per sample grows with its square: on a 10,001-sample
// run with 19 metric values per sample ExportScores exceeded the 2-minute
// query timeout, and `kgeval compare` over this read took 14 s in all.
func (db *DB) RunScores(ctx context.Context, run, variant string) ([]kgeval.SampleScores, error) {
	recs, err := db.read(ctx, cypher.MustGet("analysis_samples"), map[string]any{"run": run})
	if err != nil {
		return nil, mapError(err, "read samples")
	}
	out := make([]kgeval.SampleScores, 0, len(recs))
	index := make(map[string]int, len(recs))
	for _, r := range recs {
		m := r.AsMap()
		row := kgeval.SampleScores{ID: asString(m["id"]), Record: int(asInt(m["record"])), System: asString(m["system"]),
			Question: asString(m["question"]), Human: asString(m["human"]), Scores: map[string]kgeval.KGResult{}, Metrics: map[string]kgeval.MetricScore{}}
		index[row.ID] = len(out)
		out = append(out, row)
	}
	if recs, err = db.read(ctx, cypher.MustGet("analysis_pair_scores"), map[string]any{"run": run, "variant": variant}); err != nil {
		return nil, mapError(err, "read scores")
	}
	for _, r := range recs {
		m := r.AsMap()
		i, ok := index[asString(m["sample"])]
		if !ok {
			continue
		}
		r := kgResultFrom(out[i].ID, m["score"])
		out[i].Scores[r.Pair] = r
	}
	if recs, err = db.read(ctx, cypher.MustGet("analysis_metric_scores"), map[string]any{"run": run}); err != nil {
		return nil, mapError(err, "read metric scores")
	}
	for _, r := range recs {
		m := r.AsMap()
		i, ok := index[asString(m["sample"])]
		if !ok {
			continue
		}
		s := kgeval.MetricScore{Sample: out[i].ID, Metric: asString(m["metric"]), Family: asString(m["family"]), Value: optFloat(m["value"]), Reason: asString(m["reason"])}
		out[i].Metrics[s.Metric] = s
	}
	return out, nil
}

func optFloat(x any) *float64 {
	if v, ok := x.(float64); ok {
		return &v
	}
	return nil
}

// MetricExplanations returns, per sample of run, the stored explanations
// (JSON) of the named metrics; samples and metrics without one are absent.
func (db *DB) MetricExplanations(ctx context.Context, run string, metrics []string) (map[string]map[string][]byte, error) {
	recs, err := db.read(ctx, cypher.MustGet("analysis_metric_explanations"), map[string]any{"run": run, "metrics": metrics})
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
