package analysis

import (
	"fmt"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/stats"
)

// Corr is the correlation of two variables over their pairwise-complete
// samples. The coefficients and p-values are null, with Reason, when they
// are not defined (fewer than 3 samples, a constant variable).
type Corr struct {
	X string `json:"x"`
	Y string `json:"y"`
	// N is the number of pairwise-complete samples.
	N         int      `json:"n"`
	Pearson   *float64 `json:"pearson_r"`
	PearsonP  *float64 `json:"pearson_p"`
	Spearman  *float64 `json:"spearman_rho"`
	SpearmanP *float64 `json:"spearman_p"`
	Reason    string   `json:"reason,omitempty"`
}

// Matrix is the correlation of every pair of variables.
type Matrix struct {
	Variables []string `json:"variables"`
	// Pairs holds one entry per unordered pair, (Variables[i],
	// Variables[j]) for i < j, in row-major order.
	Pairs []Corr `json:"pairs"`
}

// Correlate correlates every pair of the named variables of v.
func Correlate(v Vectors, names []string) Matrix {
	m := Matrix{Variables: append([]string(nil), names...), Pairs: []Corr{}}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			m.Pairs = append(m.Pairs, correlate(names[i], names[j], v[names[i]], v[names[j]]))
		}
	}
	return m
}

func correlate(xn, yn string, x, y []*float64) Corr {
	xs, ys := stats.Pairwise(x, y)
	c := Corr{X: xn, Y: yn, N: len(xs)}
	p, okP := stats.Pearson(xs, ys)
	s, okS := stats.Spearman(xs, ys)
	if okP {
		c.Pearson, c.PearsonP = stats.Ptr(p.R), stats.Ptr(p.P)
	}
	if okS {
		c.Spearman, c.SpearmanP = stats.Ptr(s.R), stats.Ptr(s.P)
	}
	if !okP || !okS {
		c.Reason = corrReason(xn, yn, xs, ys)
	}
	return c
}

func corrReason(xn, yn string, xs, ys []float64) string {
	n := len(xs)
	switch cx, cy := constant(xs), constant(ys); {
	case n < 3:
		return fmt.Sprintf("%s pairwise-complete, need at least 3", Plural(n, "sample", "samples"))
	case cx && cy:
		return fmt.Sprintf("both are constant over the %d pairwise-complete samples", n)
	case cx:
		return fmt.Sprintf("%s is constant over the %d pairwise-complete samples", xn, n)
	case cy:
		return fmt.Sprintf("%s is constant over the %d pairwise-complete samples", yn, n)
	}
	return "not defined for these values"
}

// Get returns the correlation of x and y (in either order) and whether
// both are variables of m. The correlation of a variable with itself is 1
// over its present values.
func (m Matrix) Get(x, y string) (Corr, bool) {
	ix, iy := index(m.Variables, x), index(m.Variables, y)
	if ix < 0 || iy < 0 {
		return Corr{}, false
	}
	if ix == iy {
		return Corr{X: x, Y: y, Pearson: stats.Ptr(1), Spearman: stats.Ptr(1)}, true
	}
	if ix > iy {
		ix, iy = iy, ix
	}
	n := len(m.Variables)
	// Row ix holds n−1−ix pairs; the rows before it hold Σ (n−1−r).
	k := ix*(2*n-ix-1)/2 + (iy - ix - 1)
	return m.Pairs[k], true
}

func index(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func constant(x []float64) bool {
	for _, v := range x[min(1, len(x)):] {
		if v != x[0] {
			return false
		}
	}
	return true
}

// Human labels in CorrelateRows.
const (
	// HumanOff leaves human labels out.
	HumanOff = iota
	// HumanRequired adds every human label and fails when the rows hold
	// none that is numeric or mapped (the CLI's --human).
	HumanRequired
	// HumanIfValid adds every human label when the rows' labels can be
	// read, and says why in Correlation.HumanError when they cannot (the
	// dashboard).
	HumanIfValid
)

// CorrelateOptions choose the variables CorrelateRows correlates.
type CorrelateOptions struct {
	// Patterns select the metric variables (all when none); Select selects
	// them (default Vectors.Select, whose errors name --metrics).
	Patterns []string
	Select   func(v Vectors, patterns []string) ([]string, error)
	// Human is HumanOff, HumanRequired or HumanIfValid.
	Human int
	// MinVariables is how many variables with values are needed (an
	// error below).
	MinVariables int
}

// Correlation is the correlation matrix of a run's variables.
type Correlation struct {
	// Empty lists the selected variables without any value (left out).
	Empty []string
	// HumanError says why human labels were left out (HumanIfValid).
	HumanError string
	Matrix
}

// CorrelateRows correlates the variables of rows that o selects, each pair
// over its pairwise-complete samples: the one correlation path of the CLI
// and the dashboard. Errors: EINVALID for a pattern that selects nothing,
// for human labels that HumanRequired cannot use, and for fewer than
// MinVariables variables with values.
func CorrelateRows(rows []Row, o CorrelateOptions) (Correlation, error) {
	sel := o.Select
	if sel == nil {
		sel = Vectors.Select
	}
	v := MetricVectors(rows)
	names, err := sel(v, o.Patterns)
	if err != nil {
		return Correlation{}, err
	}
	var out Correlation
	switch o.Human {
	case HumanRequired:
		hv, err := HumanVectors(rows)
		if err != nil {
			return out, kgeval.Wrap(kgeval.EINVALID, err, "--human")
		}
		if len(hv) == 0 {
			return out, kgeval.Errorf(kgeval.EINVALID, "--human: no sample has a numeric or mapped human label (the README's Analysis section lists the mapping)")
		}
		v.Merge(hv)
		names = append(names, hv.Names()...)
	case HumanIfValid:
		if hv, err := HumanVectors(rows); err != nil {
			out.HumanError = err.Error()
		} else {
			v.Merge(hv)
			names = append(names, hv.Names()...)
		}
	}
	present, empty := v.Present(names)
	if len(present) < o.MinVariables {
		return out, kgeval.Errorf(kgeval.EINVALID, "need at least %d variables with values to correlate, have %d (%s)", o.MinVariables, len(present), strings.Join(present, ", "))
	}
	out.Empty, out.Matrix = empty, Correlate(v, present)
	return out, nil
}
