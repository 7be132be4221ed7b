package metrics_test

import (
	"math"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/metrics"
)

// tol is the tolerance for values that are not rounded to 2 decimals: the
// expected values are the exact real numbers, the computed ones float64.
const tol = 1e-12

// EqualValue fails tb unless got is the number want (within tol).
func EqualValue(tb testing.TB, name string, got metrics.Value, want float64) {
	tb.Helper()
	v, ok := got.Float()
	switch {
	case !ok:
		tb.Errorf("%s = %v, want %v", name, got, want)
	case got.Reason != "":
		tb.Errorf("%s = %v has reason %q", name, v, got.Reason)
	case math.Abs(v-want) > tol:
		tb.Errorf("%s = %v, want %v", name, v, want)
	}
}

// ExactValue fails tb unless got is exactly want: for values rounded to 2
// decimals, whose float64 is the one the literal denotes.
func ExactValue(tb testing.TB, name string, got metrics.Value, want float64) {
	tb.Helper()
	if v, ok := got.Float(); !ok || v != want {
		tb.Errorf("%s = %v, want %v", name, got, want)
	}
}

// NullValue fails tb unless got is null with the given reason.
func NullValue(tb testing.TB, name string, got metrics.Value, reason string) {
	tb.Helper()
	if !got.IsNull() || got.Reason != reason {
		tb.Errorf("%s = %v, want null (%s)", name, got, reason)
	}
}

// MustCode fails tb unless err has the application error code.
func MustCode(tb testing.TB, err error, code string) {
	tb.Helper()
	if got := kgeval.ErrorCode(err); got != code {
		tb.Fatalf("error code %q (%v), want %q", got, err, code)
	}
}

// v is metrics.Of, short for tables.
func v(x float64) metrics.Value { return metrics.Of(x) }

var null = metrics.Null("not computed")

func TestValue_Score(t *testing.T) {
	s := metrics.Of(93.73).Score("s1", metricreg.MetricRagasScore)
	if s.Sample != "s1" || s.Metric != "ragas_score" || s.Value == nil || *s.Value != 93.73 || s.Reason != "" {
		t.Errorf("non-null: %+v", s)
	}
	s = metrics.Null("no contexts").Score("s2", metricreg.MetricContextPrecision)
	if s.Value != nil || s.Reason != "no contexts" || s.Metric != "ragas_context_precision" {
		t.Errorf("null: %+v", s)
	}
	if got := metrics.Of(0).String(); got != "0" {
		t.Errorf("String() = %q", got)
	}
	if got := metrics.Null("why").String(); got != "null (why)" {
		t.Errorf("String() = %q", got)
	}
}

func TestRound2(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{
		{93.72625, 93.73},
		{83.33333333333333, 83.33},
		{66.66666666666667, 66.67},
		{100, 100},
		{0, 0},
		{19.994, 19.99},
		{19.996, 20},
	} {
		if got := metrics.Round2(c.in); got != c.want {
			t.Errorf("Round2(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
