package analysis

import (
	"fmt"

	"github.com/kgeval/kgeval/stats"
)

// Names of the sensitivity experiment's answer variants.
const (
	VariantOriginal          = "original"
	VariantReferenceAsAnswer = "reference_as_answer"
	VariantWrongAnswer       = "wrong_answer"
)

// VariantStats describes one variant's values of a metric.
type VariantStats struct {
	Variant string   `json:"variant"`
	N       int      `json:"n"`
	Null    int      `json:"null"`
	Mean    *float64 `json:"mean"`
	// Std is the population standard deviation (divisor n).
	Std  *float64   `json:"std"`
	Hist stats.Hist `json:"histogram"`
}

// Separation is one metric across the variants of the sensitivity
// experiment, with the separation of a positive variant from a negative one.
type Separation struct {
	Metric   string         `json:"metric"`
	Variants []VariantStats `json:"variants"`
	Pos      string         `json:"pos"`
	Neg      string         `json:"neg"`
	AUROC    *float64       `json:"auroc"`
	CohensD  *float64       `json:"cohens_d"`
	Reason   string         `json:"reason,omitempty"`
}

// Group is a named set of rows' vectors: a variant, a run or a system.
type Group struct {
	Name string
	V    Vectors
}

// Describe returns the statistics of x as variant name: count, nulls,
// mean, population std and a histogram of bins bins over [lo, hi].
func Describe(name string, x []*float64, lo, hi float64, bins int) VariantStats {
	vals := Present(x)
	s := VariantStats{Variant: name, N: len(vals), Null: len(x) - len(vals), Hist: stats.Histogram(vals, lo, hi, bins)}
	if len(vals) > 0 {
		m, sd := stats.MeanStd(vals)
		s.Mean, s.Std = stats.Ptr(m), stats.Ptr(sd)
	}
	return s
}

// Separate describes metric in every group (histogram of bins bins over
// Range(metric)) and computes AUROC and Cohen's d of group pos against group
// neg (pos is expected to score higher).
func Separate(metric string, groups []Group, pos, neg string, bins int) Separation {
	lo, hi := Range(metric)
	s := Separation{Metric: metric, Pos: pos, Neg: neg, Variants: []VariantStats{}}
	var p, n []float64
	for _, g := range groups {
		s.Variants = append(s.Variants, Describe(g.Name, g.V[metric], lo, hi, bins))
		switch g.Name {
		case pos:
			p = Present(g.V[metric])
		case neg:
			n = Present(g.V[metric])
		}
	}
	s.AUROC, s.CohensD, s.Reason = separation(pos, neg, p, n)
	return s
}

func separation(pos, neg string, p, n []float64) (auc, d *float64, reason string) {
	if a, ok := stats.AUROC(p, n); ok {
		auc = stats.Ptr(a)
	}
	if x, ok := stats.CohensD(p, n); ok {
		d = stats.Ptr(x)
	}
	switch {
	case auc == nil:
		reason = fmt.Sprintf("%s has %s and %s has %s", pos, Plural(len(p), "value", "values"), neg, Plural(len(n), "value", "values"))
	case d == nil && (len(p) < 2 || len(n) < 2):
		reason = fmt.Sprintf("Cohen's d needs 2 values on each side (%s %d, %s %d)", pos, len(p), neg, len(n))
	case d == nil:
		reason = "Cohen's d: both sides are constant (pooled standard deviation 0)"
	}
	return auc, d, reason
}
