package analysis

import (
	"slices"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/readmodel"
)

// SweepView is a run's sweep: each pair's mean KG scores at every grid
// point (tau, delta) stored by `kgeval sweep`, beside the run's own tau and
// delta. Points is empty when the run was never swept.
type SweepView struct {
	Run    string                   `json:"run"`
	Tau    float64                  `json:"tau"`
	Delta  float64                  `json:"delta"`
	Taus   []float64                `json:"taus"`
	Deltas []float64                `json:"deltas"`
	Pairs  []string                 `json:"pairs"`
	Points []readmodel.VariantMeans `json:"points"`
}

// NewSweepView is the sweep of run with display settings d from its
// stored grid points.
func NewSweepView(run string, d Display, pts []readmodel.VariantMeans) *SweepView {
	v := &SweepView{Run: run, Tau: d.Tau, Delta: d.Delta, Points: pts}
	v.Taus, v.Deltas, v.Pairs = SweepAxes(pts, d.Pairs)
	return v
}

// SweepAxes are the axes of a sweep's grid points: the distinct taus and
// deltas, ascending, and the pairs that have a point, in the run's pair
// order, then any other pair a point holds in the points' order. Each is
// empty, not nil, without points.
func SweepAxes(pts []readmodel.VariantMeans, runPairs []kgeval.Pair) (taus, deltas []float64, pairs []string) {
	taus, deltas, pairs = []float64{}, []float64{}, []string{}
	for _, p := range pts {
		if !slices.Contains(taus, p.Tau) {
			taus = append(taus, p.Tau)
		}
		if !slices.Contains(deltas, p.Delta) {
			deltas = append(deltas, p.Delta)
		}
	}
	slices.Sort(taus)
	slices.Sort(deltas)
	for _, p := range runPairs {
		for _, x := range pts {
			if x.Pair == p.Name {
				pairs = append(pairs, p.Name)
				break
			}
		}
	}
	for _, x := range pts {
		if !slices.Contains(pairs, x.Pair) {
			pairs = append(pairs, x.Pair)
		}
	}
	return taus, deltas, pairs
}
