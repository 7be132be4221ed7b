package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/analysis/check"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/render"
)

// Hand-made faithfulness scores of the two runs mustBaselinePair evaluates,
// by sample id (the bundled samples copied 3 times): in the baseline support
// is 0.875 and contradiction 0 everywhere; in the run the grounded answers
// keep 0.875, the ungrounded ones drop to 0.75 and the empty ones to 0.75,
// 0.625 and 0.5, so support's mean falls from 0.875 to 0.75; contradiction
// rises to 0.25 on erica-empty-3 only. Binary fractions keep the sums exact.
func handSupport(baseline bool, id string) (support, contradiction float64) {
	switch {
	case baseline, strings.HasPrefix(id, "erica-grounded-"):
		return 0.875, 0
	case strings.HasPrefix(id, "erica-ungrounded-"):
		return 0.75, 0
	case id == "erica-empty-3":
		return 0.5, 0.25
	case id == "erica-empty-2":
		return 0.625, 0
	}
	return 0.75, 0 // erica-empty-1
}

// mustBaselinePair evaluates two runs of three copies of the bundled
// samples — the baseline, and a run from a file of other content (human
// labels added) with tau 0.8 — and overwrites their faithfulness support and
// contradiction with handSupport's values. It returns the two run names.
func mustBaselinePair(t *testing.T, db *graphstore.DB, args []string) (baseline, run string) {
	t.Helper()
	ctx := context.Background()
	baseline, run = mustRunName(t, db, "gate-base"), mustRunName(t, db, "gate-run")
	// The native engine: these runs are about comparing stored scores, and a
	// GDS projection under a loaded CI machine is what timed out here once.
	args = append([]string{"--engine", "native"}, args...)
	mustEvaluate(t, copiesOfTriplets(t, 3, nil), baseline, args)
	other := copiesOfTriplets(t, 3, func(string, int) map[string]any { return map[string]any{"score": 1} })
	mustEvaluate(t, other, run, append([]string{"--tau", "0.8"}, args...))
	for _, r := range []struct {
		name     string
		baseline bool
		tau      float64
	}{{baseline, true, 0.7}, {run, false, 0.8}} {
		rows, err := db.RunScores(ctx, r.name, kgeval.DefaultVariant)
		if err != nil || len(rows) != 9 {
			t.Fatalf("run %s: %d rows, %v", r.name, len(rows), err)
		}
		var results []kgeval.KGResult
		for _, row := range rows {
			s, ok := row.Scores["faithfulness"]
			if !ok {
				t.Fatalf("run %s sample %s: no faithfulness scores", r.name, row.ID)
			}
			sup, con := handSupport(r.baseline, row.ID)
			s.SetValue(metricreg.MetricSupport, &sup)
			s.SetValue(metricreg.MetricContradiction, &con)
			results = append(results, s)
		}
		p := kgeval.DefaultGraphParams()
		p.Tau = r.tau
		if err := db.WriteKGResults(ctx, r.name, kgeval.DefaultVariant, "gds", p, results); err != nil {
			t.Fatal(err)
		}
	}
	return baseline, run
}

// TestCompare_Baseline compares a run with its baseline: pairing by id, the
// hand-made support and contradiction numbers, the stored multihop scores,
// the warnings (other dataset, other tau, unfinished run) and the refusals.
func TestCompare_Baseline(t *testing.T) {
	noLLM(t)
	db := graphstoretest.MustOpenDB(t)
	args := dbArgs(t)
	base, run := mustBaselinePair(t, db, args)
	jsonPath := filepath.Join(t.TempDir(), "c.json")
	out, err := runMain(t, append([]string{"compare", "--run", run, "--baseline", base, "--metrics", "faithfulness.support,faithfulness.contradiction,faithfulness.multihop",
		"--json", jsonPath}, args...)...)
	if err != nil {
		t.Fatalf("compare --baseline: %v\n%s", err, out)
	}
	for _, want := range []string{fmt.Sprintf("run %s against baseline %s (variant default): 9 samples paired by id; unpaired: 0 of the baseline, 0 of the run", run, base),
		"warning: different datasets: baseline", "warning: different scoring settings (baseline → run): scoring.tau 0.7 → 0.8",
		"faithfulness.support: the 6 samples that regressed most (higher is better), worst first"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !hasFieldsLine(out, "erica-empty-3 0.875 0.500 -0.375") || !hasFieldsLine(out, "faithfulness.support higher 9 0.875 0.750 -0.125") {
		t.Errorf("output lacks the support row or its worst regression:\n%s", out)
	}
	var rep render.RunComparisonReport
	readJSON(t, jsonPath, &rep)
	if rep.Baseline != base || rep.Run != run || rep.PairedBy != "id" || rep.Pairs != 9 || rep.Variant != "default" || len(rep.Metrics) != 3 ||
		!strings.HasPrefix(rep.Interval, "95% t interval") {
		t.Fatalf("report %+v", rep)
	}
	kinds := map[string]bool{}
	for _, w := range rep.Warnings {
		kinds[w.Kind] = true
	}
	if len(rep.Warnings) != 2 || !kinds["dataset"] || !kinds["settings"] {
		t.Errorf("warnings %+v, want dataset and settings", rep.Warnings)
	}
	get := func(name string) analysis.RunMetric {
		for _, m := range rep.Metrics {
			if m.Metric == name {
				return m
			}
		}
		t.Fatalf("no %s", name)
		return analysis.RunMetric{}
	}
	sup := get("faithfulness.support")
	if sup.N != 9 || *sup.MeanBaseline != 0.875 || *sup.MeanRun != 0.75 || *sup.Diff != -0.125 || *sup.Gain != -0.125 ||
		sup.Improved != 0 || sup.Unchanged != 3 || sup.Regressed != 6 || sup.Wilcoxon == nil || sup.PairedT == nil || *sup.CIHi > 0 {
		t.Errorf("support %+v", sup)
	}
	var ids []string
	for _, s := range sup.TopRegressions {
		ids = append(ids, s.ID)
	}
	if got := strings.Join(ids, " "); got != "erica-empty-3 erica-empty-2 erica-empty-1 erica-ungrounded-1 erica-ungrounded-2 erica-ungrounded-3" {
		t.Errorf("support regressions %s", got)
	}
	con := get("faithfulness.contradiction")
	if con.Direction != "lower is better" || con.Regressed != 1 || con.Unchanged != 8 || len(con.TopRegressions) != 1 || con.TopRegressions[0].ID != "erica-empty-3" {
		t.Errorf("contradiction %+v", con)
	}
	// multihop as stored: the mean difference over the samples with values.
	mhA := exported(t, db, base, kgeval.DefaultVariant, "faithfulness", "multihop")
	mhB := exported(t, db, run, kgeval.DefaultVariant, "faithfulness", "multihop")
	var sum float64
	n := 0
	for id, a := range mhA {
		if b := mhB[id]; a != nil && b != nil {
			sum += *b - *a
			n++
		}
	}
	if mh := get("faithfulness.multihop"); mh.N != n || n == 0 || !closeTo(*mh.Diff, sum/float64(n)) {
		t.Errorf("multihop %+v, want n %d diff %v", mh, n, sum/float64(n))
	}

	t.Run("Unfinished", func(t *testing.T) {
		interrupted := kgeval.RunInterrupted
		if err := db.UpdateRun(context.Background(), run, kgeval.RunUpdate{Status: &interrupted}); err != nil {
			t.Fatal(err)
		}
		out, err := runMain(t, append([]string{"compare", "--run", run, "--baseline", base, "--metrics", "faithfulness.support"}, args...)...)
		if err != nil || !strings.Contains(out, fmt.Sprintf("warning: run %q is not finished (status interrupted): its scores may be partial", run)) {
			t.Errorf("%v\n%s", err, out)
		}
	})
	for _, tc := range []struct {
		name string
		args []string
		code string
	}{
		{"Itself", []string{"--run", run, "--baseline", run}, kgeval.EINVALID},
		{"Plot", []string{"--run", run, "--baseline", base, "--plot", filepath.Join(t.TempDir(), "p.png")}, kgeval.EINVALID},
		{"UnknownBaseline", []string{"--run", run, "--baseline", base + "-missing"}, kgeval.ENOTFOUND},
		{"UnknownMetric", []string{"--run", run, "--baseline", base, "--metrics", "bogus"}, kgeval.EINVALID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := runMain(t, append(append([]string{"compare"}, tc.args...), args...)...); kgeval.ErrorCode(err) != tc.code {
				t.Errorf("err = %v, want %s", err, tc.code)
			}
		})
	}
}

// hasFieldsLine reports whether a line of out starts with the
// space-separated fields of want, whatever the column widths.
func hasFieldsLine(out, want string) bool {
	w := strings.Fields(want)
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= len(w) && strings.Join(f[:len(w)], " ") == want {
			return true
		}
	}
	return false
}

// junitReport is the part of the JUnit XML the tests read back.
type junitReport struct {
	XMLName xml.Name `xml:"testsuites"`
	Tests   int      `xml:"tests,attr"`
	Suites  []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Cases    []struct {
			Name    string `xml:"name,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
			} `xml:"failure"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

// readJUnit parses a JUnit file and returns its one suite's test count,
// failure count and failure messages by test name.
func readJUnit(t *testing.T, path string) (tests, failures int, messages map[string]string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r junitReport
	if err := xml.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
	if len(r.Suites) != 1 || r.Suites[0].Name != "kgeval gate" || r.Tests != r.Suites[0].Tests || len(r.Suites[0].Cases) != r.Suites[0].Tests {
		t.Fatalf("%s: want one suite \"kgeval gate\" with a case per test:\n%s", path, b)
	}
	messages = map[string]string{}
	n := 0
	for _, c := range r.Suites[0].Cases {
		if c.Failure != nil {
			messages[c.Name] = c.Failure.Message
			n++
		}
	}
	if n != r.Suites[0].Failures {
		t.Errorf("%s: failures=%d, %d <failure> elements", path, r.Suites[0].Failures, n)
	}
	return r.Suites[0].Tests, r.Suites[0].Failures, messages
}

// TestGate runs the gate end to end on two stored runs with hand-made
// support and contradiction (handSupport): a pass, a threshold failure and a
// regression failure, each with its JUnit report parsed back, its Markdown
// summary and its exit status; then the usage errors.
func TestGate(t *testing.T) {
	noLLM(t)
	db := graphstoretest.MustOpenDB(t)
	args := dbArgs(t)
	base, run := mustBaselinePair(t, db, args)
	gate := func(t *testing.T, flags ...string) (out string, err error, junit, md string) {
		t.Helper()
		dir := t.TempDir()
		junit, md = filepath.Join(dir, "gate.xml"), filepath.Join(dir, "gate.md")
		out, err = runMain(t, append(append([]string{"gate", "--run", run, "--junit", junit, "--markdown", md, "--json", filepath.Join(dir, "gate.json")}, flags...), args...)...)
		return out, err, junit, md
	}
	mdOf := func(t *testing.T, path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}

	t.Run("Pass", func(t *testing.T) {
		out, err, junit, md := gate(t, "--baseline", base, "--require", "faithfulness.support>=0.75", "--require", "faithfulness.contradiction <= 0.1",
			"--max-regression", "faithfulness.support=0.2")
		if err != nil {
			t.Fatalf("gate: %v\n%s", err, out)
		}
		if !strings.Contains(out, fmt.Sprintf("gate on run %s against baseline %s (variant default): passed, 3 checks", run, base)) ||
			!strings.Contains(out, "warning: different datasets") {
			t.Errorf("output:\n%s", out)
		}
		if tests, failures, msgs := readJUnit(t, junit); tests != 3 || failures != 0 || len(msgs) != 0 {
			t.Errorf("junit: %d tests, %d failures %v", tests, failures, msgs)
		}
		m := mdOf(t, md)
		for _, want := range []string{"## kgeval gate: passed, 3 checks", "| check | value | bound | result |",
			"| faithfulness.support >= 0.75 | 0.75 (n=9) | >= 0.75 | pass |",
			"| faithfulness.support: at most 0.2 worse than the baseline | 0.125 worse (n=9 pairs) | <= 0.2 | pass |", "Warnings:"} {
			if !strings.Contains(m, want) {
				t.Errorf("markdown lacks %q:\n%s", want, m)
			}
		}
	})

	t.Run("Threshold", func(t *testing.T) {
		out, err, junit, md := gate(t, "--require", "faithfulness.support>=0.8", "--require", "faithfulness.contradiction<=0.1", "--require", "ragas_score>=50")
		var gf *check.GateError
		if !errors.As(err, &gf) || exitCode(err) != 1 {
			t.Fatalf("err = %v (exit %d), want a gate failure, exit 1\n%s", err, exitCode(err), out)
		}
		if want := "gate failed, 2 of 3 checks: faithfulness.support >= 0.8: mean 0.75 over 9 samples, want >= 0.8; ragas_score >= 50: no values: the run has no variable ragas_score"; err.Error() != want {
			t.Errorf("error %q, want %q", err, want)
		}
		tests, failures, msgs := readJUnit(t, junit)
		if tests != 3 || failures != 2 || msgs["faithfulness.support >= 0.8"] != "mean 0.75 over 9 samples, want >= 0.8" ||
			msgs["ragas_score >= 50"] != "no values: the run has no variable ragas_score" {
			t.Errorf("junit: %d tests, %d failures %v", tests, failures, msgs)
		}
		m := mdOf(t, md)
		for _, want := range []string{"## kgeval gate: FAILED, 2 of 3 checks failed", "| faithfulness.support >= 0.8 | 0.75 (n=9) | >= 0.8 | **FAIL** |",
			"| faithfulness.contradiction <= 0.1 | 0.02778 (n=9) | <= 0.1 | pass |", "| ragas_score >= 50 | no values | >= 50 | **FAIL** |",
			"- faithfulness.support >= 0.8: mean 0.75 over 9 samples, want >= 0.8"} {
			if !strings.Contains(m, want) {
				t.Errorf("markdown lacks %q:\n%s", want, m)
			}
		}
	})

	t.Run("Regression", func(t *testing.T) {
		out, err, junit, _ := gate(t, "--baseline", base, "--require", "faithfulness.support>=0.7",
			"--max-regression", "faithfulness.support=0.1", "--max-regression", "faithfulness.contradiction=0.05")
		if exitCode(err) != 1 || err == nil || !strings.Contains(err.Error(), "gate failed, 1 of 3 checks") {
			t.Fatalf("err = %v (exit %d)\n%s", err, exitCode(err), out)
		}
		tests, failures, msgs := readJUnit(t, junit)
		want := "got worse by 0.125 (mean 0.875 → 0.75 over 9 pairs, higher is better), more than 0.1"
		if tests != 3 || failures != 1 || msgs["faithfulness.support: at most 0.1 worse than the baseline"] != want {
			t.Errorf("junit: %d tests, %d failures %v", tests, failures, msgs)
		}
		if !strings.Contains(out, "FAILED, 1 of 3 checks failed") || !strings.Contains(out, want) {
			t.Errorf("output:\n%s", out)
		}
	})

	for _, tc := range []struct {
		name  string
		flags []string
		code  string
		exit  int
		want  string
	}{
		{"BadExpression", []string{"--require", "faithfulness.support=>0.8"}, kgeval.EINVALID, 2, `--require: requirement "faithfulness.support=>0.8" at column 21: want an operator`},
		{"Function", []string{"--require", "mean(faithfulness.support)>=0.8"}, kgeval.EINVALID, 2, "at column 5: mean(...) is not supported"},
		{"BadBound", []string{"--baseline", base, "--max-regression", "faithfulness.support=-1"}, kgeval.EINVALID, 2, `--max-regression: regression bound "faithfulness.support=-1" at column 22: want a number >= 0`},
		{"NoBaseline", []string{"--max-regression", "faithfulness.support=0.1"}, kgeval.EINVALID, 2, "a regression bound needs a baseline run (--max-regression needs --baseline)"},
		{"Itself", []string{"--baseline", run, "--require", "faithfulness.support>=0.5"}, kgeval.EINVALID, 2, "the baseline " + run + " is the run itself: compare two different runs (--baseline is --run)"},
		{"NoCheck", nil, kgeval.EINVALID, 2, "nothing to check: give a requirement or a regression bound (--require or --max-regression)"},
		{"UnknownFlag", []string{"--requires", "x>1"}, kgeval.EINVALID, 2, "unknown flag: --requires"},
		{"UnknownBaseline", []string{"--baseline", base + "-missing", "--require", "faithfulness.support>=0.5"}, kgeval.ENOTFOUND, 4, "no run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err, junit, _ := gate(t, tc.flags...)
			var gf *check.GateError
			if kgeval.ErrorCode(err) != tc.code || exitCode(err) != tc.exit || errors.As(err, &gf) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v (%s, exit %d), want %s exit %d containing %q", err, kgeval.ErrorCode(err), exitCode(err), tc.code, tc.exit, tc.want)
			}
			if _, err := os.Stat(junit); err == nil {
				t.Error("a gate that did not run wrote a JUnit report")
			}
		})
	}
}

// TestGate_JUnitEscaping writes a report whose names and messages hold XML
// metacharacters and a control character, and reads them back unchanged
// (the control character replaced).
func TestGate_JUnitEscaping(t *testing.T) {
	msg := `mean <0.5> & "low" 'quoted'` + "\nsecond line\x01"
	res := check.GateResult{Run: `r<&>"`, Failed: 1, Checks: []check.GateCheck{
		{Check: `a&b < 1`, Kind: check.CheckThreshold, Bound: "< 1", Message: msg},
		{Check: `ok`, Kind: check.CheckThreshold, Pass: true, Message: "fine"},
	}, Warnings: []analysis.RunWarning{{Kind: "status", Message: "</system-out>"}}}
	var buf bytes.Buffer
	if err := render.GateJUnit(&buf, res, "default"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "j.xml")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tests, failures, msgs := readJUnit(t, path)
	if want := strings.Replace(msg, "\x01", "\uFFFD", 1); tests != 2 || failures != 1 || msgs["a&b < 1"] != want {
		t.Errorf("%d tests, %d failures, messages %q, want %q\n%s", tests, failures, msgs, want, buf.String())
	}
}
