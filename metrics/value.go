package metrics

import (
	"math"
	"strconv"

	"github.com/kgeval/kgeval"
)

// Value is one metric value: V is nil when the metric could not be computed,
// and Reason then says why. A non-null Value has an empty Reason.
type Value struct {
	V      *float64 `json:"value"`
	Reason string   `json:"reason,omitempty"`
}

// Of returns the non-null Value v.
func Of(v float64) Value { return Value{V: &v} }

// Null returns a null Value with the given reason.
func Null(reason string) Value { return Value{Reason: reason} }

// IsNull reports whether v has no number.
func (v Value) IsNull() bool { return v.V == nil }

// Float returns the number and true, or 0 and false for a null Value.
func (v Value) Float() (float64, bool) {
	if v.V == nil {
		return 0, false
	}
	return *v.V, true
}

// String returns the number in the shortest exact form, or "null (reason)".
func (v Value) String() string {
	if v.V == nil {
		return "null (" + v.Reason + ")"
	}
	return strconv.FormatFloat(*v.V, 'g', -1, 64)
}

// Score returns v as the kgeval.Score of metric for sample.
func (v Value) Score(sample, metric string) kgeval.Score {
	s := kgeval.Score{Sample: sample, Metric: metric, Reason: v.Reason}
	if v.V != nil {
		s.Value = kgeval.Float(*v.V)
		s.Reason = ""
	}
	return s
}

// Round2 rounds x to 2 decimals, halves away from zero, as every SPEC §7
// value on the 0–100 scale is reported.
func Round2(x float64) float64 { return math.Round(x*100) / 100 }

// Cosine returns the cosine similarity of a and b computed in float64,
// clamped to [-1, 1]; 0 when either is the zero vector. dot/sqrt(|a|²|b|²)
// makes a vector's cosine with itself exactly 1. a and b must have the same
// length. It is the one cosine of kgeval: every metric here, scoring's
// SIMILAR edges and the claims' cosine evidence use it.
func Cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		// A product of two float32s is exact in float64, so these sums
		// have the same bits whether the compiler fuses them or not.
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
