package minilm

import "math"

// Fast float32 elementary functions for the activation and softmax loops.
// Both are accurate to a few float32 ulps (see math32_test.go), far below the
// precision the encoder needs, and several times faster than the float64
// functions of package math.
//
// Every result is the same bits on every CPU and architecture, so that a
// replay's label vectors, and so its scores, do not depend on the machine
// (docs/VALIDITY.md). Go may fuse x*y + z into one FMA instruction on some
// architectures (arm64 always, amd64 with GOAMD64=v3) and not on others, which
// changes the last bit: each product that an addition follows is therefore
// either rounded explicitly (float32(x*y) + z, which the language forbids to
// fuse) or fused explicitly (fma32, as the assembly kernels do).

// expf returns e**x for x <= ~88 (softmax only feeds it values <= 0).
func expf(x float32) float32 {
	const (
		log2e = 1.44269504088896341
		ln2hi = 0.693359375
		ln2lo = -2.12194440e-4
	)
	if x < -87.3 {
		return 0
	}
	if x > 88.7 {
		return float32(math.Inf(1))
	}
	// x = n*ln2 + r, |r| <= ln2/2
	t := float32(x * log2e)
	if t < 0 {
		t -= 0.5
	} else {
		t += 0.5
	}
	fn := float32(int32(t)) // round to nearest
	r := x - float32(fn*ln2hi)
	r -= float32(fn * ln2lo)
	// Cephes expf polynomial, each product rounded (the results of the
	// unfused amd64 code every report was made with).
	p := float32(1.9875691500e-4)
	p = float32(p*r) + 1.3981999507e-3
	p = float32(p*r) + 8.3334519073e-3
	p = float32(p*r) + 4.1665795894e-2
	p = float32(p*r) + 1.6666665459e-1
	p = float32(p*r) + 5.0000001201e-1
	y := float32(float32(p*r)*r) + r + 1
	n := int32(fn)
	if n < -126 {
		// Gradual underflow: scale in two steps.
		return y * math.Float32frombits(uint32(n+127+64)<<23) * math.Float32frombits(uint32(127-64)<<23)
	}
	return y * math.Float32frombits(uint32(n+127)<<23)
}

// erff is the error function, as a rational approximation on [-4, 4]
// (outside that range erf is ±1 in float32). The polynomials are evaluated
// with fused multiply-adds, step for step as geluAVX2 does, so that the
// portable and the assembly GELU give the same bits.
func erff(a float32) float32 {
	x := a
	if x > 4 {
		x = 4
	} else if x < -4 {
		x = -4
	}
	x2 := x * x
	p := float32(-2.72614225801306e-10)
	p = fma32(p, x2, 2.77068142495902e-08)
	p = fma32(p, x2, -2.10102402082508e-06)
	p = fma32(p, x2, -5.69250639462346e-05)
	p = fma32(p, x2, -7.34990630326855e-04)
	p = fma32(p, x2, -2.95459980854025e-03)
	p = fma32(p, x2, -1.60960333262415e-02)
	p *= x
	q := float32(-1.45660718464996e-05)
	q = fma32(q, x2, -2.13374055278905e-04)
	q = fma32(q, x2, -1.68282697438203e-03)
	q = fma32(q, x2, -7.37332916720468e-03)
	q = fma32(q, x2, -1.42647390514189e-02)
	return p / q
}

// gelu is the exact (erf) GELU used by BERT's "gelu" activation.
func gelu(x float32) float32 {
	return 0.5 * x * (1 + erff(x*0.7071067811865476))
}

// fma32 returns x*y + z rounded once to float32, as an FMA instruction
// (the assembly kernels' VFMADD) computes it, on any CPU: the instruction
// where the compiler emits it (fma_arm64.go), else fma32Soft.
func fma32(x, y, z float32) float32 {
	if r, ok := fma32Fast(x, y, z); ok {
		return r
	}
	return fma32Soft(x, y, z)
}

// fma32Soft is fma32 in float64 arithmetic, correct on every CPU.
func fma32Soft(x, y, z float32) float32 {
	if r, ok := fma64Try(x, y, z); ok {
		return r
	}
	p := float64(float64(x) * float64(y))
	return fma32Odd(p, float64(z), p+float64(z))
}

// fma64Try returns x*y + z rounded once to float32 and true, or false in
// the rare cases it cannot tell. x*y is exact in float64 and the float64
// sum s is rounded once; rounding s again to float32 is right unless s lies
// exactly halfway between two float32s (rounding to float64 cannot cross
// such a point, only land on it) or the result is not a normal float32.
func fma64Try(x, y, z float32) (float32, bool) {
	return fma64TryX(float64(x), y, z)
}

// fma64TryX is fma64Try with x in float64 (a float32's value), for loops
// that multiply by one x.
func fma64TryX(x float64, y, z float32) (float32, bool) {
	s := float64(x*float64(y)) + float64(z)
	b := math.Float64bits(s)
	// |s| as bits, and those of the normal float32s (biased exponents
	// 1023-126 to 1023+127 as a float64's); 0 is exact.
	const lo, span = (1023 - 126) << 52, 254 << 52
	m := b &^ (1 << 63)
	return float32(s), b&(1<<29-1) != 1<<28 && (m-lo < span || m == 0)
}

// fma32Odd returns p + c (s, rounded to float64) rounded once to float32:
// the float64 sum is rounded to odd (its error, from TwoSum, moves an even s
// one ulp towards the exact sum) and then to float32, which rounds
// correctly since float64 has more than two bits more than float32 (Boldo
// and Melquiond, "Emulation of FMA and correctly rounded sums: proved
// algorithms using rounding to odd", 2008).
func fma32Odd(p, c, s float64) float32 {
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return float32(s)
	}
	bp := s - p
	e := (p - (s - bp)) + (c - bp)
	if b := math.Float64bits(s); e != 0 && b&1 == 0 {
		if (e > 0) == (s > 0) {
			b++
		} else {
			b--
		}
		s = math.Float64frombits(b)
	}
	return float32(s)
}
