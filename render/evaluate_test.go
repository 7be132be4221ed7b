package render

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

func fp(v float64) *float64 { return &v }

// scoreRows are four samples of two systems with the four default pairs:
// claim scores on faithfulness, slot coverage on the question pairs,
// factual_correctness null everywhere (no reference), and one other metric.
func scoreRows(systems ...string) []readmodel.SampleScores {
	na := map[string]string{metricreg.MetricRecall: kgeval.ReasonNotApplicable + "only against the reference", metricreg.MetricF1: kgeval.ReasonNotApplicable + "only against the reference"}
	var rows []readmodel.SampleScores
	for i, v := range []float64{0.9, 0.2, 0.7, 0.4} {
		slot := fp(float64(i%2) * 1)
		rows = append(rows, readmodel.SampleScores{ID: string(rune('a' + i)), Record: i, System: systems[i%len(systems)],
			Scores: map[string]kgeval.KGResult{
				"faithfulness":        kgeval.KGResult{Pair: "faithfulness", Reasons: na}.With(metricreg.MetricClaimScore, fp(v)).With(metricreg.MetricClaimScoreMin, fp(v)).With(metricreg.MetricMultihop, fp(0.5)).With(metricreg.MetricCommunityOverlap, fp(0.1)),
				"factual_correctness": {Pair: "factual_correctness", Reason: "no reference"},
				"answer_relevancy":    kgeval.KGResult{Pair: "answer_relevancy", Reasons: na}.With(metricreg.MetricSlotCoverage, slot).With(metricreg.MetricMultihop, fp(1)),
				"context_relevancy":   kgeval.KGResult{Pair: "context_relevancy", Reasons: na}.With(metricreg.MetricSlotCoverage, slot).With(metricreg.MetricMultihop, fp(1)),
			},
			Metrics: map[string]kgeval.MetricScore{metricreg.MetricKPrecision: {Metric: metricreg.MetricKPrecision, Family: metricreg.FamilyBaseline, Value: fp(0.5)}},
		})
	}
	return rows
}

// TestScores: the headline comes first, the full tables only with all,
// and without them one line counts what they hold.
func TestScores(t *testing.T) {
	pairs := kgeval.DefaultPairs()
	rows := scoreRows("")
	var short, long bytes.Buffer
	Scores(&short, "my run", rows, pairs, false)
	Scores(&long, "my run", rows, pairs, true)
	s := short.String()
	t.Log("\n" + s)
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if !strings.HasPrefix(lines[0], "pair ") || !strings.Contains(lines[0], "headline") || strings.Contains(lines[0], "system") {
		t.Errorf("header %q", lines[0])
	}
	for i, want := range []string{
		`^faithfulness +score +0\.550 +4 +≥ [0-9.]+ \(calibrated; datasets' BAcc [0-9.]+–[0-9.]+\) +2/4 \(50%\) +0 *$`,
		`^factual_correctness +score +- +0 +none \(no fitted mark\) +- +4 +no reference \(4\)$`,
		`^answer_relevancy +slot_coverage +0\.500 +4 +none \(no fitted mark\) +- +0 *$`,
		`^context_relevancy +slot_coverage +0\.500 +4 +none \(no fitted mark\) +- +0 *$`,
	} {
		if !regexp.MustCompile(want).MatchString(lines[i+1]) {
			t.Errorf("line %d %q does not match %s", i+1, lines[i+1], want)
		}
	}
	// The count: every row of the full KG table but the headlines shown
	// (factual_correctness's headline is null everywhere, not "not
	// applicable": in both), plus k_precision.
	var results []kgeval.KGResult
	for _, r := range rows {
		for _, k := range r.Scores {
			results = append(results, k)
		}
	}
	want := len(summaryRows(results, pairs)) - 4 + 1
	if !strings.Contains(s, "\n"+strconv.Itoa(want)+" more metrics: kgeval evaluate ... --all") || !strings.Contains(s, "kgeval export --run 'my run'") {
		t.Errorf("want %d more metrics; short output:\n%s", want, s)
	}
	if strings.Contains(s, "std") || strings.Contains(s, "k_precision") {
		t.Errorf("the full tables without --all:\n%s", s)
	}
	l := long.String()
	if !strings.HasPrefix(l, lines[0]) || !strings.Contains(l, "\npair  ") || !strings.Contains(l, "std") || !strings.Contains(l, "k_precision") || strings.Contains(l, "more metrics") {
		t.Errorf("--all output:\n%s", l)
	}
}

// TestHeadline_Systems: one row per system, a pair null everywhere in one
// row.
func TestHeadline_Systems(t *testing.T) {
	var b bytes.Buffer
	Headline(&b, analysis.Headlines(scoreRows("x", "y"), kgeval.DefaultPairs(), nil))
	out := b.String()
	t.Log("\n" + out)
	for _, want := range []string{
		`(?m)^pair +headline +system +mean`,
		`(?m)^faithfulness +score +x +0\.800 +2 `,
		`(?m)^faithfulness +score +y +0\.300 +2 `,
		`(?m)^factual_correctness +score +\(all\) +- +0 `,
		`(?m)^context_relevancy +slot_coverage +y +1\.000 +2 +none \(no fitted mark\) +- `,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("no match for %s", want)
		}
	}
	if n := strings.Count(out, "\n"); n != 8 {
		t.Errorf("%d lines, want a header and 7 rows", n)
	}
}
