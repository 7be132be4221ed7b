package analysis_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/analysis/analysistest"
)

// mrow is a sample with other-metric values only (nil: null).
var mrow = analysistest.MetricRow

func metricOf(t *testing.T, c analysis.RunComparison, name string) analysis.RunMetric {
	t.Helper()
	for _, m := range c.Metrics {
		if m.Metric == name {
			return m
		}
	}
	t.Fatalf("no metric %s in %+v", name, c.Metrics)
	return analysis.RunMetric{}
}

// TestCompareRuns_ByID pairs two runs by sample id and checks every number
// of three metrics by hand: a higher-is-better one with an improvement, a
// regression and ties; a lower-is-better one (contradiction) where the
// direction turns the counts round; one whose differences are all equal.
func TestCompareRuns_ByID(t *testing.T) {
	const sup, con, sem = "faithfulness.support", "faithfulness.contradiction", "semantic_similarity"
	vals := func(s, c, e *float64) map[string]*float64 { return map[string]*float64{sup: s, con: c, sem: e} }
	baseline := []analysis.Row{
		mrow("s0", "sys", "q0", vals(f(0.5), f(0.1), f(0))), // only in the baseline
		mrow("s1", "sys", "q1", vals(f(0.2), f(0.4), f(0))),
		mrow("s2", "sys", "q2", vals(f(0.5), f(0.2), f(0.25))),
		mrow("s3", "sys", "q3", vals(f(0.9), f(0.0), f(0.5))),
		mrow("s4", "sys", "q4", vals(f(0.6), nil, f(0.5))),
	}
	run := []analysis.Row{ // another order: pairing is by id
		mrow("s4", "sys", "q4", vals(f(0.6), f(0.3), f(0.75))),
		mrow("s3", "sys", "q3", vals(f(0.4), f(0.5), f(0.75))),
		mrow("s2", "sys", "q2", vals(f(0.5), f(0.1), f(0.5))),
		mrow("s1", "sys", "q1", vals(f(0.8), f(0.4), f(0.25))),
		mrow("s5", "sys", "q5", vals(f(1), f(0), f(1))), // only in the run
	}
	c, err := analysis.CompareRuns(baseline, run, analysis.RunCompareOptions{Baseline: kgeval.Run{Name: "A"}, Run: kgeval.Run{Name: "B"}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Baseline != "A" || c.Run != "B" || c.PairedBy != analysis.PairedByID || c.Pairs != 4 || c.UnpairedBaseline != 1 || c.UnpairedRun != 1 || len(c.Warnings) != 0 {
		t.Fatalf("comparison %+v", c)
	}
	// Display order: KG scores first.
	if got := []string{c.Metrics[0].Metric, c.Metrics[1].Metric, c.Metrics[2].Metric}; !reflect.DeepEqual(got, []string{con, sup, sem}) {
		t.Errorf("metric order %v", got)
	}

	// support: differences 0.6, 0, −0.5, 0 (s1..s4).
	s := metricOf(t, c, sup)
	if s.Direction != "higher is better" || s.N != 4 || s.Improved != 1 || s.Unchanged != 2 || s.Regressed != 1 || s.NullBaseline != 0 || s.NullRun != 0 {
		t.Errorf("support %+v", s)
	}
	near(t, "support mean baseline", s.MeanBaseline, 0.55)
	near(t, "support mean run", s.MeanRun, 0.575)
	near(t, "support diff", s.Diff, 0.025)
	near(t, "support gain", s.Gain, 0.025)
	// Wilcoxon drops the zeros: ranks 1 (−0.5) and 2 (0.6), T = 1, n = 2.
	near(t, "support wilcoxon p", &s.Wilcoxon.P, math.Erfc(0.5/math.Sqrt(1.25)/math.Sqrt2))
	if s.Wilcoxon.Stat != 1 || s.Wilcoxon.N != 2 {
		t.Errorf("wilcoxon %+v", s.Wilcoxon)
	}
	// Paired t: s_d = 0.45, t = 0.025 / (0.45/2) = 1/9 on 3 df, where
	// P(|T| > t) = 1 − (2/π)(u/(1+u²) + atan u) with u = t/√3.
	tt := 1.0 / 9
	u := tt / math.Sqrt(3)
	near(t, "support t", &s.PairedT.Stat, tt)
	near(t, "support t p", &s.PairedT.P, 1-2/math.Pi*(u/(1+u*u)+math.Atan(u)))
	// The t interval: 0.025 ± t(0.975, 3)·0.225, t(0.975, 3) =
	// 3.182446305284263 (scipy.stats.t.ppf(0.975, 3)).
	if s.CILo == nil || math.Abs(*s.CILo-(0.025-3.182446305284263*0.225)) > 1e-9 || math.Abs(*s.CIHi-(0.025+3.182446305284263*0.225)) > 1e-9 {
		t.Errorf("support interval [%v, %v]", s.CILo, s.CIHi)
	}
	if want := []analysis.SampleChange{{ID: "s3", Question: "q3", Baseline: 0.9, Run: 0.4, Diff: -0.5}}; !reflect.DeepEqual(s.TopRegressions, want) {
		t.Errorf("support regressions %+v", s.TopRegressions)
	}

	// contradiction, lower is better: s1 0.4 → 0.4 unchanged, s2 0.2 → 0.1
	// improved, s3 0 → 0.5 regressed, s4 null in the baseline.
	k := metricOf(t, c, con)
	if k.Direction != "lower is better" || k.N != 3 || k.Improved != 1 || k.Unchanged != 1 || k.Regressed != 1 || k.NullBaseline != 1 || k.NullRun != 0 {
		t.Errorf("contradiction %+v", k)
	}
	near(t, "contradiction diff", k.Diff, 0.4/3)
	near(t, "contradiction gain", k.Gain, -0.4/3)
	if len(k.TopRegressions) != 1 || k.TopRegressions[0].ID != "s3" || k.TopRegressions[0].Diff != 0.5 {
		t.Errorf("contradiction regressions %+v", k.TopRegressions)
	}

	// semantic_similarity: every difference is 0.25, so the interval is
	// [0.25, 0.25] and t is not defined.
	e := metricOf(t, c, sem)
	if e.N != 4 || e.Improved != 4 || e.PairedT != nil || e.Reasons["paired_t"] != "the 4 differences are all 0.25: t is not defined" || e.Wilcoxon == nil {
		t.Errorf("semantic_similarity %+v", e)
	}
	near(t, "equal ci lo", e.CILo, 0.25)
	near(t, "equal ci hi", e.CIHi, 0.25)

	t.Run("Metrics", func(t *testing.T) {
		// Named metrics, in the order given, one missing from the run, one
		// from both.
		base := []analysis.Row{mrow("s1", "", "q1", map[string]*float64{"ragas_score": f(50)})}
		cur := []analysis.Row{mrow("s1", "", "q1", map[string]*float64{"answer_class": f(1)})}
		c, err := analysis.CompareRuns(base, cur, analysis.RunCompareOptions{Metrics: []string{"ragas_score", "nope", "answer_class"}})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Metrics) != 3 || c.Metrics[0].Metric != "ragas_score" || c.Metrics[0].N != 0 || c.Metrics[0].NullRun != 1 ||
			c.Metrics[0].Reasons["values"] != "the run has no such variable" || c.Metrics[1].Reasons["values"] != "neither run has this variable" ||
			c.Metrics[2].Reasons["values"] != "the baseline has no such variable" || c.Metrics[0].Diff != nil {
			t.Errorf("metrics %+v", c.Metrics)
		}
	})
	t.Run("OnePair", func(t *testing.T) {
		c, err := analysis.CompareRuns(baseline[1:2], run[3:4], analysis.RunCompareOptions{Metrics: []string{sup}})
		if err != nil {
			t.Fatal(err)
		}
		m := c.Metrics[0]
		if m.N != 1 || m.CILo != nil || m.Reasons["interval"] != "1 pair with both values present, need 2" || m.PairedT != nil || m.Wilcoxon == nil {
			t.Errorf("one pair %+v", m)
		}
	})
}

// TestCompareRuns_Unchanged: a difference up to 1e-9 is no change, whatever
// the direction.
func TestCompareRuns_Unchanged(t *testing.T) {
	for _, name := range []string{"bert_score_f1", "answer_relevancy.contradiction"} {
		base := []analysis.Row{
			mrow("a", "", "q1", map[string]*float64{name: f(0.5)}),
			mrow("b", "", "q2", map[string]*float64{name: f(0.5)}),
			mrow("c", "", "q3", map[string]*float64{name: f(0.5)}),
			mrow("d", "", "q4", map[string]*float64{name: f(0.5)}),
		}
		cur := []analysis.Row{
			mrow("a", "", "q1", map[string]*float64{name: f(0.5 + 1e-12)}),
			mrow("b", "", "q2", map[string]*float64{name: f(0.5 - 0.9e-9)}),
			mrow("c", "", "q3", map[string]*float64{name: f(0.5 + 1e-6)}),
			mrow("d", "", "q4", map[string]*float64{name: f(0.5 - 1e-6)}),
		}
		c, err := analysis.CompareRuns(base, cur, analysis.RunCompareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m := c.Metrics[0]
		if m.Unchanged != 2 || m.Improved != 1 || m.Regressed != 1 {
			t.Errorf("%s: +/=/− %d/%d/%d, want 1/2/1", name, m.Improved, m.Unchanged, m.Regressed)
		}
		want := "d" // lower 0.5 − 1e-6 regressed for a higher-is-better metric
		if strings.HasSuffix(name, "contradiction") {
			want = "c"
		}
		if len(m.TopRegressions) != 1 || m.TopRegressions[0].ID != want {
			t.Errorf("%s: regressions %+v, want %s", name, m.TopRegressions, want)
		}
	}
}

// TestCompareRuns_ByQuestion pairs runs whose ids differ by question text:
// q1 is answered by two systems in each run (paired by system and
// question), q2 once in each, q3 twice by one system in the baseline
// (ambiguous: unpaired), q4 only in the run.
func TestCompareRuns_ByQuestion(t *testing.T) {
	const m = "ts_groundedness_avg"
	v := func(x float64) map[string]*float64 { return map[string]*float64{m: f(x)} }
	base := []analysis.Row{
		mrow("b1", "X", "q1", v(0.5)),
		mrow("b2", "Y", "q1", v(0.6)),
		mrow("b3", "X", "q2", v(0.7)),
		mrow("b4", "X", "q3", v(0.1)),
		mrow("b5", "X", "q3", v(0.2)),
	}
	cur := []analysis.Row{
		mrow("r1", "Y", "q1", v(0.2)), // Y on q1: 0.6 → 0.2
		mrow("r2", "X", "q1", v(0.4)), // X on q1: 0.5 → 0.4
		mrow("r3", "Z", "q2", v(0.9)), // another system, but q2 is asked once in each
		mrow("r4", "X", "q3", v(0.3)),
		mrow("r5", "X", "q4", v(0.3)),
	}
	c, err := analysis.CompareRuns(base, cur, analysis.RunCompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.PairedBy != analysis.PairedByQuestion || c.Pairs != 3 || c.UnpairedBaseline != 2 || c.UnpairedRun != 2 {
		t.Fatalf("comparison %+v", c)
	}
	r := c.Metrics[0]
	if r.N != 3 || r.Improved != 1 || r.Regressed != 2 {
		t.Errorf("metric %+v", r)
	}
	near(t, "mean baseline", r.MeanBaseline, (0.5+0.6+0.7)/3)
	near(t, "mean run", r.MeanRun, (0.4+0.2+0.9)/3)
	sub := func(x, y float64) float64 { return x - y } // in float64, as CompareRuns computes
	want := []analysis.SampleChange{
		{ID: "r1", BaselineID: "b2", Question: "q1", Baseline: 0.6, Run: 0.2, Diff: sub(0.2, 0.6)},
		{ID: "r2", BaselineID: "b1", Question: "q1", Baseline: 0.5, Run: 0.4, Diff: sub(0.4, 0.5)},
	}
	if !reflect.DeepEqual(r.TopRegressions, want) {
		t.Errorf("regressions %+v, want %+v", r.TopRegressions, want)
	}
}

// TestCompareRuns_TopRegressions: the 10 worst of 12 regressions, by the
// direction-adjusted difference, ties by id.
func TestCompareRuns_TopRegressions(t *testing.T) {
	for _, tc := range []struct {
		name string
		sign float64 // how a regression moves the value
	}{{"semantic_similarity", -1}, {"faithfulness.contradiction", 1}} {
		var base, cur []analysis.Row
		// Sample k (1..12) moves by k/100, except that 11 and 12 tie with 10.
		for k := 1; k <= 12; k++ {
			id := string(rune('a' + k - 1))
			move := float64(min(k, 10)) / 100
			base = append(base, mrow(id, "", id, map[string]*float64{tc.name: f(0.5)}))
			cur = append(cur, mrow(id, "", id, map[string]*float64{tc.name: f(0.5 + tc.sign*move)}))
		}
		// One improvement, never listed.
		base = append(base, mrow("z", "", "z", map[string]*float64{tc.name: f(0.5)}))
		cur = append(cur, mrow("z", "", "z", map[string]*float64{tc.name: f(0.5 - tc.sign*0.4)}))
		c, err := analysis.CompareRuns(base, cur, analysis.RunCompareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, s := range c.Metrics[0].TopRegressions {
			ids = append(ids, s.ID)
		}
		// j, k, l tie at 0.10; then i, h, ..., c.
		if got, want := strings.Join(ids, ""), "jklihgfedc"; got != want {
			t.Errorf("%s: top regressions %s, want %s", tc.name, got, want)
		}
		if m := c.Metrics[0]; m.Regressed != 12 || m.Improved != 1 {
			t.Errorf("%s: %+v", tc.name, m)
		}
		c, _ = analysis.CompareRuns(base, cur, analysis.RunCompareOptions{Top: 3})
		if n := len(c.Metrics[0].TopRegressions); n != 3 {
			t.Errorf("Top 3: %d listed", n)
		}
	}
}

// TestCompareRuns_Refused: the same run twice, a run without samples and
// runs that share nothing are refused with the reason.
func TestCompareRuns_Refused(t *testing.T) {
	one := []analysis.Row{mrow("a", "", "q1", map[string]*float64{"x": f(1)})}
	other := []analysis.Row{mrow("b", "", "q2", map[string]*float64{"x": f(1)})}
	for _, tc := range []struct {
		name      string
		base, cur []analysis.Row
		o         analysis.RunCompareOptions
		want      string
	}{
		{"SameRun", one, one, analysis.RunCompareOptions{Baseline: kgeval.Run{Name: "A"}, Run: kgeval.Run{Name: "A"}}, `the baseline is run "A" itself: compare two different runs`},
		{"EmptyBaseline", nil, one, analysis.RunCompareOptions{Baseline: kgeval.Run{Name: "A"}, Run: kgeval.Run{Name: "B"}}, `cannot compare runs: baseline "A" has 0 samples, run "B" has 1 sample`},
		{"NoOverlap", one, other, analysis.RunCompareOptions{Baseline: kgeval.Run{Name: "A"}, Run: kgeval.Run{Name: "B"}},
			`cannot compare runs: baseline "A" (1 sample) and run "B" (1 sample) share no sample id and no question asked once in each (or by one system)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := analysis.CompareRuns(tc.base, tc.cur, tc.o)
			if kgeval.ErrorCode(err) != kgeval.EINVALID || kgeval.ErrorMessage(err) != tc.want {
				t.Errorf("err = %v (%s), want EINVALID %q", err, kgeval.ErrorCode(err), tc.want)
			}
		})
	}
}

// TestRunWarnings: each difference between two run records that makes a
// comparison doubtful, and none between equal records.
func TestRunWarnings(t *testing.T) {
	cfg := func(tau string) string {
		return `{"LLM": {"Model": "m"}, "Scoring": {"Engine": "gds", "Tau": ` + tau + `, "TauRel": 0.5, "Pairs": [{"name": "faithfulness"}]}}`
	}
	base := kgeval.Run{Name: "A", Dataset: "d.jsonl", Fingerprint: "aaaaaaaaaaaaaaaa", Config: cfg("0.7"), LLM: "http://x/v1#qwen", Encoder: "minilm", Status: kgeval.RunDone}
	for _, tc := range []struct {
		name   string
		change func(*kgeval.Run)
		kind   string
		want   string
	}{
		{"Same", func(*kgeval.Run) {}, "", ""},
		{"OtherEndpoint", func(r *kgeval.Run) { r.LLM = "http://y/v1#qwen" }, "", ""},
		{"Dataset", func(r *kgeval.Run) { r.Dataset, r.Fingerprint = "e.jsonl", "bbbbbbbbbbbbbbbb" }, "dataset",
			`different datasets: baseline "A" was evaluated from d.jsonl (sha256 aaaaaaaaaaaa), run "B" from e.jsonl (sha256 bbbbbbbbbbbb)`},
		{"Settings", func(r *kgeval.Run) { r.Config = cfg("0.8") }, "settings", `different scoring settings (baseline → run): scoring.tau 0.7 → 0.8`},
		{"SettingAdded", func(r *kgeval.Run) {
			r.Config = `{"Scoring": {"Engine": "gds", "Tau": 0.7, "TauRel": 0.5, "Pairs": [{"name": "faithfulness"}], "Verify": "off"}}`
		},
			"settings", `different scoring settings (baseline → run): scoring.verify (unset) → "off"`},
		{"NoConfig", func(r *kgeval.Run) { r.Config = "" }, "settings", `scoring settings not compared: "B" has no readable recorded configuration`},
		{"Model", func(r *kgeval.Run) { r.LLM = "http://x/v1#llama" }, "model", `different models: baseline "A" used qwen, run "B" used llama`},
		{"Encoder", func(r *kgeval.Run) { r.Encoder = "bge" }, "encoder", `different encoders: baseline "A" used minilm, run "B" used bge`},
		{"Extraction", func(r *kgeval.Run) {
			r.Config = `{"LLM": {"Model": "m"}, "Extraction": {"Method": "rules"}, "Scoring": {"Engine": "gds", "Tau": 0.7, "TauRel": 0.5, "Pairs": [{"name": "faithfulness"}]}}`
		}, "extraction", `different extraction: baseline "A" read its triplets by llm, run "B" by rules (extraction.method)`},
		{"Status", func(r *kgeval.Run) { r.Status = kgeval.RunInterrupted }, "status", `run "B" is not finished (status interrupted): its scores may be partial`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := base
			run.Name = "B"
			tc.change(&run)
			w := analysis.RunWarnings(base, run)
			if tc.kind == "" {
				if len(w) != 0 {
					t.Errorf("warnings %+v, want none", w)
				}
				return
			}
			if len(w) != 1 || w[0].Kind != tc.kind || w[0].Message != tc.want {
				t.Errorf("warnings %+v, want %s %q", w, tc.kind, tc.want)
			}
		})
	}
	t.Run("PairedByIDOtherQuestions", func(t *testing.T) {
		base := []analysis.Row{mrow("1", "", "q1", nil), mrow("2", "", "q2", nil)}
		cur := []analysis.Row{mrow("1", "", "q1", nil), mrow("2", "", "another question", nil)}
		c, err := analysis.CompareRuns(base, cur, analysis.RunCompareOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(c.Warnings) != 1 || c.Warnings[0].Kind != "questions" || !strings.HasPrefix(c.Warnings[0].Message, "1 of 2 samples paired by id ask a different question") {
			t.Errorf("warnings %+v", c.Warnings)
		}
	})
}
