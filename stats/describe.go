package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Pairwise returns the pairwise-complete samples of x and y: the pairs
// (x[i], y[i]) where both are non-nil and finite, in their original order.
// A metric that failed or was not computed for a sample is nil, so this is
// the set every correlation between two metrics is computed over. It panics
// if x and y differ in length.
func Pairwise(x, y []*float64) (xs, ys []float64) {
	mustSameLen("Pairwise", len(x), len(y))
	for i := range x {
		if x[i] == nil || y[i] == nil || !Finite(*x[i]) || !Finite(*y[i]) {
			continue
		}
		xs = append(xs, *x[i])
		ys = append(ys, *y[i])
	}
	return xs, ys
}

// MeanStd returns the mean of x and its population standard deviation, the
// root mean squared deviation with divisor n (numpy.std(x)). It describes
// the scores actually observed, as in the sensitivity experiment's per-metric
// table; use SampleStd to estimate the spread of a population from x. For an
// empty x both are NaN.
func MeanStd(x []float64) (mean, std float64) {
	if len(x) == 0 {
		return math.NaN(), math.NaN()
	}
	mean = Mean(x)
	return mean, math.Sqrt(sumSq(x, mean) / float64(len(x)))
}

// SampleStd returns the sample standard deviation of x, with divisor n−1
// (numpy.std(x, ddof=1)). It is NaN when x has fewer than 2 values.
func SampleStd(x []float64) float64 {
	if len(x) < 2 {
		return math.NaN()
	}
	return math.Sqrt(sampleVar(x, Mean(x)))
}

// Mean returns the arithmetic mean of x, NaN for an empty x.
func Mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// Ranks returns the 1-based ranks of x, tied values sharing the mean of the
// ranks they span: Ranks([]float64{10, 20, 20, 30}) is [1 2.5 2.5 4]
// (scipy.stats.rankdata(x, method='average')). x must not contain NaN.
func Ranks(x []float64) []float64 {
	r, _ := ranks(x)
	return r
}

// ranks returns the average ranks of x and the size of each group of tied
// values (groups of one included), which the Wilcoxon variance needs.
func ranks(x []float64) (r []float64, ties []int) {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(x[a], x[b]) })
	r = make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && x[idx[j]] == x[idx[i]] {
			j++
		}
		// Positions i..j-1 hold ranks i+1..j; each gets their mean.
		avg := float64(i+1+j) / 2
		for k := i; k < j; k++ {
			r[idx[k]] = avg
		}
		ties = append(ties, j-i)
		i = j
	}
	return r, ties
}

// Hist is a histogram of equal-width bins over [Lo, Hi]. Bin i covers
// [Edges()[i], Edges()[i+1]), except the last, which also holds Hi.
type Hist struct {
	Lo, Hi float64
	Counts []int
	// Under and Over count the values below Lo and above Hi (−Inf and +Inf
	// included). NaN values are counted nowhere.
	Under, Over int
}

// Histogram counts the values of x in bins equal-width bins over [lo, hi];
// a value equal to hi goes in the last bin. Bin edges and the assignment of
// values that fall on an edge are those of numpy.histogram(x, bins,
// range=(lo, hi)). It panics unless bins ≥ 1 and lo < hi are finite, since
// callers pass a metric's fixed range, never one taken from the data.
func Histogram(x []float64, lo, hi float64, bins int) Hist {
	if bins < 1 || !Finite(lo) || !Finite(hi) || !(lo < hi) {
		panic(fmt.Sprintf("stats: Histogram needs bins >= 1 and finite lo < hi, got bins=%d lo=%v hi=%v", bins, lo, hi))
	}
	h := Hist{Lo: lo, Hi: hi, Counts: make([]int, bins)}
	edges := h.Edges()
	norm := float64(bins) / (hi - lo)
	for _, v := range x {
		switch {
		case math.IsNaN(v):
		case v < lo:
			h.Under++
		case v > hi:
			h.Over++
		default:
			// The scaled index can be one off for a value on an edge; the
			// edges decide, as in numpy.
			i := min(int((v-lo)*norm), bins-1)
			if v < edges[i] {
				i--
			} else if i < bins-1 && v >= edges[i+1] {
				i++
			}
			h.Counts[i]++
		}
	}
	return h
}

// Edges returns the len(h.Counts)+1 bin edges, computed as numpy.linspace
// does: Lo + i·(Hi−Lo)/bins, the last one exactly Hi.
func (h Hist) Edges() []float64 {
	n := len(h.Counts)
	if n == 0 {
		return nil
	}
	step := (h.Hi - h.Lo) / float64(n)
	e := make([]float64, n+1)
	for i := range n {
		e[i] = float64(i)*step + h.Lo
	}
	e[n] = h.Hi
	return e
}

// sumSq returns Σ(x−mean)².
func sumSq(x []float64, mean float64) float64 {
	var s float64
	for _, v := range x {
		d := v - mean
		s += d * d
	}
	return s
}

// sampleVar returns the sample variance of x around mean (divisor n−1).
func sampleVar(x []float64, mean float64) float64 {
	return sumSq(x, mean) / float64(len(x)-1)
}

// Finite reports whether v is neither NaN nor infinite.
func Finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Ptr returns a pointer to v (for the optional numbers of reports).
func Ptr(v float64) *float64 { return &v }

// MeanPtr is the mean of x, nil when x is empty.
func MeanPtr(x []float64) *float64 {
	if len(x) == 0 {
		return nil
	}
	return Ptr(Mean(x))
}

// allFinite reports whether every value of every slice is finite.
func allFinite(xs ...[]float64) bool {
	for _, x := range xs {
		for _, v := range x {
			if !Finite(v) {
				return false
			}
		}
	}
	return true
}

// constant reports whether all values of x are equal (true for an empty x).
func constant(x []float64) bool {
	for _, v := range x {
		if v != x[0] {
			return false
		}
	}
	return true
}

func mustSameLen(fn string, n, m int) {
	if n != m {
		panic(fmt.Sprintf("stats: %s needs paired data, got lengths %d and %d", fn, n, m))
	}
}
