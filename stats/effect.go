package stats

import "math"

// AUROC returns the probability that a randomly chosen positive scores
// higher than a randomly chosen negative, ties counting one half: the
// Mann–Whitney U of pos divided by len(pos)·len(neg), the area under the ROC
// curve (scipy.stats.mannwhitneyu(pos, neg).statistic / (n1*n2)). 1 means
// every positive outscores every negative, 0.5 no separation. ok is false
// when either side is empty or holds a non-finite value.
func AUROC(pos, neg []float64) (auc float64, ok bool) {
	if len(pos) == 0 || len(neg) == 0 || !allFinite(pos, neg) {
		return 0, false
	}
	// Rank-sum form of U: O(n log n) instead of comparing every pair.
	r := Ranks(append(append(make([]float64, 0, len(pos)+len(neg)), pos...), neg...))
	var sum float64
	for _, v := range r[:len(pos)] {
		sum += v
	}
	n1, n2 := float64(len(pos)), float64(len(neg))
	u := sum - n1*(n1+1)/2
	return u / (n1 * n2), true
}

// CohensD returns Cohen's d for a against b, (mean(a) − mean(b)) / s, where
// s² = ((n_a−1)·s_a² + (n_b−1)·s_b²) / (n_a+n_b−2) pools the sample
// variances (divisor n−1). ok is false when either group has fewer than 2
// values or a non-finite value, or the pooled standard deviation is 0.
func CohensD(a, b []float64) (d float64, ok bool) {
	if len(a) < 2 || len(b) < 2 || !allFinite(a, b) {
		return 0, false
	}
	ma, mb := Mean(a), Mean(b)
	pooled := math.Sqrt((sumSq(a, ma) + sumSq(b, mb)) / float64(len(a)+len(b)-2))
	if pooled == 0 {
		return 0, false
	}
	return (ma - mb) / pooled, true
}
