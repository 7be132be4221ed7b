package kgeval

import "math"

// Cosine returns the cosine similarity of a and b computed in float64,
// clamped to [-1, 1]; 0 when either is the zero vector. dot/sqrt(|a|²|b|²)
// makes a vector's cosine with itself exactly 1. a and b must have the same
// length.
func Cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += x * y
		na += x * x
		nb += y * y
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return math.Max(-1, math.Min(1, dot/math.Sqrt(na*nb)))
}
