package stats

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
)

// Logistic is an L2-penalised logistic regression on standardised
// features: P(y = 1 | x) = σ(Intercept + Σ_j Coef_j·(x_j − Mean_j)/Scale_j)
// with σ(z) = 1/(1 + e^−z). Mean and Scale are the features' means and
// population standard deviations on the data it was fitted on (1 for a
// constant feature), as sklearn.preprocessing.StandardScaler computes them;
// Lambda is the penalty it was fitted with. The JSON form is the one the
// calibration file carries.
type Logistic struct {
	Names     []string  `json:"names"`
	Mean      []float64 `json:"mean"`
	Scale     []float64 `json:"scale"`
	Coef      []float64 `json:"coef"`
	Intercept float64   `json:"intercept"`
	Lambda    float64   `json:"lambda"`
}

// Predict returns P(y = 1) for one feature vector, in the order of Names.
// It panics when x has another length than Coef.
func (m Logistic) Predict(x []float64) float64 {
	mustSameLen("Logistic.Predict", len(x), len(m.Coef))
	z := m.Intercept
	for j, v := range x {
		z += m.Coef[j] * (v - m.Mean[j]) / m.Scale[j]
	}
	return Sigmoid(z)
}

// Fit settings: Newton steps stop when the largest change of a parameter
// is below logisticTol, and fail after logisticMaxIter steps.
const (
	logisticTol     = 1e-10
	logisticMaxIter = 100
)

// FitLogisticSigned is FitLogistic where signs (nil: none) give each
// feature the sign its coefficient must have (+1, -1, 0 for either): while
// a coefficient has the wrong sign, the feature furthest from its sign is
// left out (its column set to 0: coefficient 0) and the rest are refitted.
// A feature that helps only against its meaning on the fitting data (more
// support lowering the score) then cannot carry that quirk to other data.
func FitLogisticSigned(x [][]float64, y []int, names []string, lambda float64, signs []int) (Logistic, error) {
	x = slices.Clone(x)
	for {
		m, err := FitLogistic(x, y, names, lambda)
		if err != nil || len(signs) == 0 {
			return m, err
		}
		worst, by := -1, 0.0
		for j, sg := range signs {
			if j < len(m.Coef) && sg != 0 && m.Coef[j]*float64(sg) < by {
				worst, by = j, m.Coef[j]*float64(sg)
			}
		}
		if worst < 0 {
			return m, nil
		}
		// The feature least in line with its sign leaves the model: its
		// column becomes 0 (scale 1, coefficient 0), and the rest refit.
		for i := range x {
			x[i] = slices.Clone(x[i])
			x[i][worst] = 0
		}
	}
}

// FitLogistic fits a logistic regression of y (0 or 1) on the rows of x
// (one feature vector each, in the order of names; names may be nil) by
// Newton's method (iteratively reweighted least squares) on the
// standardised features, minimising
//
//	Σ_i [log(1 + e^{z_i}) − y_i·z_i] + (lambda/2)·Σ_j Coef_j²,
//
// the negative log-likelihood with an L2 penalty on the coefficients and
// none on the intercept. That is scikit-learn's
// LogisticRegression(C=1/lambda) on StandardScaler's output (lambda 0:
// no penalty). Each step solves the penalised Newton system by Cholesky and
// is halved until the objective does not grow; the same data give the same
// model. Errors: no row, rows of other lengths than names, a value that is
// not finite, a label other than 0 or 1, a single class in y, a negative or
// non-finite lambda, a constant feature with lambda 0 (it has no
// coefficient) and no convergence (with lambda 0, separable classes).
func FitLogistic(x [][]float64, y []int, names []string, lambda float64) (Logistic, error) {
	pos, err := checkLogisticData(x, y, names, lambda)
	if err != nil {
		return Logistic{}, err
	}
	m, err := newLogistic(x, names, lambda)
	if err != nil {
		return Logistic{}, err
	}
	n := len(x)
	z := m.design(x)
	beta := make([]float64, len(z[0]))
	beta[0] = math.Log(float64(pos) / float64(n-pos))
	if beta, err = newtonFit(z, y, beta, lambda); err != nil {
		return Logistic{}, err
	}
	m.Intercept = beta[0]
	copy(m.Coef, beta[1:])
	return m, nil
}

// checkLogisticData checks FitLogistic's arguments and returns how many
// labels are 1.
func checkLogisticData(x [][]float64, y []int, names []string, lambda float64) (pos int, err error) {
	n := len(x)
	if n == 0 {
		return 0, errors.New("logistic fit: no data")
	}
	if len(y) != n {
		return 0, fmt.Errorf("logistic fit: %d rows and %d labels", n, len(y))
	}
	p := len(x[0])
	if names != nil && len(names) != p {
		return 0, fmt.Errorf("logistic fit: %d names for %d features", len(names), p)
	}
	if lambda < 0 || !Finite(lambda) {
		return 0, fmt.Errorf("logistic fit: lambda %v: want a finite value >= 0", lambda)
	}
	for i, row := range x {
		if len(row) != p {
			return 0, fmt.Errorf("logistic fit: row %d has %d features, want %d", i, len(row), p)
		}
		if !allFinite(row) {
			return 0, fmt.Errorf("logistic fit: row %d has a value that is not finite", i)
		}
		switch y[i] {
		case 1:
			pos++
		case 0:
		default:
			return 0, fmt.Errorf("logistic fit: label %d of row %d: want 0 or 1", y[i], i)
		}
	}
	if pos == 0 || pos == n {
		return 0, fmt.Errorf("logistic fit: every label is %d: need both classes", y[0])
	}
	return pos, nil
}

// newLogistic returns a model with the features' means and scales and no
// coefficients yet. A constant feature gets scale 1 (its standardised
// column is 0), which only a penalty can fit.
func newLogistic(x [][]float64, names []string, lambda float64) (Logistic, error) {
	p := len(x[0])
	m := Logistic{Names: append([]string(nil), names...), Mean: make([]float64, p), Scale: make([]float64, p), Coef: make([]float64, p), Lambda: lambda}
	if names == nil {
		m.Names = nil
	}
	col := make([]float64, len(x))
	for j := range p {
		for i := range x {
			col[i] = x[i][j]
		}
		m.Mean[j], m.Scale[j] = MeanStd(col)
		if m.Scale[j] == 0 || constant(col) {
			if lambda == 0 {
				return Logistic{}, fmt.Errorf("logistic fit: feature %s is constant: it has no coefficient without a penalty", featureName(names, j))
			}
			m.Scale[j] = 1
		}
	}
	return m, nil
}

// design returns x standardised with m's means and scales, each row with a
// leading 1 for the intercept.
func (m Logistic) design(x [][]float64) [][]float64 {
	k := len(m.Mean) + 1
	z := make([][]float64, len(x))
	for i, row := range x {
		z[i] = make([]float64, k)
		z[i][0] = 1
		for j, v := range row {
			z[i][j+1] = (v - m.Mean[j]) / m.Scale[j]
		}
	}
	return z
}

// newtonFit minimises the penalised negative log-likelihood over the
// design z from beta (intercept first, unpenalised) by Newton steps with a
// halving line search, and returns the coefficients.
func newtonFit(z [][]float64, y []int, beta []float64, lambda float64) ([]float64, error) {
	k := len(beta)
	obj := logisticObjective(z, y, beta, lambda)
	g := make([]float64, k)
	h := make([]float64, k*k)
	for iter := 0; ; iter++ {
		if iter == logisticMaxIter {
			return nil, fmt.Errorf("logistic fit: no convergence after %d Newton steps: separable classes? (fit with lambda > 0)", logisticMaxIter)
		}
		newtonSystem(z, y, beta, lambda, g, h)
		d, ok := cholSolve(h, g, k)
		if !ok {
			return nil, errors.New("logistic fit: the Newton system is singular: separable classes or collinear features (fit with lambda > 0)")
		}
		next := make([]float64, k)
		step := 1.0
		var nobj float64
		for range 60 {
			for a := range k {
				next[a] = beta[a] - step*d[a]
			}
			if nobj = logisticObjective(z, y, next, lambda); nobj <= obj {
				break
			}
			step /= 2
		}
		change := 0.0
		for a := range k {
			change = max(change, math.Abs(next[a]-beta[a]))
		}
		beta, obj = next, min(nobj, obj)
		if change < logisticTol {
			return beta, nil
		}
	}
}

// newtonSystem fills g and h (k×k, row-major) with the gradient and the
// Hessian of the penalised objective at beta.
func newtonSystem(z [][]float64, y []int, beta []float64, lambda float64, g, h []float64) {
	k := len(beta)
	clear(g)
	clear(h)
	for i, zi := range z {
		pi := Sigmoid(dot(zi, beta))
		w := pi * (1 - pi)
		r := pi - float64(y[i])
		for a := range k {
			g[a] += r * zi[a]
			for b := 0; b <= a; b++ {
				h[a*k+b] += w * zi[a] * zi[b]
			}
		}
	}
	for a := 1; a < k; a++ {
		g[a] += lambda * beta[a]
		h[a*k+a] += lambda
	}
	for a := range k {
		for b := 0; b < a; b++ {
			h[b*k+a] = h[a*k+b]
		}
	}
}

func featureName(names []string, j int) string {
	if j < len(names) {
		return fmt.Sprintf("%q", names[j])
	}
	return fmt.Sprint(j)
}

// logisticObjective is the penalised negative log-likelihood FitLogistic
// minimises.
func logisticObjective(z [][]float64, y []int, beta []float64, lambda float64) float64 {
	var s float64
	for i, zi := range z {
		t := dot(zi, beta)
		s += softplus(t) - float64(y[i])*t
	}
	for _, b := range beta[1:] {
		s += lambda / 2 * b * b
	}
	return s
}

// cholSolve solves the symmetric positive definite system a·x = b (a k×k,
// row-major) by Cholesky; ok is false when a is not positive definite.
func cholSolve(a, b []float64, k int) (x []float64, ok bool) {
	l := make([]float64, k*k)
	for i := range k {
		for j := 0; j <= i; j++ {
			s := a[i*k+j]
			for t := range j {
				s -= l[i*k+t] * l[j*k+t]
			}
			if i == j {
				if s <= 1e-300 || !Finite(s) {
					return nil, false
				}
				l[i*k+i] = math.Sqrt(s)
			} else {
				l[i*k+j] = s / l[j*k+j]
			}
		}
	}
	x = make([]float64, k)
	for i := range k { // L·u = b
		s := b[i]
		for t := range i {
			s -= l[i*k+t] * x[t]
		}
		x[i] = s / l[i*k+i]
	}
	for i := k - 1; i >= 0; i-- { // Lᵀ·x = u
		s := x[i]
		for t := i + 1; t < k; t++ {
			s -= l[t*k+i] * x[t]
		}
		x[i] = s / l[i*k+i]
	}
	return x, true
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// Sigmoid is 1/(1 + e^−z), without overflow for large |z| (0 and 1 at
// −∞ and +∞).
func Sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

// softplus is log(1 + e^z), without overflow for large z.
func softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}

// GroupFold returns the cross-validation fold (0 ≤ fold < folds) of a
// group: the SHA-256 digest of the group's name read as a 256-bit unsigned
// big-endian integer, modulo folds. It is Python's
// int(hashlib.sha256(group.encode()).hexdigest(), 16) % folds. It panics
// when folds < 1.
func GroupFold(group string, folds int) int {
	if folds < 1 {
		panic(fmt.Sprintf("stats: GroupFold with %d folds", folds))
	}
	sum := sha256.Sum256([]byte(group))
	return int(new(big.Int).Mod(new(big.Int).SetBytes(sum[:]), big.NewInt(int64(folds))).Int64())
}

// CrossValidate returns out-of-fold predictions of FitLogistic with
// penalty lambda: row i is predicted by the model fitted on the rows of
// every other fold, the fold of a row being its group's (GroupFold), so that
// the rows of one group are never both fitted on and predicted. Errors:
// folds < 2, lengths that differ, fewer than two folds holding rows, and
// those of FitLogistic on a fold's training rows (named by the fold).
func CrossValidate(x [][]float64, y []int, groups []string, folds int, lambda float64) (oof []float64, err error) {
	return CrossValidateSigned(x, y, groups, folds, lambda, nil)
}

// CrossValidateSigned is CrossValidate with each fold fitted by
// FitLogisticSigned under signs.
func CrossValidateSigned(x [][]float64, y []int, groups []string, folds int, lambda float64, signs []int) (oof []float64, err error) {
	if folds < 2 {
		return nil, fmt.Errorf("cross-validation: %d folds: want at least 2", folds)
	}
	if len(y) != len(x) || len(groups) != len(x) {
		return nil, fmt.Errorf("cross-validation: %d rows, %d labels and %d groups", len(x), len(y), len(groups))
	}
	fold := make([]int, len(x))
	used := map[int]bool{}
	for i, g := range groups {
		fold[i] = GroupFold(g, folds)
		used[fold[i]] = true
	}
	if len(used) < 2 {
		return nil, fmt.Errorf("cross-validation: the rows fall in %d of %d folds: need at least 2 (more groups)", len(used), folds)
	}
	oof = make([]float64, len(x))
	for k := range folds {
		if !used[k] {
			continue
		}
		var tx [][]float64
		var ty []int
		for i := range x {
			if fold[i] != k {
				tx, ty = append(tx, x[i]), append(ty, y[i])
			}
		}
		m, err := FitLogisticSigned(tx, ty, nil, lambda, signs)
		if err != nil {
			return nil, fmt.Errorf("cross-validation fold %d of %d: %w", k+1, folds, err)
		}
		for i := range x {
			if fold[i] == k {
				oof[i] = m.Predict(x[i])
			}
		}
	}
	return oof, nil
}
