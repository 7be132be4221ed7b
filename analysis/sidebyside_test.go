package analysis_test

import (
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// TestSideBySide_OtherMetric: the samples of both runs by largest change
// of a KG metric of a pair, or of another metric (pair not used).
func TestSideBySide_OtherMetric(t *testing.T) {
	f := kgeval.Float
	row := func(id string, multihop, ts float64) readmodel.SampleScores {
		return readmodel.SampleScores{ID: id, Scores: map[string]kgeval.KGResult{"faithfulness": kgeval.KGResult{}.With(metricreg.MetricMultihop, f(multihop))},
			Metrics: map[string]kgeval.MetricScore{"ts_groundedness_avg": {Metric: "ts_groundedness_avg", Value: f(ts)}}}
	}
	a := []readmodel.SampleScores{row("s1", 1, 0.5), row("s2", 1, 0.5), row("only-a", 0, 0)}
	b := []readmodel.SampleScores{row("s1", 0.9, 0.1), row("s2", 0.5, 0.4), row("only-b", 0, 0)}
	pairs := []kgeval.Pair{{Name: "faithfulness"}}
	_, common, samples := analysis.SideBySide(a, b, pairs, []string{metricreg.MetricMultihop}, "faithfulness", metricreg.MetricMultihop)
	if common != 2 || len(samples) != 2 || samples[0].ID != "s2" || *samples[0].Diff != -0.5 {
		t.Errorf("multihop: %d %+v", common, samples)
	}
	_, _, samples = analysis.SideBySide(a, b, pairs, []string{metricreg.MetricMultihop}, "faithfulness", "ts_groundedness_avg")
	if len(samples) != 2 || samples[0].ID != "s1" || *samples[0].A != 0.5 || *samples[0].B != 0.1 {
		t.Errorf("ts_groundedness_avg: %+v", samples)
	}
}
