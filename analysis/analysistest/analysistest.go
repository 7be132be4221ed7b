// Package analysistest holds the test helpers that the tests of analysis
// and of its packages by job (analysis/check, analysis/fit) share.
package analysistest

import (
	"math"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
)

// Ptr returns a pointer to x: a present value of a row.
func Ptr(x float64) *float64 { return &x }

// Near fails t unless got is present and within 1e-12 of want.
func Near(t testing.TB, what string, got *float64, want float64) {
	t.Helper()
	if got == nil {
		t.Errorf("%s = null, want %.12g", what, want)
		return
	}
	if math.Abs(*got-want) > 1e-12 {
		t.Errorf("%s = %.15g, want %.15g", what, *got, want)
	}
}

// MetricRow is a sample of system with the per-sample metric values m.
func MetricRow(id, system, question string, m map[string]*float64) analysis.Row {
	r := analysis.Row{ID: id, System: system, Question: question, Metrics: map[string]kgeval.MetricScore{}}
	for name, v := range m {
		r.Metrics[name] = kgeval.MetricScore{Metric: name, Value: v}
	}
	return r
}
