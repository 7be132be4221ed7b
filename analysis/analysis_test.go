package analysis_test

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/analysis/analysistest"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/stats"
)

var f = analysistest.Ptr

func near(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	analysistest.Near(t, what, got, want)
}

// kgRow is a sample with one KG pair (faithfulness) and optional metrics.
func kgRow(id, system, question string, multihop, overlap *float64, metrics map[string]*float64) analysis.Row {
	r := analysis.Row{ID: id, System: system, Question: question,
		Scores:  map[string]kgeval.KGResult{"faithfulness": kgeval.KGResult{Pair: "faithfulness"}.With(metricreg.MetricMultihop, multihop).With(metricreg.MetricCommunityOverlap, overlap).With(metricreg.MetricCommunityCoverage, f(0.5))},
		Metrics: map[string]kgeval.MetricScore{}}
	for name, v := range metrics {
		r.Metrics[name] = kgeval.MetricScore{Metric: name, Value: v}
	}
	return r
}

func TestMetricVectors(t *testing.T) {
	rows := []analysis.Row{
		kgRow("a", "s", "q1", f(1), nil, map[string]*float64{"ts_groundedness_avg": f(0.25)}),
		kgRow("b", "s", "q2", nil, f(0.5), nil),
	}
	v := analysis.MetricVectors(rows)
	want := []string{"faithfulness.community_coverage", "faithfulness.community_overlap", "faithfulness.multihop", "ts_groundedness_avg"}
	if got := v.Names(); !slices.Equal(got, want) {
		t.Fatalf("names %v, want %v", got, want)
	}
	if x := v["faithfulness.multihop"]; *x[0] != 1 || x[1] != nil {
		t.Errorf("multihop vector %v", x)
	}
	if x := v["ts_groundedness_avg"]; *x[0] != 0.25 || x[1] != nil {
		t.Errorf("ts vector %v", x)
	}
	present, empty := v.Present(v.Names())
	if len(present) != 4 || len(empty) != 0 {
		t.Errorf("present %v empty %v", present, empty)
	}
}

func TestVectors_Select(t *testing.T) {
	v := analysis.Vectors{}
	for _, n := range []string{"faithfulness.multihop", "faithfulness.community_overlap", "answer_relevancy.multihop",
		"ts_groundedness_avg", "ts_groundedness_minimax", "ts_completeness_avg", "semantic_similarity", "human.usefulness"} {
		v[n] = []*float64{f(1)}
	}
	for _, tc := range []struct {
		patterns []string
		want     []string
	}{
		{nil, v.Names()},
		{[]string{"faithfulness"}, []string{"faithfulness.community_overlap", "faithfulness.multihop"}},
		{[]string{"multihop"}, []string{"answer_relevancy.multihop", "faithfulness.multihop"}},
		{[]string{"kg"}, []string{"answer_relevancy.multihop", "faithfulness.community_overlap", "faithfulness.multihop"}},
		{[]string{"ts_groundedness"}, []string{"ts_groundedness_avg", "ts_groundedness_minimax"}},
		{[]string{"ts", "human"}, []string{"ts_completeness_avg", "ts_groundedness_avg", "ts_groundedness_minimax", "human.usefulness"}},
		{[]string{"semantic_similarity", "faithfulness.multihop"}, []string{"faithfulness.multihop", "semantic_similarity"}},
	} {
		got, err := v.Select(tc.patterns)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Select(%v) = %v, %v; want %v", tc.patterns, got, err, tc.want)
		}
	}
	_, err := v.Select([]string{"faithfulness", "bogus", " nope "})
	var unknown *analysis.UnknownVariablesError
	if kgeval.ErrorCode(err) != kgeval.EINVALID || !errors.As(err, &unknown) || !slices.Equal(unknown.Unknown, []string{"bogus", "nope"}) ||
		!slices.Equal(unknown.Names, v.Names()) || !strings.HasPrefix(err.Error(), "no such variable in this run: bogus,nope (it has: ") || strings.Contains(err.Error(), "--") {
		t.Errorf("unknown patterns: %v", err)
	}
}

// TestCorrelate checks the matrix on constructed rows: pairwise-complete
// filtering, exact r and rho (with n = 4, df = 2 and the two-sided p-value
// is exactly 1 − |r|), and null with a reason for n < 3 and constants.
func TestCorrelate(t *testing.T) {
	x := []*float64{f(1), f(2), f(3), nil, f(4), f(5)}
	y := []*float64{f(2), f(4), f(5), f(1), f(4), nil}
	c := []*float64{f(7), f(7), f(7), f(1), f(7), f(7)} // constant where x is present
	s := []*float64{nil, nil, f(1), f(2), f(3), nil}    // 2 values where x is present, 3 where y or c is
	v := analysis.Vectors{"x": x, "y": y, "c": c, "s": s}
	m := analysis.Correlate(v, []string{"x", "y", "c", "s"})
	if len(m.Pairs) != 6 {
		t.Fatalf("%d pairs, want 6", len(m.Pairs))
	}
	xy, ok := m.Get("y", "x")
	if !ok || xy.X != "x" || xy.Y != "y" || xy.N != 4 || xy.Reason != "" {
		t.Fatalf("x~y: %+v", xy)
	}
	// Pairs (1,2) (2,4) (3,5) (4,4): r = 3.5/√23.75; ranks of y 1, 2.5, 4, 2.5: rho = 3/√22.5.
	near(t, "pearson r", xy.Pearson, 3.5/math.Sqrt(23.75))
	near(t, "pearson p", xy.PearsonP, 1-3.5/math.Sqrt(23.75))
	near(t, "spearman rho", xy.Spearman, 3/math.Sqrt(22.5))
	near(t, "spearman p", xy.SpearmanP, 1-3/math.Sqrt(22.5))
	xc, _ := m.Get("x", "c")
	if xc.N != 5 || xc.Pearson != nil || xc.Spearman != nil || xc.Reason != "c is constant over the 5 pairwise-complete samples" {
		t.Errorf("x~c: %+v", xc)
	}
	ys, _ := m.Get("y", "s")
	if ys.N != 3 || ys.Pearson == nil {
		t.Errorf("y~s: %+v", ys)
	}
	xs, _ := m.Get("x", "s")
	if xs.N != 2 || xs.Pearson != nil || xs.PearsonP != nil || xs.Spearman != nil || xs.Reason != "2 samples pairwise-complete, need at least 3" {
		t.Errorf("x~s: %+v", xs)
	}
	cs, _ := m.Get("c", "s")
	if cs.N != 3 || cs.Reason != "" {
		t.Errorf("c~s: %+v", cs)
	}
	// s = 1, 2, 3 against c = 7, 1, 7: r = 0, p = 1.
	near(t, "c~s r", cs.Pearson, 0)
	near(t, "c~s p", cs.PearsonP, 1)
	if _, ok := m.Get("x", "nope"); ok {
		t.Error("Get of an unknown variable: ok")
	}
}

// TestHumanLabels maps an ExpertQA-shaped record with the documented table.
func TestHumanLabels(t *testing.T) {
	raw := `{"usefulness": "Partially useful",
	  "claims": [
	    {"claim": "a", "support": "Complete", "correctness": "Definitely correct", "informativeness": "Very relevant"},
	    {"claim": "b", "support": "Partial", "correctness": "Probably correct", "informativeness": "Not too important"},
	    {"claim": "c", "support": "N/A", "correctness": "Unsure"},
	    {"claim": "d", "support": "Missing", "correctness": "Likely incorrect"},
	    {"claim": "e", "support": null, "correctness": "Definitely incorrect"},
	    {"claim": "f", "support": " Incomplete ", "correctness": null}
	  ],
	  "derived": {"n_claims": 6, "support_complete_frac": 0.1667, "nested": {"k": 2}},
	  "score": 3.5, "flag": true, "comment": "free text", "list": [1, 2]}`
	got, err := analysis.HumanLabels(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{
		"usefulness":                    0.5,
		"claims.support":                (1 + 0.5 + 0 + 0.25) / 4, // N/A and null skipped
		"claims.correctness":            (1 + 0.75 + 0.5 + 0.25 + 0) / 5,
		"claims.informativeness":        (1 + 1.0/3) / 2,
		"derived.n_claims":              6,
		"derived.support_complete_frac": 0.1667,
		"derived.nested.k":              2,
		"score":                         3.5,
		"flag":                          1,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("labels\n got %v\nwant %v", got, want)
	}
	for _, raw := range []string{"", "null", " null "} {
		if l, err := analysis.HumanLabels(raw); l != nil || err != nil {
			t.Errorf("HumanLabels(%q) = %v, %v", raw, l, err)
		}
	}
	if l, _ := analysis.HumanLabels(`{"usefulness": "Very useful", "claims": [{"support": "N/A"}]}`); len(l) != 0 {
		t.Errorf("unmapped strings gave labels %v", l)
	}
	if _, err := analysis.HumanLabels(`[1, 2]`); err == nil {
		t.Error("a JSON array: no error")
	}
	rows := []analysis.Row{{ID: "a", Human: raw}, {ID: "b", Human: "null"}, {ID: "c", Human: `{"score": 1}`}}
	v, err := analysis.HumanVectors(rows)
	if err != nil {
		t.Fatal(err)
	}
	if x := v["human.score"]; len(x) != 3 || *x[0] != 3.5 || x[1] != nil || *x[2] != 1 {
		t.Errorf("human.score %v", x)
	}
	if x := v["human.usefulness"]; x[2] != nil || *x[0] != 0.5 {
		t.Errorf("human.usefulness %v", x)
	}
	if _, err := analysis.HumanVectors([]analysis.Row{{ID: "bad", Human: "{"}}); err == nil || !strings.Contains(err.Error(), "sample bad") {
		t.Errorf("broken labels: %v", err)
	}
}

// TestCompare: paired by question with ties in the win rate, Welch for a
// system with other questions, grade and class distributions.
func TestCompare(t *testing.T) {
	rows := []analysis.Row{
		kgRow("a1", "A", "q1", f(1), nil, nil),
		kgRow("a2", "A", "q2", f(0.5), nil, nil),
		kgRow("a3", "A", "q3", f(0.5), nil, nil),
		kgRow("a4", "A", "q4", nil, nil, nil),
		kgRow("b1", "B", "q1", f(0), nil, map[string]*float64{"factual_accuracy": f(85)}),
		kgRow("b2", "B", "q2", f(0.5), nil, map[string]*float64{"factual_accuracy": f(61)}),
		kgRow("b3", "B", "q3", f(1), nil, nil),
		kgRow("b4", "B", "q4", f(0.3), nil, nil),
		kgRow("c1", "C", "q1", f(0.2), nil, nil),
		kgRow("c9", "C", "q9", f(0.9), nil, nil),
		kgRow("c8", "C", "q8", f(0.4), nil, nil),
	}
	rows[5].Explanations = map[string][]byte{"factual_accuracy": []byte(`{"score": 61, "grade": "B"}`), "answer_class": []byte(`{"class": "DONT_KNOW", "by": "phrase"}`)}
	rows[6].Explanations = map[string][]byte{"answer_class": []byte(`{"class": "CORRECT"}`)}
	v := analysis.MetricVectors(rows)
	c := analysis.Compare(rows, v, []string{"faithfulness.multihop"})
	if len(c.Systems) != 3 || c.Systems[0].System != "A" || len(c.Differences) != 3 {
		t.Fatalf("comparison %+v", c)
	}
	a := c.Systems[0].Metrics[0]
	if a.N != 3 || a.Null != 1 || *a.Best != (analysis.Extreme{Value: 1, Sample: "a1"}) || *a.Worst != (analysis.Extreme{Value: 0.5, Sample: "a2"}) {
		t.Errorf("A: %+v best %+v worst %+v", a, a.Best, a.Worst)
	}
	near(t, "A mean", a.Mean, 2.0/3)
	if c.Systems[0].Grades != nil || c.Systems[0].Classes != nil {
		t.Errorf("A has no factual_accuracy or answer_class, got %v %v", c.Systems[0].Grades, c.Systems[0].Classes)
	}
	if b := c.Systems[1]; !reflect.DeepEqual(b.Grades, map[string]int{"A": 1, "B": 1}) || !reflect.DeepEqual(b.Classes, map[string]int{"DONT_KNOW": 1, "CORRECT": 1}) {
		t.Errorf("B grades %v classes %v", b.Grades, b.Classes)
	}

	ab := c.Differences[0]
	if ab.A != "A" || ab.B != "B" || !ab.Paired || ab.N != 3 || ab.Shared != 3 || ab.Wins != 1 || ab.Ties != 1 || ab.Losses != 1 || ab.Welch != nil {
		t.Fatalf("A vs B: %+v", ab)
	}
	near(t, "win rate", ab.WinRate, 0.5)
	near(t, "mean A (pairs)", ab.MeanA, 2.0/3)
	near(t, "mean B (pairs)", ab.MeanB, 0.5)
	// Differences 1, 0, −0.5: Wilcoxon drops the zero; W+ = 2, W− = 1, T = 1,
	// z = (1 − 1.5)/√1.25; paired t = (1/6)/√(0.58333/3) on 2 df, p = 1 − |t|/√(2+t²).
	near(t, "wilcoxon p", &ab.Wilcoxon.P, math.Erfc(0.5/math.Sqrt(1.25)/math.Sqrt2))
	if ab.Wilcoxon.Stat != 1 || ab.Wilcoxon.N != 2 {
		t.Errorf("wilcoxon %+v", ab.Wilcoxon)
	}
	tt := (1.0 / 6) / math.Sqrt((math.Pow(1-1.0/6, 2)+math.Pow(1.0/6, 2)+math.Pow(0.5+1.0/6, 2))/2/3)
	near(t, "paired t", &ab.PairedT.Stat, tt)
	near(t, "paired t p", &ab.PairedT.P, 1-tt/math.Sqrt(2+tt*tt))

	ac := c.Differences[1]
	if ac.B != "C" || ac.Paired || ac.Shared != 1 || ac.Wins != 1 || ac.N != 6 || ac.Wilcoxon != nil || ac.Welch == nil {
		t.Fatalf("A vs C: %+v", ac)
	}
	near(t, "A vs C win rate", ac.WinRate, 1)
	want, _ := stats.WelchT([]float64{1, 0.5, 0.5}, []float64{0.2, 0.9, 0.4})
	near(t, "welch t", &ac.Welch.Stat, want.Stat)
	near(t, "welch p", &ac.Welch.P, want.P)

	// One question each: paired, but the tests need more.
	one := analysis.Compare(rows[:1], v, []string{"faithfulness.multihop"})
	if len(one.Differences) != 0 {
		t.Errorf("one system gave differences %+v", one.Differences)
	}
	two := []analysis.Row{rows[0], rows[4]}
	d := analysis.Compare(two, analysis.MetricVectors(two), []string{"faithfulness.multihop"}).Differences[0]
	if !d.Paired || d.PairedT != nil || d.Reasons["paired_t"] != "1 pair with both values present, need 2" || d.Wilcoxon == nil || *d.WinRate != 1 {
		t.Errorf("one pair: %+v", d)
	}
}

// TestSeparate: AUROC and Cohen's d of constructed variants, with the
// descriptive numbers and histograms.
func TestSeparate(t *testing.T) {
	groups := []analysis.Group{
		{Name: "reference_as_answer", V: analysis.Vectors{"faithfulness.multihop": {f(1), f(0.8), f(0.6), nil}}},
		{Name: "wrong_answer", V: analysis.Vectors{"faithfulness.multihop": {f(0.6), f(0.2), f(0), f(0.4)}}},
	}
	s := analysis.Separate("faithfulness.multihop", groups, "reference_as_answer", "wrong_answer", 10)
	// 11.5 of 12 pairs ordered (0.6 against 0.6 is a tie).
	near(t, "auroc", s.AUROC, 11.5/12)
	// means 0.8 and 0.3, sample variances 0.04 and 0.2/3, pooled (0.08 + 0.2)/5.
	near(t, "cohen's d", s.CohensD, 0.5/math.Sqrt(0.056))
	if s.Reason != "" || len(s.Variants) != 2 {
		t.Fatalf("%+v", s)
	}
	pos, neg := s.Variants[0], s.Variants[1]
	if pos.N != 3 || pos.Null != 1 || neg.N != 4 || neg.Null != 0 {
		t.Errorf("counts %+v %+v", pos, neg)
	}
	near(t, "mean pos", pos.Mean, 0.8)
	near(t, "std pos", pos.Std, math.Sqrt(0.08/3))
	near(t, "std neg", neg.Std, math.Sqrt(0.2/4))
	// numpy's edges: 6·0.1 = 0.6000000000000001, so 0.6 falls in bin 5.
	if !slices.Equal(pos.Hist.Counts, []int{0, 0, 0, 0, 0, 1, 0, 0, 1, 1}) || !slices.Equal(neg.Hist.Counts, []int{1, 0, 1, 0, 1, 1, 0, 0, 0, 0}) {
		t.Errorf("histograms %v %v", pos.Hist.Counts, neg.Hist.Counts)
	}
	if lo, hi := analysis.Range("factual_accuracy"); pos.Hist.Lo != 0 || pos.Hist.Hi != 1 || lo != 0 || hi != 100 {
		t.Errorf("ranges: KG [%v, %v], factual_accuracy [%v, %v]", pos.Hist.Lo, pos.Hist.Hi, lo, hi)
	}
	short := analysis.Separate("faithfulness.multihop", []analysis.Group{
		{Name: "p", V: analysis.Vectors{"faithfulness.multihop": {f(1)}}}, {Name: "n", V: analysis.Vectors{"faithfulness.multihop": {f(0), f(1)}}}}, "p", "n", 4)
	if short.AUROC == nil || *short.AUROC != 0.75 || short.CohensD != nil || !strings.Contains(short.Reason, "Cohen's d needs 2 values") {
		t.Errorf("one positive: %+v", short)
	}
	none := analysis.Separate("x", []analysis.Group{{Name: "p", V: analysis.Vectors{}}, {Name: "n", V: analysis.Vectors{"x": {f(1)}}}}, "p", "n", 4)
	if none.AUROC != nil || none.Reason != "p has 0 values and n has 1 value" {
		t.Errorf("no positive: %+v", none)
	}
}

func TestSweepPoint(t *testing.T) {
	all := analysis.Vectors{"faithfulness.multihop": {f(1), f(0.5), nil, f(0)}}
	a := &analysis.Group{Name: "grounded", V: all.Subset([]int{0, 1})}
	b := &analysis.Group{Name: "poor", V: all.Subset([]int{2, 3})}
	pt := analysis.SweepPoint("tau=0.6,delta=0.3", 0.6, 0.3, all, a, b, []string{"faithfulness.multihop"})
	m := pt.Metrics[0]
	if pt.Tau != 0.6 || pt.Delta != 0.3 || m.N != 3 || *m.MeanB != 0 || *m.AUROC != 1 || m.CohensD != nil || m.Reason == "" {
		t.Errorf("%+v %+v", pt, m)
	}
	near(t, "mean", m.Mean, 0.5)
	near(t, "mean a", m.MeanA, 0.75)
	alone := analysis.SweepPoint("default", 0.7, 0.5, all, nil, nil, []string{"faithfulness.multihop"})
	if alone.Metrics[0].AUROC != nil || alone.Metrics[0].MeanA != nil {
		t.Errorf("no groups: %+v", alone.Metrics[0])
	}
}

// TestExtractionMethod: the method comes from the recorded
// configuration; a run recorded without it was extracted by the model.
func TestExtractionMethod(t *testing.T) {
	for cfg, want := range map[string]string{
		`{"Extraction":{"Method":"rules","WindowChars":600}}`: "rules",
		`{"Extraction":{"Method":"both"}}`:                    "both",
		`{"Extraction":{"WindowChars":600}}`:                  "llm",
		``:                                                    "llm",
		`not json`:                                            "llm",
	} {
		if got := analysis.ExtractionMethod(kgeval.Run{Config: cfg}); got != want {
			t.Errorf("config %q: %q, want %q", cfg, got, want)
		}
	}
}
