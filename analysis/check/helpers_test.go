package check_test

import "github.com/kgeval/kgeval/analysis/analysistest"

var (
	f    = analysistest.Ptr
	mrow = analysistest.MetricRow
)
