package fit_test

import (
	"math"
	"testing"
)

func f(x float64) *float64 { return &x }

func near(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	if got == nil {
		t.Errorf("%s = null, want %.12g", what, want)
		return
	}
	if math.Abs(*got-want) > 1e-12 {
		t.Errorf("%s = %.15g, want %.15g", what, *got, want)
	}
}
