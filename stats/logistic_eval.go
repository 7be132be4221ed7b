package stats

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// The measures of a probabilistic classifier (a calibrated claim score, or
// any metric read as one) against 0/1 labels: the AUROC with DeLong's
// interval, the balanced accuracy at a threshold, and a threshold chosen by
// cross-validation.

// AUROCInterval returns AUROC(pos, neg) with its two-sided confidence
// interval at level (0.95 for 95%) after DeLong, DeLong and
// Clarke-Pearson (1988): with the placement values V10_i = P(neg < pos_i)
// + ½·P(neg = pos_i) and V01_j = P(pos > neg_j) + ½·P(pos = neg_j), Var(AUC)
// = s²(V10)/n_pos + s²(V01)/n_neg (sample variances, divisor n−1), and the
// interval is AUC ± z·√Var with z the standard normal quantile at
// (1+level)/2, clipped to [0, 1]. The placement values come from midranks
// (Sun and Xu 2014), O(n log n). ok is false when either side has fewer than
// 2 values or a non-finite value, or level is not in (0, 1).
func AUROCInterval(pos, neg []float64, level float64) (auc, lo, hi float64, ok bool) {
	if len(pos) < 2 || len(neg) < 2 || !allFinite(pos, neg) || !(level > 0 && level < 1) {
		return 0, 0, 0, false
	}
	np, nn := len(pos), len(neg)
	r := Ranks(append(append(make([]float64, 0, np+nn), pos...), neg...))
	rp, rn := Ranks(pos), Ranks(neg)
	v10, v01 := make([]float64, np), make([]float64, nn)
	for i := range pos {
		v10[i] = (r[i] - rp[i]) / float64(nn)
	}
	for j := range neg {
		v01[j] = 1 - (r[np+j]-rn[j])/float64(np)
	}
	auc = Mean(v10)
	se := math.Sqrt(sampleVar(v10, auc)/float64(np) + sampleVar(v01, Mean(v01))/float64(nn))
	z := distuv.UnitNormal.Quantile((1 + level) / 2)
	return auc, max(0, auc-z*se), min(1, auc+z*se), true
}

// BalancedAccuracy returns the mean of the true-positive and true-negative
// rates when a score at or above threshold predicts 1:
// sklearn.metrics.balanced_accuracy_score(y, scores >= threshold). ok is
// false when y lacks a class, holds a label other than 0 or 1, or a score
// is not finite. It panics when scores and y differ in length.
func BalancedAccuracy(scores []float64, y []int, threshold float64) (ba float64, ok bool) {
	mustSameLen("BalancedAccuracy", len(scores), len(y))
	if !allFinite(scores) {
		return 0, false
	}
	var c confusion
	for i, s := range scores {
		if !c.add(y[i], s >= threshold) {
			return 0, false
		}
	}
	return c.balanced()
}

// confusion counts positives (P), negatives (N), true positives and true
// negatives.
type confusion struct{ p, n, tp, tn int }

// add counts one row; false for a label other than 0 or 1.
func (c *confusion) add(y int, predicted bool) bool {
	switch y {
	case 1:
		c.p++
		if predicted {
			c.tp++
		}
	case 0:
		c.n++
		if !predicted {
			c.tn++
		}
	default:
		return false
	}
	return true
}

func (c *confusion) plus(o confusion) { c.p, c.n, c.tp, c.tn = c.p+o.p, c.n+o.n, c.tp+o.tp, c.tn+o.tn }

func (c confusion) balanced() (float64, bool) {
	if c.p == 0 || c.n == 0 {
		return 0, false
	}
	return (float64(c.tp)/float64(c.p) + float64(c.tn)/float64(c.n)) / 2, true
}

// BestThreshold returns the threshold that maximises BalancedAccuracy on
// (scores, y), with that balanced accuracy. The candidates are the
// smallest score (every row predicted 1: ½) and the midpoints between
// consecutive distinct scores; of equally good candidates the smallest wins.
// ok is false as for BalancedAccuracy.
func BestThreshold(scores []float64, y []int) (threshold, ba float64, ok bool) {
	mustSameLen("BestThreshold", len(scores), len(y))
	if len(scores) == 0 || !allFinite(scores) {
		return 0, 0, false
	}
	idx := make([]int, len(scores))
	var p, n int64
	for i := range idx {
		idx[i] = i
		switch y[i] {
		case 1:
			p++
		case 0:
			n++
		default:
			return 0, 0, false
		}
	}
	if p == 0 || n == 0 {
		return 0, 0, false
	}
	sort.SliceStable(idx, func(a, b int) bool { return scores[idx[a]] < scores[idx[b]] })
	// With every score at or below v predicted 0: fn positives and tn
	// negatives so; balanced accuracy ((p−fn)·n + tn·p) / (2·p·n), compared
	// as the integer numerator so that ties are exact.
	threshold = scores[idx[0]]
	best := p * n // all predicted 1: p·n / 2pn = ½
	var fn, tn int64
	for k := 0; k < len(idx); {
		v := scores[idx[k]]
		for ; k < len(idx) && scores[idx[k]] == v; k++ {
			if y[idx[k]] == 1 {
				fn++
			} else {
				tn++
			}
		}
		if k == len(idx) {
			break
		}
		if num := (p-fn)*n + tn*p; num > best {
			best, threshold = num, (v+scores[idx[k]])/2
		}
	}
	return threshold, float64(best) / float64(2*p*n), true
}

// Bootstrap settings of CVThreshold.
const (
	ThresholdResamples = 10000
	ThresholdSeed      = 1
)

// FoldThreshold is the threshold CVThreshold picked for one fold on the
// rows of the other folds, and how many rows the fold holds.
type FoldThreshold struct {
	Fold      int     `json:"fold"`
	Rows      int     `json:"rows"`
	Threshold float64 `json:"threshold"`
}

// ThresholdCV is the cross-validated balanced accuracy of a score at a
// threshold chosen on other data (CVThreshold).
type ThresholdCV struct {
	N int `json:"n"`
	// BalancedAccuracy is pooled over every row, each predicted with the
	// threshold of its fold; Lo and Hi its 95% percentile-bootstrap interval
	// over groups (Resamples draws, PCG seeded with Seed; Skipped draws that
	// held a single class were left out).
	BalancedAccuracy float64 `json:"balanced_accuracy"`
	Lo               float64 `json:"ci_lo"`
	Hi               float64 `json:"ci_hi"`
	Resamples        int     `json:"bootstrap_resamples"`
	Seed             uint64  `json:"bootstrap_seed"`
	Skipped          int     `json:"bootstrap_skipped,omitempty"`
	// Threshold is BestThreshold on all rows: the pass mark to use on new
	// data; Folds the thresholds the folds were predicted with.
	Threshold float64         `json:"threshold"`
	Folds     []FoldThreshold `json:"folds"`
}

// CVThreshold measures how well a threshold on scores, chosen on other
// data, separates y: each row's fold is its group's (GroupFold); for each
// fold, BestThreshold on the rows of the other folds is applied to the
// fold's rows, and the balanced accuracy is pooled over all rows. Its
// interval resamples groups with replacement (ThresholdResamples times,
// seed ThresholdSeed; the per-fold thresholds stay as they are), so that
// rows of one group stay together. Threshold is BestThreshold on all rows.
// Errors: folds < 2, lengths that differ, a non-finite score, a label
// other than 0 or 1, a single class, fewer than two folds holding rows, a
// fold whose other folds hold a single class.
func CVThreshold(scores []float64, y []int, groups []string, folds int) (ThresholdCV, error) {
	out := ThresholdCV{N: len(scores), Resamples: ThresholdResamples, Seed: ThresholdSeed}
	if folds < 2 {
		return out, fmt.Errorf("threshold cross-validation: %d folds: want at least 2", folds)
	}
	if len(y) != len(scores) || len(groups) != len(scores) {
		return out, fmt.Errorf("threshold cross-validation: %d scores, %d labels and %d groups", len(scores), len(y), len(groups))
	}
	t, _, ok := BestThreshold(scores, y)
	if !ok {
		return out, errors.New("threshold cross-validation: need finite scores and labels 0 and 1, both present")
	}
	out.Threshold = t
	fold := make([]int, len(scores))
	rows := make([]int, folds)
	for i, g := range groups {
		fold[i] = GroupFold(g, folds)
		rows[fold[i]]++
	}
	pred := make([]bool, len(scores))
	for k := range folds {
		if rows[k] == 0 {
			continue
		}
		var ts []float64
		var ty []int
		for i := range scores {
			if fold[i] != k {
				ts, ty = append(ts, scores[i]), append(ty, y[i])
			}
		}
		if len(ts) == 0 {
			return out, fmt.Errorf("threshold cross-validation: every row is in fold %d of %d: need at least 2 folds with rows (more groups)", k+1, folds)
		}
		tk, _, ok := BestThreshold(ts, ty)
		if !ok {
			return out, fmt.Errorf("threshold cross-validation fold %d of %d: the other folds hold a single class", k+1, folds)
		}
		out.Folds = append(out.Folds, FoldThreshold{Fold: k, Rows: rows[k], Threshold: tk})
		for i := range scores {
			if fold[i] == k {
				pred[i] = scores[i] >= tk
			}
		}
	}
	out.BalancedAccuracy, out.Lo, out.Hi, out.Skipped = pooledBalanced(y, pred, groups)
	return out, nil
}

// FixedThreshold is the balanced accuracy of scores at a threshold chosen
// beforehand (a calibration's pass mark), with CVThreshold's bootstrap
// interval over groups; Folds is empty and Threshold the one given.
// Errors: lengths that differ, a non-finite score, a label other than 0 or
// 1, a single class.
func FixedThreshold(scores []float64, y []int, groups []string, threshold float64) (ThresholdCV, error) {
	out := ThresholdCV{N: len(scores), Resamples: ThresholdResamples, Seed: ThresholdSeed, Threshold: threshold}
	if len(y) != len(scores) || len(groups) != len(scores) {
		return out, fmt.Errorf("fixed threshold: %d scores, %d labels and %d groups", len(scores), len(y), len(groups))
	}
	if _, ok := BalancedAccuracy(scores, y, threshold); !ok {
		return out, errors.New("fixed threshold: need finite scores and labels 0 and 1, both present")
	}
	pred := make([]bool, len(scores))
	for i, s := range scores {
		pred[i] = s >= threshold
	}
	out.BalancedAccuracy, out.Lo, out.Hi, out.Skipped = pooledBalanced(y, pred, groups)
	return out, nil
}

// pooledBalanced returns the balanced accuracy of the predictions pred
// (labels y, valid) and its percentile-bootstrap interval over groups:
// ThresholdResamples draws of as many groups as there are, with
// replacement (PCG seeded with ThresholdSeed), skipping (and counting) the
// draws that hold a single class.
func pooledBalanced(y []int, pred []bool, groups []string) (ba, lo, hi float64, skipped int) {
	// Counts per group, in order of first appearance.
	var order []string
	byGroup := map[string]*confusion{}
	var all confusion
	for i, g := range groups {
		c := byGroup[g]
		if c == nil {
			c = &confusion{}
			byGroup[g] = c
			order = append(order, g)
		}
		c.add(y[i], pred[i])
		all.add(y[i], pred[i])
	}
	ba, _ = all.balanced()
	counts := make([]confusion, len(order))
	for i, g := range order {
		counts[i] = *byGroup[g]
	}
	rng := rand.New(rand.NewPCG(ThresholdSeed, 0x9e3779b97f4a7c15))
	bas := make([]float64, 0, ThresholdResamples)
	for range ThresholdResamples {
		var c confusion
		for range counts {
			c.plus(counts[rng.IntN(len(counts))])
		}
		if b, ok := c.balanced(); ok {
			bas = append(bas, b)
		} else {
			skipped++
		}
	}
	lo, hi = percentileInterval(bas)
	return ba, lo, hi, skipped
}

// percentileInterval returns the 2.5% and 97.5% points of xs (sorted in
// place) as analysis/check.Bootstrap takes them: x_k for k = ceil(0.025·B) and
// ceil(0.975·B), 1-based; NaN for no value.
func percentileInterval(xs []float64) (lo, hi float64) {
	b := len(xs)
	if b == 0 {
		return math.NaN(), math.NaN()
	}
	sort.Float64s(xs)
	k := func(per1000 int) int { return (per1000*b + 999) / 1000 }
	return xs[max(k(25), 1)-1], xs[k(975)-1]
}
