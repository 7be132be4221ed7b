package stats_test

import (
	"math"
	"slices"
	"testing"

	"github.com/kgeval/kgeval/stats"
)

// Reference values below were computed with SciPy 1.17.1 / NumPy 2.4.6 by
// the call named beside each case, printed with repr(float(...)).

// tol is the relative tolerance against those values; p-values as small as
// 1e-9 are compared relatively, not absolutely.
const tol = 1e-9

func near(got, want float64) bool {
	if got == want {
		return true
	}
	return math.Abs(got-want) <= tol*math.Max(math.Abs(want), 1e-300)
}

func checkClose(tb testing.TB, name string, got, want float64) {
	tb.Helper()
	if !near(got, want) {
		tb.Errorf("%s = %.17g, want %.17g", name, got, want)
	}
}

// Anscombe's quartet, set I.
var (
	anscombeX = []float64{10, 8, 13, 9, 11, 14, 6, 4, 12, 7, 5}
	anscombeY = []float64{8.04, 6.95, 7.58, 8.81, 8.33, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68}
)

func ptr(v float64) *float64 { return &v }

func TestPairwise(t *testing.T) {
	x := []*float64{ptr(1), nil, ptr(3), ptr(math.NaN()), ptr(5), ptr(6), ptr(7)}
	y := []*float64{ptr(10), ptr(20), nil, ptr(40), ptr(math.Inf(1)), ptr(60), ptr(-70)}
	xs, ys := stats.Pairwise(x, y)
	if want := []float64{1, 6, 7}; !slices.Equal(xs, want) {
		t.Errorf("xs = %v, want %v", xs, want)
	}
	if want := []float64{10, 60, -70}; !slices.Equal(ys, want) {
		t.Errorf("ys = %v, want %v", ys, want)
	}

	t.Run("Empty", func(t *testing.T) {
		xs, ys := stats.Pairwise([]*float64{nil}, []*float64{ptr(1)})
		if len(xs) != 0 || len(ys) != 0 {
			t.Errorf("got %v %v, want nothing", xs, ys)
		}
	})
}

func TestRanks(t *testing.T) {
	for _, tt := range []struct {
		name string
		x    []float64
		want []float64
	}{
		{"Empty", nil, []float64{}},
		{"Distinct", []float64{30, 10, 20}, []float64{3, 1, 2}},
		{"Pair", []float64{10, 20, 20, 30}, []float64{1, 2.5, 2.5, 4}},
		{"AllTied", []float64{7, 7, 7}, []float64{2, 2, 2}},
		// scipy.stats.rankdata([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5])
		{"Pi", []float64{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5}, []float64{4.5, 1.5, 6, 1.5, 8, 11, 3, 10, 8, 4.5, 8}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := stats.Ranks(tt.x); !slices.Equal(got, tt.want) {
				t.Errorf("Ranks(%v) = %v, want %v", tt.x, got, tt.want)
			}
		})
	}
}

func TestPearson(t *testing.T) {
	for _, tt := range []struct {
		name  string
		x, y  []float64
		r, p  float64
		notOK bool
	}{
		// scipy.stats.pearsonr(anscombeX, anscombeY)
		{name: "Anscombe", x: anscombeX, y: anscombeY, r: 0.8164205163448395, p: 0.0021696288730788152},
		// scipy.stats.pearsonr([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])
		{name: "Small", x: []float64{1, 2, 3, 4, 5}, y: []float64{2, 1, 4, 3, 5}, r: 0.8, p: 0.10408803866182782},
		// scipy.stats.pearsonr([1, 2, 3], [1, 2, 4])
		{name: "Three", x: []float64{1, 2, 3}, y: []float64{1, 2, 4}, r: 0.9819805060619655, p: 0.12103771832367739},
		{name: "PerfectPositive", x: []float64{1, 2, 3, 4}, y: []float64{3, 5, 7, 9}, r: 1, p: 0},
		{name: "PerfectNegative", x: []float64{1, 2, 3, 4}, y: []float64{8, 6, 4, 2}, r: -1, p: 0},
		{name: "TwoPairs", x: []float64{1, 2}, y: []float64{1, 2}, notOK: true},
		{name: "Empty", notOK: true},
		{name: "ConstantX", x: []float64{0.1, 0.1, 0.1, 0.1}, y: []float64{1, 2, 3, 4}, notOK: true},
		{name: "ConstantY", x: []float64{1, 2, 3, 4}, y: []float64{5, 5, 5, 5}, notOK: true},
		{name: "NaN", x: []float64{1, 2, math.NaN(), 4}, y: []float64{1, 2, 3, 4}, notOK: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := stats.Pearson(tt.x, tt.y)
			if ok == tt.notOK {
				t.Fatalf("ok = %v, want %v (got %+v)", ok, !tt.notOK, c)
			}
			if tt.notOK {
				return
			}
			checkClose(t, "R", c.R, tt.r)
			checkClose(t, "P", c.P, tt.p)
			if c.N != len(tt.x) {
				t.Errorf("N = %d, want %d", c.N, len(tt.x))
			}
		})
	}

	t.Run("Symmetric", func(t *testing.T) {
		a, _ := stats.Pearson(anscombeX, anscombeY)
		b, _ := stats.Pearson(anscombeY, anscombeX)
		checkClose(t, "R", b.R, a.R)
		checkClose(t, "P", b.P, a.P)
	})
}

func TestSpearman(t *testing.T) {
	for _, tt := range []struct {
		name  string
		x, y  []float64
		r, p  float64
		notOK bool
	}{
		// IQ against hours of TV per week, the example on Wikipedia's
		// "Spearman's rank correlation coefficient": rho = -29/165.
		// scipy.stats.spearmanr(iq, tv)
		{
			name: "IQTelevision",
			x:    []float64{106, 100, 86, 101, 99, 103, 97, 113, 112, 110},
			y:    []float64{7, 27, 2, 50, 28, 29, 20, 12, 6, 17},
			r:    -29.0 / 165, p: 0.6271883447764846,
		},
		// scipy.stats.spearmanr([1, 2, 2, 3, 4, 4, 4, 5, 6, 7], [2, 1, 3, 3, 5, 4, 6, 6, 8, 7])
		{
			name: "Ties",
			x:    []float64{1, 2, 2, 3, 4, 4, 4, 5, 6, 7},
			y:    []float64{2, 1, 3, 3, 5, 4, 6, 6, 8, 7},
			r:    0.93812095999547, p: 5.950220707696844e-05,
		},
		// scipy.stats.spearmanr(anscombeX, anscombeY)
		{name: "Anscombe", x: anscombeX, y: anscombeY, r: 0.8181818181818182, p: 0.0020831448404786917},
		{name: "MonotoneNonlinear", x: []float64{1, 2, 3, 4, 5}, y: []float64{1, 8, 27, 64, 1000}, r: 1, p: 0},
		{name: "PerfectNegative", x: []float64{1, 2, 3, 4, 5}, y: []float64{0.5, 0.4, 0.3, 0.2, 0.1}, r: -1, p: 0},
		{name: "TwoPairs", x: []float64{1, 2}, y: []float64{2, 1}, notOK: true},
		{name: "ConstantX", x: []float64{3, 3, 3}, y: []float64{1, 2, 3}, notOK: true},
		{name: "Inf", x: []float64{1, 2, 3}, y: []float64{1, math.Inf(-1), 3}, notOK: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := stats.Spearman(tt.x, tt.y)
			if ok == tt.notOK {
				t.Fatalf("ok = %v, want %v (got %+v)", ok, !tt.notOK, c)
			}
			if tt.notOK {
				return
			}
			checkClose(t, "R", c.R, tt.r)
			checkClose(t, "P", c.P, tt.p)
			if c.N != len(tt.x) {
				t.Errorf("N = %d, want %d", c.N, len(tt.x))
			}
		})
	}
}

func TestAUROC(t *testing.T) {
	for _, tt := range []struct {
		name     string
		pos, neg []float64
		want     float64
		notOK    bool
	}{
		// Pairs: 0.9 and 0.8 beat both, 0.5 ties 0.5 (½) and beats 0.3: 5.5/6.
		// scipy.stats.mannwhitneyu([0.9, 0.8, 0.5], [0.5, 0.3]).statistic / 6
		{name: "TieHalf", pos: []float64{0.9, 0.8, 0.5}, neg: []float64{0.5, 0.3}, want: 5.5 / 6},
		// U = 17: scipy.stats.mannwhitneyu(pos, neg).statistic / 20
		{name: "Ties", pos: []float64{0.9, 0.8, 0.5, 0.5, 0.7}, neg: []float64{0.5, 0.3, 0.6, 0.1}, want: 0.85},
		{name: "PerfectSeparation", pos: []float64{0.7, 0.9, 0.8}, neg: []float64{0.1, 0.6, 0.2, 0.0}, want: 1},
		{name: "Reversed", pos: []float64{0.1, 0.2}, neg: []float64{0.3, 0.9}, want: 0},
		{name: "AllEqual", pos: []float64{1, 1, 1}, neg: []float64{1, 1}, want: 0.5},
		{name: "EmptyPos", neg: []float64{1}, notOK: true},
		{name: "EmptyNeg", pos: []float64{1}, notOK: true},
		{name: "NaN", pos: []float64{math.NaN()}, neg: []float64{1}, notOK: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := stats.AUROC(tt.pos, tt.neg)
			if ok == tt.notOK {
				t.Fatalf("ok = %v, want %v (got %v)", ok, !tt.notOK, got)
			}
			if !tt.notOK {
				checkClose(t, "AUROC", got, tt.want)
			}
		})
	}
}

func TestCohensD(t *testing.T) {
	for _, tt := range []struct {
		name  string
		a, b  []float64
		want  float64
		notOK bool
	}{
		// Means 3 and 5, both sample variances 2.5: d = -2/√2.5.
		{name: "Textbook", a: []float64{1, 2, 3, 4, 5}, b: []float64{3, 4, 5, 6, 7}, want: -2 / math.Sqrt(2.5)},
		{name: "Swapped", a: []float64{3, 4, 5, 6, 7}, b: []float64{1, 2, 3, 4, 5}, want: 2 / math.Sqrt(2.5)},
		// numpy: (mean(a)-mean(b)) / sqrt(((na-1)*var(a, ddof=1) + (nb-1)*var(b, ddof=1)) / (na+nb-2))
		{
			name: "UnequalSizes",
			a:    []float64{4.1, 5.3, 6.0, 5.5, 4.8, 5.9},
			b:    []float64{3.2, 4.0, 4.4, 3.9, 5.1, 3.5, 4.2, 3.8},
			want: 1.9582647020663495,
		},
		// Only one group varies: pooled variance 2·1/(2+3-2).
		{name: "OneConstant", a: []float64{1, 2, 3}, b: []float64{0, 0, 0}, want: 2 / math.Sqrt(2.0/4)},
		{name: "TooFewA", a: []float64{1}, b: []float64{1, 2}, notOK: true},
		{name: "TooFewB", a: []float64{1, 2}, b: []float64{}, notOK: true},
		{name: "ZeroPooledSD", a: []float64{1, 1}, b: []float64{2, 2, 2}, notOK: true},
		{name: "Inf", a: []float64{1, math.Inf(1)}, b: []float64{2, 3}, notOK: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := stats.CohensD(tt.a, tt.b)
			if ok == tt.notOK {
				t.Fatalf("ok = %v, want %v (got %v)", ok, !tt.notOK, got)
			}
			if !tt.notOK {
				checkClose(t, "d", got, tt.want)
			}
		})
	}
}

func TestMeanStd(t *testing.T) {
	// The classic example: mean 5, population std 2 (numpy.std), sample std
	// √(32/7) (numpy.std(x, ddof=1) = 2.138089935299395).
	x := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	mean, std := stats.MeanStd(x)
	checkClose(t, "mean", mean, 5)
	checkClose(t, "std", std, 2)
	checkClose(t, "SampleStd", stats.SampleStd(x), 2.138089935299395)

	t.Run("Single", func(t *testing.T) {
		mean, std := stats.MeanStd([]float64{3})
		if mean != 3 || std != 0 {
			t.Errorf("MeanStd([3]) = %v, %v, want 3, 0", mean, std)
		}
		if s := stats.SampleStd([]float64{3}); !math.IsNaN(s) {
			t.Errorf("SampleStd([3]) = %v, want NaN", s)
		}
	})
	t.Run("Empty", func(t *testing.T) {
		mean, std := stats.MeanStd(nil)
		if !math.IsNaN(mean) || !math.IsNaN(std) {
			t.Errorf("MeanStd(nil) = %v, %v, want NaN, NaN", mean, std)
		}
	})
}

func TestHistogram(t *testing.T) {
	for _, tt := range []struct {
		name        string
		x           []float64
		lo, hi      float64
		bins        int
		want        []int
		under, over int
	}{
		{
			name: "Edges",
			// lo in the first bin, an inner edge in the bin it opens, hi in the last.
			x:  []float64{0, 0.25, 0.5, 0.999, 1, -0.1, 1.1, math.Inf(-1), math.Inf(1), math.NaN()},
			lo: 0, hi: 1, bins: 4,
			want: []int{1, 1, 1, 2}, under: 2, over: 2,
		},
		{
			// numpy.histogram([0.0, 0.1, ..., 1.0], bins=10, range=(0, 1)):
			// the edge 3·0.1 is 0.30000000000000004, so 0.3 lands in bin 2.
			name: "NumpyTenths",
			x:    []float64{0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0},
			lo:   0, hi: 1, bins: 10,
			want: []int{1, 1, 2, 0, 1, 2, 1, 0, 1, 2},
		},
		{
			// numpy.histogram([0, 1/3, 2/3, 1, 0.5, 0.99], bins=3, range=(0, 1))
			name: "NumpyThirds",
			x:    []float64{0, 1.0 / 3, 2.0 / 3, 1, 0.5, 0.99},
			lo:   0, hi: 1, bins: 3,
			want: []int{1, 2, 3},
		},
		{
			// numpy.histogram([0, 5, 10, 15, 20, 99.9, 100, 55], bins=5, range=(0, 100))
			name: "Percent",
			x:    []float64{0, 5, 10, 15, 20, 99.9, 100, 55},
			lo:   0, hi: 100, bins: 5,
			want: []int{4, 1, 1, 0, 2},
		},
		{name: "Empty", lo: -1, hi: 1, bins: 2, want: []int{0, 0}},
		{name: "OneBin", x: []float64{-1, 0, 1, 2}, lo: -1, hi: 1, bins: 1, want: []int{3}, over: 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := stats.Histogram(tt.x, tt.lo, tt.hi, tt.bins)
			if !slices.Equal(h.Counts, tt.want) || h.Under != tt.under || h.Over != tt.over {
				t.Errorf("Counts, Under, Over = %v, %d, %d, want %v, %d, %d", h.Counts, h.Under, h.Over, tt.want, tt.under, tt.over)
			}
			if h.Lo != tt.lo || h.Hi != tt.hi {
				t.Errorf("Lo, Hi = %v, %v, want %v, %v", h.Lo, h.Hi, tt.lo, tt.hi)
			}
		})
	}

	for _, tt := range []struct {
		name   string
		lo, hi float64
		bins   int
	}{
		{"ZeroBins", 0, 1, 0},
		{"EmptyRange", 1, 1, 3},
		{"Reversed", 1, 0, 3},
		{"NaNBound", math.NaN(), 1, 3},
	} {
		t.Run("Panics/"+tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("Histogram(lo=%v, hi=%v, bins=%d) did not panic", tt.lo, tt.hi, tt.bins)
				}
			}()
			stats.Histogram(nil, tt.lo, tt.hi, tt.bins)
		})
	}
}

func TestHist_Edges(t *testing.T) {
	// numpy.linspace(0, 1, 4) and numpy.linspace(0, 100, 6).
	for _, tt := range []struct {
		lo, hi float64
		bins   int
		want   []float64
	}{
		{0, 1, 3, []float64{0, 0.3333333333333333, 0.6666666666666666, 1}},
		{0, 100, 5, []float64{0, 20, 40, 60, 80, 100}},
	} {
		if got := stats.Histogram(nil, tt.lo, tt.hi, tt.bins).Edges(); !slices.Equal(got, tt.want) {
			t.Errorf("Edges(%v, %v, %d) = %v, want %v", tt.lo, tt.hi, tt.bins, got, tt.want)
		}
	}
}

// Welch's t-test example 1 on Wikipedia ("Welch's t-test").
var (
	welchA1 = []float64{27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4}
	welchA2 = []float64{27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4}
)

// checkTest compares a test result with SciPy's.
func checkTest(tb testing.TB, got stats.Test, stat, p, df float64, n int) {
	tb.Helper()
	checkClose(tb, "Stat", got.Stat, stat)
	checkClose(tb, "P", got.P, p)
	checkClose(tb, "DF", got.DF, df)
	if got.N != n {
		tb.Errorf("N = %d, want %d", got.N, n)
	}
}

func TestWelchT(t *testing.T) {
	for _, tt := range []struct {
		name        string
		a, b        []float64
		stat, p, df float64
		n           int
		notOK       bool
	}{
		// scipy.stats.ttest_ind(welchA1, welchA2, equal_var=False)
		{name: "Wikipedia", a: welchA1, b: welchA2, stat: -2.455356398286006, p: 0.021378001462866992, df: 24.988529290231416, n: 30},
		// scipy.stats.ttest_ind(a, b, equal_var=False) on the CohensD UnequalSizes data
		{
			name: "UnequalSizes",
			a:    []float64{4.1, 5.3, 6.0, 5.5, 4.8, 5.9},
			b:    []float64{3.2, 4.0, 4.4, 3.9, 5.1, 3.5, 4.2, 3.8},
			stat: 3.5093463910050886, p: 0.00612725390869164, df: 9.46811854160423, n: 14,
		},
		{name: "TooFew", a: []float64{1}, b: []float64{1, 2, 3}, notOK: true},
		{name: "BothConstant", a: []float64{1, 1}, b: []float64{2, 2}, notOK: true},
		{name: "NaN", a: []float64{1, math.NaN()}, b: []float64{2, 3}, notOK: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := stats.WelchT(tt.a, tt.b)
			if ok == tt.notOK {
				t.Fatalf("ok = %v, want %v (got %+v)", ok, !tt.notOK, got)
			}
			if !tt.notOK {
				checkTest(t, got, tt.stat, tt.p, tt.df, tt.n)
			}
		})
	}
}

func TestPairedT(t *testing.T) {
	for _, tt := range []struct {
		name        string
		a, b        []float64
		stat, p, df float64
		n           int
		notOK       bool
	}{
		// Mouse weights before and after treatment.
		// scipy.stats.ttest_rel(before, after)
		{
			name: "Weights",
			a:    []float64{200.1, 190.9, 192.7, 213.0, 241.4, 196.9, 172.2, 185.5, 205.2, 193.7},
			b:    []float64{392.9, 393.2, 345.1, 393.0, 434.0, 427.9, 422.0, 383.9, 392.3, 352.2},
			stat: -20.8831333638503, p: 6.200298210361309e-09, df: 9, n: 10,
		},
		// Two systems' scores on the same seven samples.
		// scipy.stats.ttest_rel(pa, pb)
		{
			name: "Scores",
			a:    []float64{0.71, 0.64, 0.80, 0.55, 0.62, 0.90, 0.47},
			b:    []float64{0.68, 0.66, 0.74, 0.51, 0.60, 0.84, 0.49},
			stat: 1.9126494315742393, p: 0.10432397773024432, df: 6, n: 7,
		},
		{name: "OnePair", a: []float64{1}, b: []float64{2}, notOK: true},
		{name: "Identical", a: []float64{1, 2, 3}, b: []float64{1, 2, 3}, notOK: true},
		{name: "ConstantShift", a: []float64{2, 3, 4}, b: []float64{1, 2, 3}, notOK: true},
		{name: "Inf", a: []float64{1, 2, math.Inf(1)}, b: []float64{1, 3, 3}, notOK: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := stats.PairedT(tt.a, tt.b)
			if ok == tt.notOK {
				t.Fatalf("ok = %v, want %v (got %+v)", ok, !tt.notOK, got)
			}
			if !tt.notOK {
				checkTest(t, got, tt.stat, tt.p, tt.df, tt.n)
			}
		})
	}
}

// TestMeanCI checks the t interval where the t quantile has a closed form:
// on 1 degree of freedom (Cauchy) t_p = tan(π(p − ½)), on 2 t_p = (2p −
// 1)/√(2p(1 − p)).
func TestMeanCI(t *testing.T) {
	t1 := math.Tan(math.Pi * 0.475)        // t_{0.975, 1} = 12.706...
	t2 := 0.95 / math.Sqrt(2*0.975*0.025)  // t_{0.975, 2} = 4.3026...
	t2at90 := 0.9 / math.Sqrt(2*0.95*0.05) // t_{0.95, 2} = 2.9199...
	for _, tt := range []struct {
		name   string
		x      []float64
		level  float64
		lo, hi float64
		notOK  bool
	}{
		// mean 2, s = √2, s/√n = 1.
		{name: "TwoValues", x: []float64{1, 3}, level: 0.95, lo: 2 - t1, hi: 2 + t1},
		// mean 1, s = 1, s/√n = 1/√3.
		{name: "ThreeValues", x: []float64{2, 0, 1}, level: 0.95, lo: 1 - t2/math.Sqrt(3), hi: 1 + t2/math.Sqrt(3)},
		{name: "Level90", x: []float64{2, 0, 1}, level: 0.9, lo: 1 - t2at90/math.Sqrt(3), hi: 1 + t2at90/math.Sqrt(3)},
		{name: "Constant", x: []float64{0.25, 0.25, 0.25}, level: 0.95, lo: 0.25, hi: 0.25},
		{name: "OneValue", x: []float64{1}, level: 0.95, notOK: true},
		{name: "NaN", x: []float64{1, math.NaN()}, level: 0.95, notOK: true},
		{name: "Level1", x: []float64{1, 2}, level: 1, notOK: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi, ok := stats.MeanCI(tt.x, tt.level)
			if ok == tt.notOK {
				t.Fatalf("ok = %v, want %v", ok, !tt.notOK)
			}
			if !tt.notOK {
				checkClose(t, "lo", lo, tt.lo)
				checkClose(t, "hi", hi, tt.hi)
			}
		})
	}
	// The interval of the differences excludes 0 exactly when the paired
	// t-test rejects at 5%.
	a := []float64{0.71, 0.64, 0.80, 0.55, 0.62, 0.90, 0.47}
	for _, shift := range []float64{0, 0.01, 0.02, 0.03, 0.05} {
		b := []float64{0.68 - shift, 0.66 - shift, 0.74 - shift, 0.51 - shift, 0.60 - shift, 0.84 - shift, 0.49 - shift}
		d := make([]float64, len(a))
		for i := range a {
			d[i] = a[i] - b[i]
		}
		lo, hi, _ := stats.MeanCI(d, 0.95)
		pt, _ := stats.PairedT(a, b)
		if (lo > 0 || hi < 0) != (pt.P < 0.05) {
			t.Errorf("shift %v: interval [%v, %v], paired t p %v", shift, lo, hi, pt.P)
		}
	}
}

func TestWilcoxonSignedRank(t *testing.T) {
	// Darwin's cross- minus self-fertilised plant heights (the example in the
	// scipy.stats.wilcoxon docs), as differences against zero.
	darwin := []float64{6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75}
	zeros := make([]float64, len(darwin))

	for _, tt := range []struct {
		name    string
		a, b    []float64
		stat, p float64
		n       int
		notOK   bool
	}{
		// scipy.stats.wilcoxon(darwin, method='asymptotic', correction=False, zero_method='wilcox')
		// (z = -2.0446626032894333)
		{name: "Darwin", a: darwin, b: zeros, stat: 24, p: 0.04088813291185591, n: 15},
		// Differences 0, .5, 1, -1, 1, 0, 2, -1, 2, 0, 1, -1.5: three zeros
		// dropped, five tied |1| and two tied |2|.
		// scipy.stats.wilcoxon(wa, wb, method='asymptotic', correction=False, zero_method='wilcox')
		// (z = -0.9053574604251853)
		{
			name: "ZerosAndTies",
			a:    []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
			b:    []float64{1, 1.5, 2, 5, 4, 6, 5, 9, 7, 10, 10, 13.5},
			stat: 15, p: 0.3652760444092834, n: 9,
		},
		{name: "AllZero", a: []float64{1, 2}, b: []float64{1, 2}, notOK: true},
		{name: "Empty", notOK: true},
		{name: "NaN", a: []float64{1, math.NaN()}, b: []float64{0, 0}, notOK: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := stats.WilcoxonSignedRank(tt.a, tt.b)
			if ok == tt.notOK {
				t.Fatalf("ok = %v, want %v (got %+v)", ok, !tt.notOK, got)
			}
			if !tt.notOK {
				checkTest(t, got, tt.stat, tt.p, 0, tt.n)
			}
		})
	}

	t.Run("Symmetric", func(t *testing.T) {
		// Swapping a and b flips every sign: same T, same p.
		x, _ := stats.WilcoxonSignedRank(darwin, zeros)
		y, _ := stats.WilcoxonSignedRank(zeros, darwin)
		checkTest(t, y, x.Stat, x.P, 0, x.N)
	})
}

func TestPaired_lengthMismatchPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"Pairwise":           func() { stats.Pairwise(make([]*float64, 2), make([]*float64, 3)) },
		"Pearson":            func() { stats.Pearson([]float64{1, 2, 3}, []float64{1, 2}) },
		"Spearman":           func() { stats.Spearman([]float64{1, 2, 3}, []float64{1, 2}) },
		"PairedT":            func() { stats.PairedT([]float64{1, 2, 3}, []float64{1, 2}) },
		"WilcoxonSignedRank": func() { stats.WilcoxonSignedRank([]float64{1, 2, 3}, []float64{1, 2}) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%s with lengths 3 and 2 did not panic", name)
				}
			}()
			f()
		})
	}
}
