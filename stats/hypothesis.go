package stats

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Test is the result of a two-sided hypothesis test.
type Test struct {
	// Stat is the test statistic: t for WelchT and PairedT, and for
	// WilcoxonSignedRank min(W+, W−), the smaller signed-rank sum, as
	// scipy.stats.wilcoxon reports it.
	Stat float64
	// P is the two-sided p-value.
	P float64
	// DF is the degrees of freedom of the t distribution (fractional for
	// WelchT); 0 for WilcoxonSignedRank, whose p-value is from the normal.
	DF float64
	// N is the number of observations the test used: len(a)+len(b) for
	// WelchT, the number of pairs for PairedT, the number of non-zero
	// differences for WilcoxonSignedRank.
	N int
}

// WelchT is the two-sided two-sample t-test without assuming equal
// variances: t = (mean(a) − mean(b)) / √(s_a²/n_a + s_b²/n_b) with
// Welch–Satterthwaite degrees of freedom
// (scipy.stats.ttest_ind(a, b, equal_var=False)). ok is false when either
// sample has fewer than 2 values or a non-finite value, or both have zero
// variance.
func WelchT(a, b []float64) (t Test, ok bool) {
	if len(a) < 2 || len(b) < 2 || !allFinite(a, b) {
		return Test{}, false
	}
	na, nb := float64(len(a)), float64(len(b))
	ma, mb := Mean(a), Mean(b)
	va, vb := sampleVar(a, ma)/na, sampleVar(b, mb)/nb
	se2 := va + vb
	if se2 == 0 {
		return Test{}, false
	}
	stat := (ma - mb) / math.Sqrt(se2)
	df := se2 * se2 / (va*va/(na-1) + vb*vb/(nb-1))
	return Test{Stat: stat, P: tP(stat, df), DF: df, N: len(a) + len(b)}, true
}

// PairedT is the two-sided paired t-test: the one-sample t-test of the
// differences a[i]−b[i] against 0, t = mean(d) / (s_d/√n) with n−1 degrees
// of freedom (scipy.stats.ttest_rel(a, b)). ok is false for fewer than 2
// pairs, a non-finite value, or differences that are all equal (s_d = 0,
// where t is undefined or infinite). It panics if a and b differ in length.
func PairedT(a, b []float64) (t Test, ok bool) {
	mustSameLen("PairedT", len(a), len(b))
	if len(a) < 2 || !allFinite(a, b) {
		return Test{}, false
	}
	d := diffs(a, b)
	if constant(d) {
		return Test{}, false
	}
	n := float64(len(d))
	md := Mean(d)
	stat := md / math.Sqrt(sampleVar(d, md)/n)
	df := n - 1
	return Test{Stat: stat, P: tP(stat, df), DF: df, N: len(d)}, true
}

// MeanCI returns the two-sided t confidence interval of the mean of x at
// level (0.95 for 95%): mean ± t_{(1+level)/2, n−1}·s/√n with the sample
// standard deviation s (scipy.stats.t.interval(level, n-1, loc=mean(x),
// scale=scipy.stats.sem(x))). Over paired differences a[i]−b[i] it is the
// interval of PairedT: it excludes 0 exactly when PairedT's p < 1 − level.
// A constant x gives [mean, mean], where SciPy gives NaN. ok is false for
// fewer than 2 values, a non-finite value or a level outside (0, 1).
func MeanCI(x []float64, level float64) (lo, hi float64, ok bool) {
	if len(x) < 2 || !allFinite(x) || !(level > 0 && level < 1) {
		return 0, 0, false
	}
	n := float64(len(x))
	m := Mean(x)
	h := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile((1+level)/2) * math.Sqrt(sampleVar(x, m)/n)
	return m - h, m + h, true
}

// WilcoxonSignedRank is the two-sided Wilcoxon signed-rank test of the
// differences a[i]−b[i] with the normal approximation, as
// scipy.stats.wilcoxon(a, b, zero_method='wilcox', correction=False,
// method='asymptotic') computes it: zero differences are dropped, the n
// remaining |differences| get average ranks, W+ and W− are the rank sums of
// the positive and negative differences, T = min(W+, W−), and
//
//	z = (T − n(n+1)/4) / √((n(n+1)(2n+1) − ½·Σ(t³−t)) / 24)
//
// over the sizes t of the groups of tied |differences|; p = 2·Φ(−|z|), with
// no continuity correction. ok is false when no difference is non-zero or a
// value is non-finite. It panics if a and b differ in length.
func WilcoxonSignedRank(a, b []float64) (t Test, ok bool) {
	mustSameLen("WilcoxonSignedRank", len(a), len(b))
	if !allFinite(a, b) {
		return Test{}, false
	}
	var d, abs []float64
	for _, v := range diffs(a, b) {
		if v != 0 {
			d = append(d, v)
			abs = append(abs, math.Abs(v))
		}
	}
	if len(d) == 0 {
		return Test{}, false
	}
	r, ties := ranks(abs)
	var wPlus, wMinus float64
	for i, v := range d {
		if v > 0 {
			wPlus += r[i]
		} else {
			wMinus += r[i]
		}
	}
	n := float64(len(d))
	var tieSum float64
	for _, c := range ties {
		tc := float64(c)
		tieSum += tc*tc*tc - tc
	}
	se := math.Sqrt((n*(n+1)*(2*n+1) - tieSum/2) / 24)
	stat := min(wPlus, wMinus)
	z := (stat - n*(n+1)/4) / se
	p := 2 * distuv.UnitNormal.CDF(-math.Abs(z))
	return Test{Stat: stat, P: p, N: len(d)}, true
}

// tP is the two-sided p-value P(|T| ≥ |t|) for T ~ Student's t with df
// degrees of freedom.
func tP(t, df float64) float64 {
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Survival(math.Abs(t))
}

func diffs(a, b []float64) []float64 {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return d
}
