package stats

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// Corr is a correlation coefficient with its two-sided p-value and the
// number of pairs it was computed over.
type Corr struct {
	R, P float64
	N    int
}

// Pearson returns the Pearson product-moment correlation of x and y and its
// two-sided p-value under the null of no correlation, from Student's t with
// n−2 degrees of freedom (scipy.stats.pearsonr(x, y)). |r| = 1 gives p = 0.
// ok is false for fewer than 3 pairs, a constant x or y, or a non-finite
// value; pass the result of Pairwise. It panics if x and y differ in length.
func Pearson(x, y []float64) (c Corr, ok bool) {
	mustSameLen("Pearson", len(x), len(y))
	if len(x) < 3 || !allFinite(x, y) || constant(x) || constant(y) {
		return Corr{}, false
	}
	mx, my := Mean(x), Mean(y)
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	// Rounding can carry |r| a hair past 1.
	r := max(-1, min(1, sxy/math.Sqrt(sxx*syy)))
	return Corr{R: r, P: corrP(r, len(x)), N: len(x)}, true
}

// Spearman returns Spearman's rank correlation of x and y, Pearson's r on
// their average ranks (ties share a rank), and its two-sided p-value from
// Student's t with n−2 degrees of freedom, as scipy.stats.spearmanr(x, y)
// computes them. The not-ok cases are those of Pearson.
func Spearman(x, y []float64) (c Corr, ok bool) {
	mustSameLen("Spearman", len(x), len(y))
	if len(x) < 3 || !allFinite(x, y) || constant(x) || constant(y) {
		return Corr{}, false
	}
	return Pearson(Ranks(x), Ranks(y))
}

// corrP is the two-sided p-value of a correlation r over n pairs:
// P(|T| ≥ |t|) for t = r·√(df/(1−r²)) and T ~ Student's t with df = n−2
// degrees of freedom, which is the regularized incomplete beta function
// I_{1−r²}(df/2, 1/2). Writing it that way keeps precision as |r| → 1 and
// gives 0 at |r| = 1 without an infinite t.
func corrP(r float64, n int) float64 {
	df := float64(n - 2)
	return mathext.RegIncBeta(df/2, 0.5, (1-r)*(1+r))
}
