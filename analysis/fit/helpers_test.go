package fit_test

import (
	"testing"

	"github.com/kgeval/kgeval/analysis/analysistest"
)

var f = analysistest.Ptr

func near(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	analysistest.Near(t, what, got, want)
}
