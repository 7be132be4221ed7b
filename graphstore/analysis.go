package graphstore

import (
	"context"

	"github.com/kgeval/kgeval/cypher"
)

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
