package check

import (
	"fmt"
	"math"

	"github.com/kgeval/kgeval/stats"
)

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func ptr(x float64) *float64 { return &x }

// mean is the mean of x, nil when x is empty.
func mean(x []float64) *float64 {
	if len(x) == 0 {
		return nil
	}
	return ptr(stats.Mean(x))
}

// plural is "1 sample" or "n samples".
func plural(n int, one, many string) string {
	if n != 1 {
		one = many
	}
	return fmt.Sprintf("%d %s", n, one)
}
