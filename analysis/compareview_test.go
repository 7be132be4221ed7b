package analysis_test

import (
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
)

// TestVerdict: better or worse only below p = 0.05 and in the metric's
// direction (Gain), by Wilcoxon, else the paired t-test.
func TestVerdict(t *testing.T) {
	f := kgeval.Float
	for _, tc := range []struct {
		m    analysis.RunMetric
		want string
	}{
		{analysis.RunMetric{}, "n/a"},
		{analysis.RunMetric{N: 8}, "n/a"},
		{analysis.RunMetric{N: 8, Gain: f(0.2), Wilcoxon: &analysis.Test{P: 0.01}}, "better"},
		{analysis.RunMetric{N: 8, Gain: f(-0.2), Wilcoxon: &analysis.Test{P: 0.01}}, "worse"},
		{analysis.RunMetric{N: 8, Gain: f(-0.2), Wilcoxon: &analysis.Test{P: 0.2}}, "no significant change"},
		{analysis.RunMetric{N: 8, Gain: f(0.2), Wilcoxon: &analysis.Test{P: 0.05}}, "no significant change"},
		{analysis.RunMetric{N: 8, Gain: f(0), Wilcoxon: &analysis.Test{P: 0.01}}, "no significant change"},
		{analysis.RunMetric{N: 8, Gain: f(-0.2), PairedT: &analysis.Test{P: 0.01}}, "worse"},
		// Wilcoxon decides when there is one, even against the t-test.
		{analysis.RunMetric{N: 8, Gain: f(0.2), Wilcoxon: &analysis.Test{P: 0.3}, PairedT: &analysis.Test{P: 0.01}}, "no significant change"},
		{analysis.RunMetric{N: 1, Gain: f(-0.2)}, "no significant change"},
	} {
		if got := analysis.Verdict(tc.m); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.m, got, tc.want)
		}
	}
}

// TestCompareView_Rows: the chosen pair's KG metrics by metric name, then
// the other variables; the others' KG metrics are left out.
func TestCompareView_Rows(t *testing.T) {
	f := kgeval.Float
	v := &analysis.CompareView{Pair: "faithfulness", Key: "faithfulness.multihop", Paired: &analysis.RunComparison{Metrics: []analysis.RunMetric{
		{Metric: "faithfulness.multihop", N: 8, Gain: f(0.2), Wilcoxon: &analysis.Test{P: 0.01}},
		{Metric: "answer_relevancy.multihop", N: 8},
		{Metric: "ts_groundedness_avg", N: 8, Gain: f(-0.1), Wilcoxon: &analysis.Test{P: 0.01}},
	}}}
	rows := v.Rows()
	if len(rows) != 2 || rows[0].Name != "multihop" || !rows[0].Chosen || rows[0].Verdict != "better" ||
		rows[1].Name != "ts_groundedness_avg" || rows[1].Chosen || rows[1].Verdict != "worse" {
		t.Errorf("rows: %+v", rows)
	}
	if (&analysis.CompareView{}).Rows() != nil {
		t.Error("rows without a paired comparison")
	}
}
