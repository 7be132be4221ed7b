// Package stats holds the statistics behind kgeval's analysis commands
// (SPEC §8): correlations between metrics and against human labels, the
// descriptive numbers and separation measures of the sensitivity experiment,
// and the paired and unpaired tests used to compare systems. It is pure Go,
// does no I/O and knows nothing about samples or runs: callers hand it
// float64 slices.
//
// Each function computes exactly one textbook quantity and, where SciPy or
// NumPy has the same quantity, reproduces it (the tests hold SciPy values to
// 1e-9):
//
//   - Pairwise keeps the pairs where both values are present and finite, the
//     "pairwise-complete" samples every correlation is computed over.
//   - Pearson is the product-moment r with the two-sided p-value of
//     t = r·√(n−2)/√(1−r²) on n−2 degrees of freedom:
//     scipy.stats.pearsonr(x, y).
//   - Spearman is Pearson's r on average ranks (Ranks), with the same
//     two-sided t p-value: scipy.stats.spearmanr(x, y).
//   - Ranks gives 1-based ranks, ties sharing the mean of the ranks they
//     span: scipy.stats.rankdata(x, method='average').
//   - AUROC is P(pos > neg) + ½·P(pos = neg) over all positive/negative
//     pairs, the Mann–Whitney U of pos divided by n_pos·n_neg:
//     scipy.stats.mannwhitneyu(pos, neg).statistic / (len(pos)*len(neg)),
//     equal to sklearn.metrics.roc_auc_score.
//   - CohensD is (mean(a) − mean(b)) / s_pooled with
//     s_pooled² = ((n_a−1)s_a² + (n_b−1)s_b²) / (n_a+n_b−2) and sample
//     variances s² (divisor n−1).
//   - Mean is the arithmetic mean; MeanStd returns it with the population
//     standard deviation
//     (divisor n, numpy.std(x)); SampleStd is the sample standard deviation
//     (divisor n−1, numpy.std(x, ddof=1)).
//   - Histogram counts values in bins of equal width over [lo, hi], the last
//     bin closed: numpy.histogram(x, bins, range=(lo, hi)) for the values
//     inside the range; values outside are counted in Under and Over, and
//     Hist.Edges gives numpy.linspace(lo, hi, bins+1).
//   - WelchT is the two-sided unequal-variance t-test with
//     Welch–Satterthwaite degrees of freedom:
//     scipy.stats.ttest_ind(a, b, equal_var=False).
//   - PairedT is the two-sided t-test on the differences a−b:
//     scipy.stats.ttest_rel(a, b).
//   - MeanCI is the t confidence interval of a mean, mean ± t·s/√n on n−1
//     degrees of freedom: scipy.stats.t.interval(level, n-1, loc=mean(x),
//     scale=scipy.stats.sem(x)); over paired differences, PairedT's interval.
//   - WilcoxonSignedRank is the two-sided signed-rank test on a−b with the
//     normal approximation: zero differences dropped, tied |differences|
//     given average ranks, the variance tie-corrected, no continuity
//     correction: scipy.stats.wilcoxon(a, b, zero_method='wilcox',
//     correction=False, method='asymptotic') (the older name of that method
//     is 'approx').
//
// A result that is not defined for the data — too few values, a constant
// variable, a zero denominator, a NaN or infinity in the input — comes back
// with ok == false rather than as NaN, so callers can store null with a
// reason. Mismatched lengths for paired data are a programming error and
// panic.
package stats
