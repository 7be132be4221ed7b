package analysis_test

import (
	"reflect"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/readmodel"
)

// TestSweepAxes: taus and deltas distinct and ascending; pairs in the
// run's order, then the others in the points' order; empty (not nil)
// without points.
func TestSweepAxes(t *testing.T) {
	run := []kgeval.Pair{{Name: "faithfulness"}, {Name: "answer_relevancy"}, {Name: "context_relevancy"}}
	pts := []readmodel.VariantMeans{
		{Pair: "other", Tau: 0.8, Delta: 0.5},
		{Pair: "answer_relevancy", Tau: 0.8, Delta: 0.3},
		{Pair: "faithfulness", Tau: 0.6, Delta: 0.5},
		{Pair: "faithfulness", Tau: 0.6, Delta: 0.3},
		{Pair: "extra", Tau: 0.7, Delta: 0.3},
	}
	taus, deltas, pairs := analysis.SweepAxes(pts, run)
	if want := []float64{0.6, 0.7, 0.8}; !reflect.DeepEqual(taus, want) {
		t.Errorf("taus %v, want %v", taus, want)
	}
	if want := []float64{0.3, 0.5}; !reflect.DeepEqual(deltas, want) {
		t.Errorf("deltas %v, want %v", deltas, want)
	}
	if want := []string{"faithfulness", "answer_relevancy", "other", "extra"}; !reflect.DeepEqual(pairs, want) {
		t.Errorf("pairs %v, want %v", pairs, want)
	}
	taus, deltas, pairs = analysis.SweepAxes(nil, run)
	if taus == nil || deltas == nil || pairs == nil || len(taus)+len(deltas)+len(pairs) != 0 {
		t.Errorf("no points: %v %v %v", taus, deltas, pairs)
	}
	v := analysis.NewSweepView("r", analysis.Display{Tau: 0.7, Delta: 0.5, Pairs: run}, pts)
	if v.Run != "r" || v.Tau != 0.7 || v.Delta != 0.5 || len(v.Points) != 5 || len(v.Pairs) != 4 {
		t.Errorf("view: %+v", v)
	}
}
