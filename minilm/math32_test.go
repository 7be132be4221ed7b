package minilm

import (
	"math"
	"testing"
)

func TestExpf(t *testing.T) {
	maxRel := 0.0
	for x := -87.0; x <= 88.0; x += 0.0137 {
		got := float64(expf(float32(x)))
		want := math.Exp(float64(float32(x)))
		rel := math.Abs(got-want) / want
		if rel > maxRel {
			maxRel = rel
		}
	}
	if maxRel > 5e-7 {
		t.Fatalf("expf max relative error %g", maxRel)
	}
	if expf(-100) != 0 || expf(0) != 1 {
		t.Fatalf("expf(-100)=%v expf(0)=%v", expf(-100), expf(0))
	}
}

func TestErff(t *testing.T) {
	maxAbs := 0.0
	for x := -6.0; x <= 6.0; x += 0.00071 {
		got := float64(erff(float32(x)))
		want := math.Erf(float64(float32(x)))
		if d := math.Abs(got - want); d > maxAbs {
			maxAbs = d
		}
	}
	if maxAbs > 5e-7 {
		t.Fatalf("erff max abs error %g", maxAbs)
	}
}

func TestGeluSlice(t *testing.T) {
	var xs []float32
	for x := -10.0; x <= 10.0; x += 0.00317 {
		xs = append(xs, float32(x))
	}
	got := append([]float32(nil), xs...)
	geluSlice(got)
	for i, x := range xs {
		want := 0.5 * float64(x) * (1 + math.Erf(float64(x)/math.Sqrt2))
		if d := math.Abs(float64(got[i]) - want); d > 2e-6*(1+math.Abs(want)) {
			t.Fatalf("gelu(%v) = %v, want %v", x, got[i], want)
		}
	}
}
