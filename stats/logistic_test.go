package stats_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kgeval/kgeval/stats"
)

// The reference values of these tests come from scikit-learn 1.9.1 (and
// SciPy 1.17.1) on testdata/logistic_data.csv, written by
// testdata/logistic_reference.py into testdata/logistic_expected.json (see
// the script for each call).

// fitTol is the tolerance against scikit-learn's fits (its Newton solver
// stops at tol 1e-12, ours at parameter changes below 1e-10).
const fitTol = 1e-8

type logisticExpected struct {
	Folds int `json:"folds"`
	Fits  []struct {
		Lambda    float64   `json:"lambda"`
		Mean      []float64 `json:"mean"`
		Scale     []float64 `json:"scale"`
		Coef      []float64 `json:"coef"`
		Intercept float64   `json:"intercept"`
		Predict   []float64 `json:"predict"`
	} `json:"fits"`
	CV struct {
		Lambda float64   `json:"lambda"`
		Fold   []int     `json:"fold"`
		OOF    []float64 `json:"oof"`
	} `json:"cv"`
	AUROC            map[string]struct{ AUC, Lo, Hi float64 } `json:"auroc"`
	BalancedAccuracy []struct {
		Threshold        float64 `json:"threshold"`
		BalancedAccuracy float64 `json:"balanced_accuracy"`
	} `json:"balanced_accuracy"`
	CVThreshold struct {
		Folds            []stats.FoldThreshold `json:"folds"`
		BalancedAccuracy float64               `json:"balanced_accuracy"`
		Threshold        float64               `json:"threshold"`
	} `json:"cv_threshold"`
}

type logisticData struct {
	groups []string
	y      []int
	x      [][]float64
	want   logisticExpected
}

func mustLogisticData(tb testing.TB) logisticData {
	tb.Helper()
	f, err := os.Open("testdata/logistic_data.csv")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	var d logisticData
	for _, r := range recs[1:] {
		y, err := strconv.Atoi(r[1])
		if err != nil {
			tb.Fatal(err)
		}
		row := make([]float64, 3)
		for j := range row {
			if row[j], err = strconv.ParseFloat(r[2+j], 64); err != nil {
				tb.Fatal(err)
			}
		}
		d.groups, d.y, d.x = append(d.groups, r[0]), append(d.y, y), append(d.x, row)
	}
	b, err := os.ReadFile("testdata/logistic_expected.json")
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(b, &d.want); err != nil {
		tb.Fatal(err)
	}
	return d
}

func checkNear(tb testing.TB, name string, got, want, tol float64) {
	tb.Helper()
	if math.Abs(got-want) > tol*math.Max(1, math.Abs(want)) {
		tb.Errorf("%s = %.17g, want %.17g", name, got, want)
	}
}

func checkSlice(tb testing.TB, name string, got, want []float64, tol float64) {
	tb.Helper()
	if len(got) != len(want) {
		tb.Fatalf("%s: %d values, want %d", name, len(got), len(want))
	}
	for i := range got {
		checkNear(tb, name+"["+strconv.Itoa(i)+"]", got[i], want[i], tol)
	}
}

func TestFitLogistic(t *testing.T) {
	d := mustLogisticData(t)
	names := []string{"a", "b", "c"}
	for _, w := range d.want.Fits {
		t.Run("Lambda"+strconv.FormatFloat(w.Lambda, 'g', -1, 64), func(t *testing.T) {
			m, err := stats.FitLogistic(d.x, d.y, names, w.Lambda)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m.Names, names) || m.Lambda != w.Lambda {
				t.Errorf("names %v lambda %v", m.Names, m.Lambda)
			}
			checkSlice(t, "Mean", m.Mean, w.Mean, 1e-12)
			checkSlice(t, "Scale", m.Scale, w.Scale, 1e-12)
			checkSlice(t, "Coef", m.Coef, w.Coef, fitTol)
			checkNear(t, "Intercept", m.Intercept, w.Intercept, fitTol)
			got := make([]float64, len(d.x))
			for i, x := range d.x {
				got[i] = m.Predict(x)
			}
			checkSlice(t, "Predict", got, w.Predict, fitTol)
			again, _ := stats.FitLogistic(d.x, d.y, names, w.Lambda)
			if !slices.Equal(again.Coef, m.Coef) || again.Intercept != m.Intercept {
				t.Errorf("a second fit differs: %v %v, then %v %v", m.Coef, m.Intercept, again.Coef, again.Intercept)
			}
		})
	}

	t.Run("ConstantFeature", func(t *testing.T) {
		// A constant feature gets scale 1 and coefficient 0; the others are
		// those of the fit without it.
		x2 := make([][]float64, len(d.x))
		for i, x := range d.x {
			x2[i] = []float64{x[0], 7, x[1], x[2]}
		}
		m, err := stats.FitLogistic(x2, d.y, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		w := d.want.Fits[0]
		if m.Scale[1] != 1 || m.Mean[1] != 7 || m.Coef[1] != 0 || m.Names != nil {
			t.Errorf("constant feature: mean %v scale %v coef %v names %v", m.Mean[1], m.Scale[1], m.Coef[1], m.Names)
		}
		checkSlice(t, "Coef", []float64{m.Coef[0], m.Coef[2], m.Coef[3]}, w.Coef, fitTol)
		checkNear(t, "Intercept", m.Intercept, w.Intercept, fitTol)
	})

	for _, tt := range []struct {
		name   string
		x      [][]float64
		y      []int
		names  []string
		lambda float64
		want   string
	}{
		{"Empty", nil, nil, nil, 1, "no data"},
		{"OneClass", [][]float64{{1}, {2}, {3}}, []int{1, 1, 1}, nil, 1, "every label is 1"},
		{"BadLabel", [][]float64{{1}, {2}}, []int{0, 2}, nil, 1, "label 2 of row 1"},
		{"NaN", [][]float64{{1}, {math.NaN()}}, []int{0, 1}, nil, 1, "row 1 has a value that is not finite"},
		{"Ragged", [][]float64{{1, 2}, {3}}, []int{0, 1}, nil, 1, "row 1 has 1 features, want 2"},
		{"Lengths", [][]float64{{1}, {2}}, []int{0}, nil, 1, "2 rows and 1 labels"},
		{"Names", [][]float64{{1}, {2}}, []int{0, 1}, []string{"a", "b"}, 1, "2 names for 1 features"},
		{"NegativeLambda", [][]float64{{1}, {2}}, []int{0, 1}, nil, -1, "lambda -1"},
		{"ConstantNoPenalty", [][]float64{{1, 5}, {2, 5}, {3, 5}, {4, 5}}, []int{0, 1, 0, 1}, []string{"x", "k"}, 0, `feature "k" is constant`},
		{"Separable", [][]float64{{1}, {2}, {3}, {4}}, []int{0, 0, 1, 1}, nil, 0, "separable classes"},
	} {
		t.Run("Error/"+tt.name, func(t *testing.T) {
			_, err := stats.FitLogistic(tt.x, tt.y, tt.names, tt.lambda)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one with %q", err, tt.want)
			}
		})
	}

	t.Run("SeparablePenalised", func(t *testing.T) {
		// With a penalty separable classes have a finite fit.
		m, err := stats.FitLogistic([][]float64{{1}, {2}, {3}, {4}}, []int{0, 0, 1, 1}, nil, 1)
		if err != nil || !(m.Predict([]float64{4}) > 0.5 && m.Predict([]float64{1}) < 0.5) {
			t.Errorf("fit %+v, %v", m, err)
		}
	})
}

func TestLogistic_Predict(t *testing.T) {
	m := stats.Logistic{Mean: []float64{1, 0}, Scale: []float64{2, 1}, Coef: []float64{1, -1}, Intercept: 0.5}
	// z = 0.5 + (3−1)/2 − 0.25 = 1.25
	checkNear(t, "P", m.Predict([]float64{3, 0.25}), 1/(1+math.Exp(-1.25)), 1e-15)
	if p := m.Predict([]float64{1e6, 0}); p != 1 {
		t.Errorf("large z: %v", p)
	}
	if p := m.Predict([]float64{-1e6, 0}); p != 0 || math.IsNaN(p) {
		t.Errorf("small z: %v", p)
	}
	defer func() {
		if recover() == nil {
			t.Error("Predict with 1 feature for 2 coefficients did not panic")
		}
	}()
	m.Predict([]float64{1})
}

func TestLogistic_GroupFold(t *testing.T) {
	d := mustLogisticData(t)
	for i, g := range d.groups {
		if got := stats.GroupFold(g, d.want.Folds); got != d.want.CV.Fold[i] {
			t.Errorf("GroupFold(%q, %d) = %d, want %d", g, d.want.Folds, got, d.want.CV.Fold[i])
		}
	}
	if stats.GroupFold("x", 1) != 0 {
		t.Error("one fold")
	}
	defer func() {
		if recover() == nil {
			t.Error("GroupFold with 0 folds did not panic")
		}
	}()
	stats.GroupFold("x", 0)
}

func TestLogistic_CrossValidate(t *testing.T) {
	d := mustLogisticData(t)
	oof, err := stats.CrossValidate(d.x, d.y, d.groups, d.want.Folds, d.want.CV.Lambda)
	if err != nil {
		t.Fatal(err)
	}
	checkSlice(t, "oof", oof, d.want.CV.OOF, fitTol)

	for _, tt := range []struct {
		name   string
		groups []string
		folds  int
		want   string
	}{
		{"OneFold", d.groups, 1, "1 folds: want at least 2"},
		{"OneGroup", slices.Repeat([]string{"g"}, len(d.y)), 5, "fall in 1 of 5 folds"},
		{"Lengths", d.groups[1:], 5, "60 rows, 60 labels and 59 groups"},
	} {
		t.Run("Error/"+tt.name, func(t *testing.T) {
			_, err := stats.CrossValidate(d.x, d.y, tt.groups, tt.folds, 1)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one with %q", err, tt.want)
			}
		})
	}
	t.Run("Error/FoldOneClass", func(t *testing.T) {
		// Two groups in two folds, each one class: each training set has a
		// single class.
		// The second group is the first name that falls in the other fold.
		other := ""
		for i := 1; other == ""; i++ {
			if name := fmt.Sprintf("rec-%02d", i); stats.GroupFold(name, 2) != stats.GroupFold("rec-00", 2) {
				other = name
			}
		}
		g := []string{"rec-00", "rec-00", other, other}
		_, err := stats.CrossValidate([][]float64{{1}, {2}, {3}, {4}}, []int{0, 0, 1, 1}, g, 2, 1)
		if err == nil || !strings.Contains(err.Error(), "cross-validation fold") || !strings.Contains(err.Error(), "need both classes") {
			t.Errorf("err = %v", err)
		}
	})
}

func split(scores []float64, y []int) (pos, neg []float64) {
	for i, s := range scores {
		if y[i] == 1 {
			pos = append(pos, s)
		} else {
			neg = append(neg, s)
		}
	}
	return pos, neg
}

func TestAUROCInterval(t *testing.T) {
	d := mustLogisticData(t)
	col := func(j int) []float64 {
		out := make([]float64, len(d.x))
		for i, x := range d.x {
			out[i] = x[j]
		}
		return out
	}
	for name, scores := range map[string][]float64{"oof": d.want.CV.OOF, "a": col(0), "c": col(2)} {
		t.Run(name, func(t *testing.T) {
			pos, neg := split(scores, d.y)
			auc, lo, hi, ok := stats.AUROCInterval(pos, neg, 0.95)
			if !ok {
				t.Fatal("not ok")
			}
			w := d.want.AUROC[name]
			checkNear(t, "AUC", auc, w.AUC, 1e-12)
			checkNear(t, "lo", lo, w.Lo, 1e-12)
			checkNear(t, "hi", hi, w.Hi, 1e-12)
			if a, _ := stats.AUROC(pos, neg); math.Abs(a-auc) > 1e-12 {
				t.Errorf("AUROC %v, interval's %v", a, auc)
			}
		})
	}
	t.Run("Perfect", func(t *testing.T) {
		auc, lo, hi, ok := stats.AUROCInterval([]float64{3, 4}, []float64{1, 2}, 0.95)
		if !ok || auc != 1 || lo != 1 || hi != 1 {
			t.Errorf("%v [%v, %v] %v", auc, lo, hi, ok)
		}
	})
	for name, c := range map[string]struct {
		pos, neg []float64
		level    float64
	}{
		"OnePositive": {[]float64{1}, []float64{0, 1}, 0.95},
		"NaN":         {[]float64{1, math.NaN()}, []float64{0, 1}, 0.95},
		"Level":       {[]float64{1, 2}, []float64{0, 1}, 1},
	} {
		t.Run("NotOK/"+name, func(t *testing.T) {
			if _, _, _, ok := stats.AUROCInterval(c.pos, c.neg, c.level); ok {
				t.Error("ok")
			}
		})
	}
}

func TestBalancedAccuracy(t *testing.T) {
	d := mustLogisticData(t)
	for _, w := range d.want.BalancedAccuracy {
		ba, ok := stats.BalancedAccuracy(d.want.CV.OOF, d.y, w.Threshold)
		if !ok {
			t.Fatal("not ok")
		}
		checkNear(t, "balanced accuracy at "+strconv.FormatFloat(w.Threshold, 'g', -1, 64), ba, w.BalancedAccuracy, 1e-15)
	}
	// 2 of 3 positives at or above 0.5, 1 of 2 negatives below: (2/3 + 1/2)/2.
	if ba, ok := stats.BalancedAccuracy([]float64{0.9, 0.5, 0.1, 0.7, 0.2}, []int{1, 1, 1, 0, 0}, 0.5); !ok || math.Abs(ba-7.0/12) > 1e-15 {
		t.Errorf("hand case: %v %v", ba, ok)
	}
	for name, c := range map[string]struct {
		s []float64
		y []int
	}{
		"OneClass": {[]float64{1, 2}, []int{1, 1}},
		"BadLabel": {[]float64{1, 2}, []int{1, 3}},
		"Inf":      {[]float64{1, math.Inf(1)}, []int{1, 0}},
	} {
		if _, ok := stats.BalancedAccuracy(c.s, c.y, 0.5); ok {
			t.Errorf("%s: ok", name)
		}
	}
}

func TestBalancedAccuracy_BestThreshold(t *testing.T) {
	// Sorted: 0.125 (0), 0.375 (1), 0.5 (0), 0.875 (1). Candidates 0.125
	// (½), 0.25 (¾), 0.4375 (½), 0.6875 (¾): the smaller of the two best.
	th, ba, ok := stats.BestThreshold([]float64{0.125, 0.5, 0.375, 0.875}, []int{0, 0, 1, 1})
	if !ok || th != 0.25 || ba != 0.75 {
		t.Errorf("got %v, %v, %v; want 0.25, 0.75", th, ba, ok)
	}
	// Constant scores: every row predicted 1 at the score itself, ½.
	if th, ba, ok := stats.BestThreshold([]float64{2, 2, 2}, []int{0, 1, 0}); !ok || th != 2 || ba != 0.5 {
		t.Errorf("constant: %v, %v, %v", th, ba, ok)
	}
	// Perfect separation with ties inside each class.
	if th, ba, ok := stats.BestThreshold([]float64{1, 1, 3, 3}, []int{0, 0, 1, 1}); !ok || th != 2 || ba != 1 {
		t.Errorf("separable: %v, %v, %v", th, ba, ok)
	}
	if _, _, ok := stats.BestThreshold([]float64{1, 2}, []int{0, 0}); ok {
		t.Error("one class: ok")
	}
}

func TestBalancedAccuracy_CVThreshold(t *testing.T) {
	d := mustLogisticData(t)
	w := d.want.CVThreshold
	got, err := stats.CVThreshold(d.want.CV.OOF, d.y, d.groups, d.want.Folds)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Folds) != len(w.Folds) {
		t.Fatalf("folds %+v, want %+v", got.Folds, w.Folds)
	}
	for i := range w.Folds {
		if got.Folds[i].Fold != w.Folds[i].Fold || got.Folds[i].Rows != w.Folds[i].Rows {
			t.Errorf("fold %+v, want %+v", got.Folds[i], w.Folds[i])
		}
		checkNear(t, "fold threshold", got.Folds[i].Threshold, w.Folds[i].Threshold, 1e-15)
	}
	checkNear(t, "BalancedAccuracy", got.BalancedAccuracy, w.BalancedAccuracy, 1e-15)
	checkNear(t, "Threshold", got.Threshold, w.Threshold, 1e-15)
	if got.N != len(d.y) || got.Resamples != stats.ThresholdResamples || got.Seed != stats.ThresholdSeed {
		t.Errorf("n %d resamples %d seed %d", got.N, got.Resamples, got.Seed)
	}
	if !(got.Lo <= got.BalancedAccuracy && got.BalancedAccuracy <= got.Hi) || got.Lo < 0.5 || got.Hi > 0.9 {
		t.Errorf("interval [%v, %v] around %v", got.Lo, got.Hi, got.BalancedAccuracy)
	}
	again, _ := stats.CVThreshold(d.want.CV.OOF, d.y, d.groups, d.want.Folds)
	if again.Lo != got.Lo || again.Hi != got.Hi {
		t.Errorf("second run [%v, %v], first [%v, %v]", again.Lo, again.Hi, got.Lo, got.Hi)
	}

	for _, tt := range []struct {
		name   string
		s      []float64
		y      []int
		groups []string
		folds  int
		want   string
	}{
		{"OneFold", d.want.CV.OOF, d.y, d.groups, 1, "1 folds"},
		{"OneClass", []float64{1, 2}, []int{1, 1}, []string{"a", "b"}, 2, "both present"},
		{"OneGroup", []float64{1, 2}, []int{0, 1}, []string{"a", "a"}, 2, "every row is in fold"},
		{"Lengths", []float64{1, 2}, []int{0, 1}, []string{"a"}, 2, "2 scores, 2 labels and 1 groups"},
	} {
		t.Run("Error/"+tt.name, func(t *testing.T) {
			_, err := stats.CVThreshold(tt.s, tt.y, tt.groups, tt.folds)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one with %q", err, tt.want)
			}
		})
	}
}

func TestBalancedAccuracy_FixedThreshold(t *testing.T) {
	d := mustLogisticData(t)
	w := d.want.BalancedAccuracy[0]
	got, err := stats.FixedThreshold(d.want.CV.OOF, d.y, d.groups, w.Threshold)
	if err != nil {
		t.Fatal(err)
	}
	checkNear(t, "BalancedAccuracy", got.BalancedAccuracy, w.BalancedAccuracy, 1e-15)
	if got.Threshold != w.Threshold || len(got.Folds) != 0 || !(got.Lo <= got.BalancedAccuracy && got.BalancedAccuracy <= got.Hi) {
		t.Errorf("%+v", got)
	}
	if _, err := stats.FixedThreshold([]float64{1, 2}, []int{1, 1}, []string{"a", "b"}, 0.5); err == nil {
		t.Error("one class: no error")
	}
	if _, err := stats.FixedThreshold([]float64{1, 2}, []int{0, 1}, []string{"a"}, 0.5); err == nil {
		t.Error("lengths: no error")
	}
}
