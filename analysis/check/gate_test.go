package check_test

import (
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/analysis/analysistest"
	"github.com/kgeval/kgeval/analysis/check"
)

func TestParseRequirement(t *testing.T) {
	good := []struct {
		in   string
		want check.Requirement
	}{
		{"faithfulness.support>=0.8", check.Requirement{Metric: "faithfulness.support", Op: ">=", Bound: 0.8}},
		{"faithfulness.contradiction<=0.1", check.Requirement{Metric: "faithfulness.contradiction", Op: "<=", Bound: 0.1}},
		{"  ts_groundedness_avg >  -0.5 ", check.Requirement{Metric: "ts_groundedness_avg", Op: ">", Bound: -0.5}},
		{"ragas_score<70", check.Requirement{Metric: "ragas_score", Op: "<", Bound: 70}},
		{"answer_class==1", check.Requirement{Metric: "answer_class", Op: "==", Bound: 1}},
		{"x-y.z>=1e-2", check.Requirement{Metric: "x-y.z", Op: ">=", Bound: 0.01}},
		{"a\t>=\t+.5", check.Requirement{Metric: "a", Op: ">=", Bound: 0.5}},
	}
	for _, tc := range good {
		t.Run(tc.in, func(t *testing.T) {
			got, err := check.ParseRequirement(tc.in)
			if err != nil || got != tc.want {
				t.Errorf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
	bad := []struct{ in, want string }{
		{"", `requirement "" at column 1: want a variable name`},
		{">=0.8", `requirement ">=0.8" at column 1: want a variable name, found ">"`},
		{"faithfulness.support", `requirement "faithfulness.support" at column 21: want an operator (>=, <=, ==, > or <), found the end`},
		{"faithfulness.support=>0.8", `requirement "faithfulness.support=>0.8" at column 21: want an operator (>=, <=, ==, > or <), found "="`},
		{"faithfulness.support=0.8", `at column 21: want an operator`},
		{"faithfulness.support!=0.8", `at column 21: want an operator (>=, <=, ==, > or <), found "!"`},
		{"mean(faithfulness.support)>=0.8", `requirement "mean(faithfulness.support)>=0.8" at column 5: mean(...) is not supported`},
		{"faithfulness.support>=", `requirement "faithfulness.support>=" at column 23: want a number`},
		{"faithfulness.support >= high", `at column 25: "high" is not a number`},
		{"faithfulness.support>=0.8 and x<1", `at column 23: "0.8 and x<1" is not a number`},
		{"faithfulness.support>=0x1p-1", `at column 23: "0x1p-1" is not a number`},
		{"faithfulness.support>=NaN", `at column 23: want a finite number, found "NaN"`},
		{"faithfulness.support>=inf", `at column 23: want a finite number, found "inf"`},
		{"faithfulness.support>==0.8", `at column 23: "=0.8" is not a number`},
	}
	for _, tc := range bad {
		t.Run("Bad"+tc.in, func(t *testing.T) {
			_, err := check.ParseRequirement(tc.in)
			if kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want EINVALID containing %q", err, tc.want)
			}
		})
	}
}

func TestParseMaxRegression(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want check.MaxRegression
	}{
		{"faithfulness.support=0.05", check.MaxRegression{Metric: "faithfulness.support", Max: 0.05}},
		{" faithfulness.contradiction = 0 ", check.MaxRegression{Metric: "faithfulness.contradiction", Max: 0}},
	} {
		got, err := check.ParseMaxRegression(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"=0.05", `regression bound "=0.05" at column 1: want a variable name`},
		{"faithfulness.support", `at column 21: want =`},
		{"faithfulness.support>=0.05", `at column 21: want =`},
		{"faithfulness.support==0.05", `at column 21: want =`},
		{"faithfulness.support=", `at column 22: want a number`},
		{"faithfulness.support=-0.1", `at column 22: want a number >= 0`},
		{"faithfulness.support=5%", `at column 22: "5%" is not a number`},
	} {
		_, err := check.ParseMaxRegression(tc.in)
		if kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want EINVALID containing %q", tc.in, err, tc.want)
		}
	}
}

// TestParseGate checks the problems ParseGate and CheckBaseline find with
// their options: EINVALID, the problem for the caller's advice, and a
// message that names no flag (the CLI adds its flags, the dashboard shows
// the message as it is).
func TestParseGate(t *testing.T) {
	req := []string{"faithfulness.support>=0.8"}
	reg := []string{"faithfulness.support=0.05"}
	if o, err := check.ParseGate("pr", "main", req, reg); err != nil || len(o.Require) != 1 || len(o.MaxRegression) != 1 {
		t.Errorf("good gate: %+v, %v", o, err)
	}
	if err := analysis.CheckBaseline("pr", "main"); err != nil {
		t.Errorf("good comparison: %v", err)
	}
	for _, tc := range []struct {
		name    string
		err     error
		problem string
		msg     string
	}{
		{"NoRun", gateErr(check.ParseGate("", "", req, nil)), kgeval.KindNoRun, "the run is required"},
		{"NoCheck", gateErr(check.ParseGate("pr", "", nil, nil)), kgeval.KindNoCheck, "nothing to check: give a requirement or a regression bound"},
		{"Require", gateErr(check.ParseGate("pr", "", []string{"x=>1"}, nil)), kgeval.KindBadRequirement,
			`requirement "x=>1" at column 2: want an operator (>=, <=, ==, > or <), found "=" (write <variable><op><number>, e.g. faithfulness.support>=0.8)`},
		{"MaxRegression", gateErr(check.ParseGate("pr", "main", nil, []string{"x=-1"})), kgeval.KindBadMaxRegression,
			`regression bound "x=-1" at column 3: want a number >= 0, the largest worsening allowed (write <variable>=<number>, e.g. faithfulness.support=0.05)`},
		{"NoBaseline", gateErr(check.ParseGate("pr", "", req, reg)), kgeval.KindNoBaseline, "a regression bound needs a baseline run"},
		{"GateSameRun", gateErr(check.ParseGate("pr", "pr", req, nil)), kgeval.KindSameRun, "the baseline pr is the run itself: compare two different runs"},
		{"CompareNoRun", analysis.CheckBaseline("", "main"), kgeval.KindNoRun, "the run is required"},
		{"CompareSameRun", analysis.CheckBaseline("pr", "pr"), kgeval.KindSameRun, "the baseline pr is the run itself: compare two different runs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if kgeval.ErrorCode(tc.err) != kgeval.EINVALID || kgeval.ErrorKind(tc.err) != tc.problem || kgeval.ErrorMessage(tc.err) != tc.msg {
				t.Errorf("got %s, problem %q, message %q; want EINVALID, %q, %q",
					kgeval.ErrorCode(tc.err), kgeval.ErrorKind(tc.err), kgeval.ErrorMessage(tc.err), tc.problem, tc.msg)
			}
		})
	}
	if p := kgeval.ErrorKind(kgeval.Errorf(kgeval.EINVALID, "other")); p != "" {
		t.Errorf("another error has problem %q", p)
	}
}

func gateErr(_ check.GateOptions, err error) error { return err }

func mustRequire(t *testing.T, exprs ...string) []check.Requirement {
	t.Helper()
	var out []check.Requirement
	for _, e := range exprs {
		r, err := check.ParseRequirement(e)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// TestGate checks thresholds and regression bounds on hand-computed means:
// support (higher is better) has mean 0.7 in the run and 0.8 in the
// baseline; contradiction (lower is better) 0.2 and 0.1.
func TestGate(t *testing.T) {
	const sup, con = "faithfulness.support", "faithfulness.contradiction"
	v := func(s, c *float64) map[string]*float64 { return map[string]*float64{sup: s, con: c} }
	run := []analysis.Row{
		mrow("1", "", "q1", v(f(0.6), f(0.1))),
		mrow("2", "", "q2", v(f(0.8), f(0.3))),
		mrow("3", "", "q3", v(nil, nil)),
		mrow("4", "", "q4", map[string]*float64{"ragas_score": nil}),
	}
	base := []analysis.Row{
		mrow("1", "", "q1", v(f(0.7), f(0.1))),
		mrow("2", "", "q2", v(f(0.9), f(0.1))),
		mrow("3", "", "q3", v(f(1), f(0))),
	}
	names := analysis.RunCompareOptions{Baseline: kgeval.Run{Name: "A", Status: kgeval.RunDone}, Run: kgeval.Run{Name: "B", Status: kgeval.RunDone}}
	mustMax := func(s string) check.MaxRegression {
		m, err := check.ParseMaxRegression(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	type wantCheck struct {
		pass    bool
		value   float64 // −1: null
		message string
	}
	for _, tc := range []struct {
		name    string
		require []string
		maxReg  []string
		want    []wantCheck
	}{
		{"Pass", []string{"faithfulness.support>=0.7", "faithfulness.contradiction<=0.2", "faithfulness.support==0.7", "faithfulness.support>0.69"}, nil,
			[]wantCheck{{true, 0.7, "mean 0.7 over 2 samples"}, {true, 0.2, "mean 0.2 over 2 samples"}, {true, 0.7, "mean 0.7 over 2 samples"}, {true, 0.7, "mean 0.7 over 2 samples"}}},
		{"Threshold", []string{"faithfulness.support>=0.8", "faithfulness.contradiction<0.2", "faithfulness.support<0.7"}, nil,
			[]wantCheck{{false, 0.7, "mean 0.7 over 2 samples, want >= 0.8"}, {false, 0.2, "mean 0.2 over 2 samples, want < 0.2"}, {false, 0.7, "mean 0.7 over 2 samples, want < 0.7"}}},
		{"NoValues", []string{"ragas_score>=50", "faithfulness.suport>=0.5"}, nil,
			[]wantCheck{{false, -1, "no values: none of the 4 samples has ragas_score"}, {false, -1, "no values: the run has no variable faithfulness.suport"}}},
		// Support got worse by 0.1, contradiction by 0.1 (0.1 → 0.2 over the
		// two pairs with values).
		{"RegressionPass", nil, []string{"faithfulness.support=0.1", "faithfulness.contradiction=0.15"},
			[]wantCheck{{true, 0.1, "got worse by 0.1 (mean 0.8 → 0.7 over 2 pairs, higher is better)"}, {true, 0.1, "got worse by 0.1 (mean 0.1 → 0.2 over 2 pairs, lower is better)"}}},
		{"Regression", []string{"faithfulness.support>=0.5"}, []string{"faithfulness.support=0.05", "faithfulness.contradiction=0.05", "ragas_score=1"},
			[]wantCheck{{true, 0.7, "mean 0.7 over 2 samples"},
				{false, 0.1, "got worse by 0.1 (mean 0.8 → 0.7 over 2 pairs, higher is better), more than 0.05"},
				{false, 0.1, "got worse by 0.1 (mean 0.1 → 0.2 over 2 pairs, lower is better), more than 0.05"},
				{false, -1, "no values: the baseline has no such variable (3 samples paired)"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := check.GateOptions{Require: mustRequire(t, tc.require...), Compare: names}
			for _, s := range tc.maxReg {
				o.MaxRegression = append(o.MaxRegression, mustMax(s))
			}
			if o.MaxRegression != nil {
				o.Baseline = base
			}
			res, err := check.Gate(run, o)
			if err != nil {
				t.Fatal(err)
			}
			failed := 0
			if len(res.Checks) != len(tc.want) {
				t.Fatalf("%d checks, want %d: %+v", len(res.Checks), len(tc.want), res.Checks)
			}
			for i, w := range tc.want {
				c := res.Checks[i]
				if !w.pass {
					failed++
				}
				if c.Pass != w.pass || c.Message != w.message || (w.value < 0) != (c.Value == nil) {
					t.Errorf("check %d %q: pass %v value %v %q; want %v %v %q", i, c.Check, c.Pass, c.Value, c.Message, w.pass, w.value, w.message)
				} else if w.value >= 0 {
					analysistest.Near(t, c.Check, c.Value, w.value)
				}
			}
			if res.Pass != (failed == 0) || res.Failed != failed || res.Run != "B" {
				t.Errorf("pass %v failed %d run %q, want %v %d B", res.Pass, res.Failed, res.Run, failed == 0, failed)
			}
			if (res.Comparison != nil) != (tc.maxReg != nil) || tc.maxReg != nil && res.Baseline != "A" {
				t.Errorf("comparison %v baseline %q", res.Comparison, res.Baseline)
			}
		})
	}
	t.Run("Checks", func(t *testing.T) {
		res, err := check.Gate(run, check.GateOptions{Require: mustRequire(t, "faithfulness.support>=0.5"), MaxRegression: []check.MaxRegression{mustMax("faithfulness.support=0.05")}, Baseline: base, Compare: names})
		if err != nil {
			t.Fatal(err)
		}
		if c := res.Checks[0]; c.Check != "faithfulness.support >= 0.5" || c.Kind != check.CheckThreshold || c.Bound != ">= 0.5" || c.N != 2 {
			t.Errorf("threshold %+v", c)
		}
		if c := res.Checks[1]; c.Check != "faithfulness.support: at most 0.05 worse than the baseline" || c.Kind != check.CheckRegression || c.Bound != "<= 0.05" || c.N != 2 {
			t.Errorf("regression %+v", c)
		}
	})
	t.Run("Improved", func(t *testing.T) {
		res, err := check.Gate(base, check.GateOptions{MaxRegression: []check.MaxRegression{mustMax("faithfulness.support=0")}, Baseline: run, Compare: names})
		if err != nil {
			t.Fatal(err)
		}
		if c := res.Checks[0]; !c.Pass || c.Message != "improved by 0.1 (mean 0.7 → 0.8 over 2 pairs, higher is better)" {
			t.Errorf("%+v", c)
		}
	})
	t.Run("StatusWarning", func(t *testing.T) {
		o := check.GateOptions{Require: mustRequire(t, "faithfulness.support>=0.5"), Compare: analysis.RunCompareOptions{Run: kgeval.Run{Name: "B", Status: kgeval.RunRunning}}}
		res, err := check.Gate(run, o)
		if err != nil || len(res.Warnings) != 1 || res.Warnings[0].Kind != "status" || !res.Pass {
			t.Errorf("%+v %v", res, err)
		}
	})
	for _, tc := range []struct {
		name string
		o    check.GateOptions
		want string
	}{
		{"NoCheck", check.GateOptions{}, "a gate needs at least one requirement or regression bound"},
		{"NoBaseline", check.GateOptions{MaxRegression: []check.MaxRegression{mustMax("faithfulness.support=0.05")}}, "a regression bound (faithfulness.support=0.05) needs a baseline run"},
		{"NoOverlap", check.GateOptions{MaxRegression: []check.MaxRegression{mustMax("faithfulness.support=0.05")}, Compare: names,
			Baseline: []analysis.Row{mrow("9", "", "q9", nil)}}, "share no sample id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := check.Gate(run, tc.o)
			if kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want EINVALID containing %q", err, tc.want)
			}
		})
	}
}
