package check_test

import (
	"math"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/analysis/analysistest"
	"github.com/kgeval/kgeval/analysis/check"
	"github.com/kgeval/kgeval/metricreg"
)

func vals(xs ...any) []*float64 {
	out := make([]*float64, len(xs))
	for i, x := range xs {
		if x != nil {
			out[i] = f(float64(x.(int)) / 10)
		}
	}
	return out
}

// TestPairedWinRate checks counts, rate and interval on hand-computed
// cases (values in tenths).
func TestPairedWinRate(t *testing.T) {
	cases := []struct {
		name                string
		good, bad           []*float64
		dir                 metricreg.Direction
		n, w, ti, l, ng, nb int
		rate, lo, hi        float64 // rate < 0: null
	}{
		{"AllWins", vals(9, 8, 7), vals(1, 2, 3), metricreg.HigherIsBetter, 3, 3, 0, 0, 0, 0, 1, 1, 1},
		{"AllTies", vals(5, 5, 5, 5), vals(5, 5, 5, 5), metricreg.HigherIsBetter, 4, 0, 4, 0, 0, 0, 0.5, 0.5, 0.5},
		{"AllLosses", vals(1, 2), vals(3, 4), metricreg.HigherIsBetter, 2, 0, 0, 2, 0, 0, 0, 0, 0},
		// 2 wins, 1 tie, 1 loss: (2 + 0.5) / 4.
		{"Mixed", vals(10, 0, 5, 7), vals(0, 10, 5, 2), metricreg.HigherIsBetter, 4, 2, 1, 1, 0, 0, 0.625, 0.25, 1},
		// One win and one loss: resampled means 0, ½, 1 with probabilities
		// ¼, ½, ¼, so the 2.5% and 97.5% points are 0 and 1.
		{"OneEach", vals(9, 1), vals(1, 9), metricreg.HigherIsBetter, 2, 1, 0, 1, 0, 0, 0.5, 0, 1},
		// Nulls: question 2 lacks good's value, 3 bad's, 4 both; only
		// question 1 counts.
		{"Nulls", vals(9, nil, 9, nil), vals(1, 1, nil, nil), metricreg.HigherIsBetter, 1, 1, 0, 0, 2, 2, 1, 1, 1},
		{"AllNull", vals(nil), vals(1), metricreg.HigherIsBetter, 0, 0, 0, 0, 1, 0, -1, 0, 0},
		// Lower is better: 1 < 3 wins, 5 > 2 loses, 4 = 4 ties.
		{"LowerIsBetter", vals(1, 5, 4), vals(3, 2, 4), metricreg.LowerIsBetter, 3, 1, 1, 1, 0, 0, 0.5, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := check.PairedWinRate(c.good, c.bad, c.dir, check.BootstrapResamples, check.BootstrapSeed)
			if w.N != c.n || w.Wins != c.w || w.Ties != c.ti || w.Losses != c.l || w.NullGood != c.ng || w.NullBad != c.nb {
				t.Errorf("n %d w/t/l %d/%d/%d nulls %d/%d; want n %d %d/%d/%d nulls %d/%d", w.N, w.Wins, w.Ties, w.Losses, w.NullGood, w.NullBad,
					c.n, c.w, c.ti, c.l, c.ng, c.nb)
			}
			if c.rate < 0 {
				if w.Rate != nil || w.Lo != nil || w.Hi != nil {
					t.Errorf("rate %v [%v, %v], want null", w.Rate, w.Lo, w.Hi)
				}
				return
			}
			analysistest.Near(t, "rate", w.Rate, c.rate)
			analysistest.Near(t, "lo", w.Lo, c.lo)
			analysistest.Near(t, "hi", w.Hi, c.hi)
		})
	}
}

// TestBootstrap checks the interval of 30 wins and 20 losses: the same
// numbers every time, containing the point estimate 0.6, and close to the
// normal approximation 0.6 ± 1.96·sqrt(0.24/50) = [0.464, 0.736]; then a
// hand-computed small case.
func TestBootstrap(t *testing.T) {
	outcomes := make([]float64, 50)
	for i := range 30 {
		outcomes[i] = 1
	}
	lo, hi := check.Bootstrap(outcomes, 10000, 1)
	lo2, hi2 := check.Bootstrap(outcomes, 10000, 1)
	if lo != lo2 || hi != hi2 {
		t.Errorf("two runs: [%v, %v] and [%v, %v]", lo, hi, lo2, hi2)
	}
	if !(lo < 0.6 && 0.6 < hi) || math.Abs(lo-0.464) > 0.03 || math.Abs(hi-0.736) > 0.03 {
		t.Errorf("interval [%v, %v], want about [0.464, 0.736] around 0.6", lo, hi)
	}
	if lo3, hi3 := check.Bootstrap(outcomes, 10000, 2); lo3 < 0.4 || hi3 > 0.8 {
		t.Errorf("another seed: [%v, %v]", lo3, hi3)
	}
	// Three wins and a loss: the resampled mean is k/4 with k ~ Binomial(4,
	// 3/4): P(0) = 1/256 < 2.5% <= P(<= 1/4) = 13/256, so lo = 1/4, hi = 1.
	if lo, hi := check.Bootstrap([]float64{1, 1, 1, 0}, 10000, 1); lo != 0.25 || hi != 1 {
		t.Errorf("3 wins 1 loss: [%v, %v], want [0.25, 1]", lo, hi)
	}
}

// TestValidity builds a WikiEval-like run (3 questions × good / ungrounded
// / poor) and checks which system each metric is compared with, pairing by
// question, the order of the rows and the joined sensitivity numbers.
func TestValidity(t *testing.T) {
	row := func(sys, q string, m map[string]*float64) analysis.Row {
		r := analysis.Row{ID: sys + q, System: sys, Question: q, Metrics: map[string]kgeval.MetricScore{}}
		for k, v := range m {
			r.Metrics[k] = kgeval.MetricScore{Metric: k, Value: v}
		}
		return r
	}
	m := func(faith, rel, ref, blind, contra *float64) map[string]*float64 {
		return map[string]*float64{"ts_groundedness_avg": faith, "ragas_answer_relevance": rel, "semantic_similarity": ref,
			"context_relevancy.multihop": blind, "faithfulness.contradiction": contra}
	}
	rows := []analysis.Row{
		// Rows in no particular order: pairing is by question.
		row("poor", "q2", m(f(0.5), f(0.1), f(0.2), f(0.4), f(0.1))),
		row("good", "q1", m(f(0.9), f(0.9), f(1), f(0.4), f(0.1))),
		row("ungrounded", "q1", m(f(0.2), f(0.8), f(0.5), f(0.4), f(0.6))),
		row("poor", "q1", m(f(0.3), f(0.2), f(0.3), f(0.4), f(0.1))),
		row("good", "q2", m(f(0.8), f(0.7), f(1), f(0.4), f(0.2))),
		row("ungrounded", "q2", m(f(0.9), f(0.9), f(0.5), f(0.4), f(0.2))),
		row("good", "q3", m(f(0.8), nil, f(1), f(0.4), f(0.1))),
		row("ungrounded", "q3", m(nil, f(0.5), f(0.5), f(0.4), f(0.5))),
		row("poor", "q3", m(f(0.1), f(0.4), f(0.1), f(0.4), nil)),
	}
	v := analysis.MetricVectors(rows)
	sens := []analysis.Separation{{Metric: "ts_groundedness_avg", AUROC: f(0.8), CohensD: f(1.5)}, {Metric: "faithfulness.contradiction", AUROC: f(0.3), CohensD: f(-0.7)}}
	rep, err := check.Validity(rows, v, v.Names(), check.ValidityOptions{Good: "good", BadFaithfulness: "ungrounded", BadRelevance: "poor", Sensitivity: sens})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Questions["ungrounded"] != 3 || rep.Questions["poor"] != 3 || rep.Resamples != 10000 || rep.Seed != 1 {
		t.Errorf("report %+v", rep)
	}
	var got []string
	for _, r := range rep.Rows {
		got = append(got, r.Metric+" vs "+r.Against)
	}
	want := []string{
		"faithfulness.contradiction vs ungrounded", // lower is better: 2 wins 1 tie → 5/6
		"ts_groundedness_avg vs ungrounded",        // q1 win, q2 loss, q3 null → 1/2
		"ragas_answer_relevance vs poor",           // q1, q2 wins, q3 null → 1
		"semantic_similarity vs ungrounded",        // reference-based: both, 1 each, ungrounded first
		"semantic_similarity vs poor",
		"context_relevancy.multihop vs ungrounded", // answer-blind: ties, last
		"context_relevancy.multihop vs poor",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	r := rep.Rows[0]
	analysistest.Near(t, "contradiction rate", r.Rate, 5.0/6)
	analysistest.Near(t, "contradiction AUROC (turned round)", r.AUROC, 0.7)
	analysistest.Near(t, "contradiction d (turned round)", r.CohensD, 0.7)
	if r.Direction != "lower is better" || r.Type != metricreg.TypeFaithfulness {
		t.Errorf("contradiction row %+v", r)
	}
	r = rep.Rows[1]
	if r.N != 2 || r.Wins != 1 || r.Losses != 1 || r.NullBad != 1 || *r.AUROC != 0.8 || *r.CohensD != 1.5 {
		t.Errorf("ts_groundedness_avg row %+v", r)
	}
	if r := rep.Rows[2]; r.N != 2 || r.NullGood != 1 || *r.Rate != 1 || r.AUROC != nil {
		t.Errorf("ragas_answer_relevance row %+v", r)
	}
	if r := rep.Rows[5]; r.Type != metricreg.TypeNoAnswer || r.Ties != 3 || *r.Rate != 0.5 {
		t.Errorf("context_relevancy.multihop row %+v", r)
	}

	_, err = check.Validity(rows, v, v.Names(), check.ValidityOptions{Good: "good", BadFaithfulness: "bad", BadRelevance: "poor"})
	if kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.Contains(err.Error(), `no system "bad" (it has: good, poor, ungrounded)`) {
		t.Errorf("missing system: %v", err)
	}
}
