package minilm

import (
	"math"
	"math/big"
	"math/rand"
	"runtime"
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

// TestFMA32 checks fma32 (the instruction on arm64, fma32Soft elsewhere) and
// fma32Soft against x*y + z computed exactly and rounded once, on random
// operands over a wide range of magnitudes and on a sum that float64
// rounding alone would round twice, the wrong way.
func TestFMA32(t *testing.T) {
	exact := func(x, y, z float32) float32 {
		p := new(big.Float).SetPrec(2000).SetFloat64(float64(x))
		p.Mul(p, new(big.Float).SetFloat64(float64(y)))
		p.Add(p, new(big.Float).SetFloat64(float64(z)))
		f, _ := p.Float32()
		return f
	}
	// (1+2⁻²³)(1-2⁻²⁴) + 2⁻⁴⁷(1+2⁻²³) = 1 + 2⁻²⁴ + 2⁻⁷⁰: just above the
	// midpoint of 1 and 1+2⁻²³; in float64 it is the midpoint, which
	// rounds to 1.
	x, y, z := float32(1+0x1p-23), float32(1-0x1p-24), float32(0x1p-47*(1+0x1p-23))
	if naive := float32(float64(x)*float64(y) + float64(z)); naive != 1 {
		t.Fatalf("the double-rounding case is not one: %v", naive)
	}
	cases := [][3]float32{{x, y, z}, {-x, y, -z}, {0, 5, -0}, {1e30, 1e10, -1}, {1e-30, 1e-20, 1e-45}}
	r := rand.New(rand.NewSource(1))
	for range 200000 {
		c := [3]float32{}
		for i := range c {
			c[i] = float32(r.NormFloat64() * math.Pow(2, float64(r.Intn(40)-20)))
		}
		cases = append(cases, c)
	}
	for _, c := range cases {
		want := exact(c[0], c[1], c[2])
		if got := fma32Soft(c[0], c[1], c[2]); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("fma32Soft(%g, %g, %g) = %g, want %g", c[0], c[1], c[2], got, want)
		}
		if got := fma32(c[0], c[1], c[2]); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("fma32(%g, %g, %g) = %g, want %g (%s: does the compiler fuse x*y + z?)", c[0], c[1], c[2], got, want, runtime.GOARCH)
		}
	}
}

// TestGeluSlice_SameBitsOnEveryKernel: the assembly GELU and the portable
// one give the same bits.
func TestGeluSlice_SameBitsOnEveryKernel(t *testing.T) {
	var xs []float32
	for x := -10.0; x <= 10.0; x += 0.000317 {
		xs = append(xs, float32(x))
	}
	want := make([]float32, len(xs))
	for i, x := range xs {
		want[i] = gelu(x)
	}
	got := append([]float32(nil), xs...)
	geluSlice(got)
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			t.Fatalf("%s: geluSlice(%v) = %v, gelu = %v", kernelISA, xs[i], got[i], want[i])
		}
	}
}
