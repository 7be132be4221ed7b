package minilm

import "math"

// Fast float32 elementary functions for the activation and softmax loops.
// Both are accurate to a few float32 ulps (see math32_test.go), far below the
// precision the encoder needs, and several times faster than the float64
// functions of package math.

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
	t := x * log2e
	if t < 0 {
		t -= 0.5
	} else {
		t += 0.5
	}
	fn := float32(int32(t)) // round to nearest
	r := x - fn*ln2hi
	r -= fn * ln2lo
	// Cephes expf polynomial.
	p := float32(1.9875691500e-4)
	p = p*r + 1.3981999507e-3
	p = p*r + 8.3334519073e-3
	p = p*r + 4.1665795894e-2
	p = p*r + 1.6666665459e-1
	p = p*r + 5.0000001201e-1
	y := p*r*r + r + 1
	n := int32(fn)
	if n < -126 {
		// Gradual underflow: scale in two steps.
		return y * math.Float32frombits(uint32(n+127+64)<<23) * math.Float32frombits(uint32(127-64)<<23)
	}
	return y * math.Float32frombits(uint32(n+127)<<23)
}

// erff is the error function, as a rational approximation on [-4, 4]
// (outside that range erf is ±1 in float32).
func erff(a float32) float32 {
	x := a
	if x > 4 {
		x = 4
	} else if x < -4 {
		x = -4
	}
	x2 := x * x
	p := float32(-2.72614225801306e-10)
	p = p*x2 + 2.77068142495902e-08
	p = p*x2 + -2.10102402082508e-06
	p = p*x2 + -5.69250639462346e-05
	p = p*x2 + -7.34990630326855e-04
	p = p*x2 + -2.95459980854025e-03
	p = p*x2 + -1.60960333262415e-02
	p *= x
	q := float32(-1.45660718464996e-05)
	q = q*x2 + -2.13374055278905e-04
	q = q*x2 + -1.68282697438203e-03
	q = q*x2 + -7.37332916720468e-03
	q = q*x2 + -1.42647390514189e-02
	return p / q
}

// gelu is the exact (erf) GELU used by BERT's "gelu" activation.
func gelu(x float32) float32 {
	return 0.5 * x * (1 + erff(x*0.7071067811865476))
}
