package analysis

import "github.com/kgeval/kgeval/stats"

// SweepMetric is one metric at one grid point of a sweep.
type SweepMetric struct {
	Metric string `json:"metric"`
	// N and Mean are over the run's rows (all groups).
	N    int      `json:"n"`
	Mean *float64 `json:"mean"`
	// MeanA and MeanB are the two groups' means; AUROC and CohensD the
	// separation of group A from group B (null without two groups).
	MeanA   *float64 `json:"mean_a,omitempty"`
	MeanB   *float64 `json:"mean_b,omitempty"`
	AUROC   *float64 `json:"auroc,omitempty"`
	CohensD *float64 `json:"cohens_d,omitempty"`
	Reason  string   `json:"reason,omitempty"`
}

// Point is one grid point (stored variant) of a sweep.
type Point struct {
	Variant string        `json:"variant"`
	Tau     float64       `json:"tau"`
	Delta   float64       `json:"delta"`
	Metrics []SweepMetric `json:"metrics"`
}

// SweepPoint summarises one variant: for each named metric the mean over
// all (the run's vectors at this variant) and, when a and b are both given
// (non-nil), their means and the separation of a from b.
func SweepPoint(variant string, tau, delta float64, all Vectors, a, b *Group, names []string) Point {
	pt := Point{Variant: variant, Tau: tau, Delta: delta, Metrics: []SweepMetric{}}
	for _, name := range names {
		vals := Present(all[name])
		sm := SweepMetric{Metric: name, N: len(vals), Mean: stats.MeanPtr(vals)}
		if a != nil && b != nil {
			pa, pb := Present(a.V[name]), Present(b.V[name])
			sm.MeanA, sm.MeanB = stats.MeanPtr(pa), stats.MeanPtr(pb)
			sm.AUROC, sm.CohensD, sm.Reason = separation(a.Name, b.Name, pa, pb)
		}
		pt.Metrics = append(pt.Metrics, sm)
	}
	return pt
}

// Subset returns the vectors of v restricted to the rows idx, in that order.
func (v Vectors) Subset(idx []int) Vectors {
	out := Vectors{}
	for name, x := range v {
		out[name] = pick(x, idx)
	}
	return out
}
