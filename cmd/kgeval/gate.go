package main

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/spf13/cobra"
)

// gate: a CI check on a stored run (analysis.Gate), rendered as a table,
// Markdown and JUnit XML.

// gateFailure is the error of a gate whose checks did not all pass: exit
// status 1 (exitCode), its message the failed checks.
type gateFailure struct{ res analysis.GateResult }

func (e *gateFailure) Error() string {
	var why []string
	for _, c := range e.res.Checks {
		if !c.Pass {
			why = append(why, c.Check+": "+c.Message)
		}
	}
	return fmt.Sprintf("gate failed, %d of %d checks: %s", e.res.Failed, len(e.res.Checks), strings.Join(why, "; "))
}

func (m *Main) gateCommand() *cobra.Command {
	var run, baseline, variant, mdOut, junitOut, jsonOut string
	var require, maxRegression []string
	c := &cobra.Command{
		Use:   "gate --run NAME --require 'VAR>=X' ... [--baseline RUN --max-regression VAR=D ...] [--markdown F] [--junit F] [--json F]",
		Short: "Check a run against thresholds and a baseline for CI: exit 1 when a check fails",
		Long: `gate checks a stored run and exits non-zero when a check fails, with the
reason, so that CI can stop on a worse evaluation.

  --require 'VAR OP X'   the run's mean of variable VAR (over all its samples
                         with a value) compared with the number X; OP is one
                         of >=, <=, ==, >, <. Means within 1e-9 of X count as
                         equal to it. A variable without any value fails
                         ("no values").
  --max-regression VAR=D with --baseline: fails when the mean of VAR over the
                         samples paired with the baseline (as compare
                         --baseline pairs them) got worse by more than D in
                         VAR's direction (lower is better for contradiction).

VAR is a variable name as compare and correlate print them: KG scores as
<pair>.<metric> (faithfulness.support), other metrics by name
(ts_groundedness_avg). The grammar is only VAR OP NUMBER, spaces allowed; a
bad expression is a usage error naming the column.

Exit status: 0 every check passed; 1 a check failed (or a run could not be
read: not found, internal error); 2 bad usage (flags, expressions); 3 Neo4j
unavailable or refusing the credentials.`,
		Example: `  kgeval gate --run pr-123 --require 'faithfulness.support>=0.8' --require 'faithfulness.contradiction<=0.1' \
    --baseline main --max-regression 'faithfulness.support=0.05' --markdown gate.md --junit gate.xml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := gateOptions(run, baseline, require, maxRegression)
			if err != nil {
				return err
			}
			names := []string{run}
			if baseline != "" {
				names = append(names, baseline)
			}
			runs, err := m.loadRuns(cmd, variant, names...)
			if err != nil {
				return err
			}
			o.Compare.Run = runs[0].Record
			if baseline != "" {
				o.Compare.Baseline, o.Baseline = runs[1].Record, runs[1].Rows
			}
			res, err := analysis.Gate(runs[0].Rows, o)
			if err != nil {
				return err
			}
			printGate(m.Stdout, res, variant)
			for _, out := range []struct {
				path, flag string
				write      func(io.Writer, analysis.GateResult, string) error
			}{{mdOut, "--markdown", writeGateMarkdown}, {junitOut, "--junit", writeGateJUnit}, {jsonOut, "--json", func(w io.Writer, r analysis.GateResult, _ string) error { return writeJSON(w, r) }}} {
				if err := m.writeFile(out.path, out.flag, func(w io.Writer) error { return out.write(w, res, variant) }); err != nil {
					return err
				}
			}
			if !res.Pass {
				return &gateFailure{res}
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&run, "run", "", "the run to check")
	f.StringVar(&baseline, "baseline", "", "a run to compare with (needed by --max-regression)")
	f.StringVar(&variant, "variant", kgeval.DefaultVariant, "scoring variant (sweeps store several)")
	f.StringArrayVar(&require, "require", nil, "a threshold on the run's mean, VAR OP NUMBER with OP one of >= <= == > < (repeatable)")
	f.StringArrayVar(&maxRegression, "max-regression", nil, "VAR=D: fail when VAR's mean got worse than the baseline's by more than D (repeatable)")
	f.StringVar(&mdOut, "markdown", "", "write a Markdown summary to this file (e.g. $GITHUB_STEP_SUMMARY)")
	f.StringVar(&junitOut, "junit", "", "write a JUnit XML report to this file")
	f.StringVar(&jsonOut, "json", "", "write the result as JSON to this file")
	return c
}

// gateOptions parses and checks the flags of gate, before the store is
// opened. Errors: EINVALID.
func gateOptions(run, baseline string, require, maxRegression []string) (analysis.GateOptions, error) {
	var o analysis.GateOptions
	if run == "" {
		return o, kgeval.Errorf(kgeval.EINVALID, "--run is required (see `kgeval runs list`)")
	}
	if len(require) == 0 && len(maxRegression) == 0 {
		return o, kgeval.Errorf(kgeval.EINVALID, "nothing to check: give --require or --max-regression")
	}
	for _, s := range require {
		r, err := analysis.ParseRequirement(s)
		if err != nil {
			return o, kgeval.Wrap(kgeval.EINVALID, err, "--require")
		}
		o.Require = append(o.Require, r)
	}
	for _, s := range maxRegression {
		r, err := analysis.ParseMaxRegression(s)
		if err != nil {
			return o, kgeval.Wrap(kgeval.EINVALID, err, "--max-regression")
		}
		o.MaxRegression = append(o.MaxRegression, r)
	}
	if len(o.MaxRegression) > 0 && baseline == "" {
		return o, kgeval.Errorf(kgeval.EINVALID, "--max-regression needs --baseline")
	}
	if baseline != "" {
		return o, checkBaseline(run, baseline)
	}
	return o, nil
}

func gateTitle(res analysis.GateResult) string {
	if res.Pass {
		return fmt.Sprintf("passed, %s", plural(len(res.Checks), "check", "checks"))
	}
	return fmt.Sprintf("FAILED, %d of %d checks failed", res.Failed, len(res.Checks))
}

func gateSubject(res analysis.GateResult, variant string) string {
	s := "run " + res.Run
	if res.Baseline != "" {
		s += " against baseline " + res.Baseline
	}
	return s + " (variant " + variant + ")"
}

// gateValue renders a check's value: the mean, or how much worse.
func gateValue(c analysis.GateCheck) string {
	switch {
	case c.Value == nil:
		return "no values"
	case c.Kind == analysis.CheckRegression:
		return fmt.Sprintf("%.4g worse (n=%d pairs)", *c.Value, c.N)
	}
	return fmt.Sprintf("%.4g (n=%d)", *c.Value, c.N)
}

func passFail(ok bool) string {
	if ok {
		return "pass"
	}
	return "FAIL"
}

func printGate(w io.Writer, res analysis.GateResult, variant string) {
	fmt.Fprintf(w, "gate on %s: %s\n", gateSubject(res, variant), gateTitle(res))
	printWarnings(w, res.Warnings)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "check\tvalue\tbound\tresult\tdetail")
	for _, c := range res.Checks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Check, gateValue(c), c.Bound, passFail(c.Pass), c.Message)
	}
	tw.Flush()
}

// writeGateMarkdown writes the result as a Markdown summary: a heading, a
// table of the checks, the failures' reasons and the warnings.
func writeGateMarkdown(w io.Writer, res analysis.GateResult, variant string) error {
	cell := func(s string) string {
		return strings.NewReplacer("|", `\|`, "\r", " ", "\n", " ").Replace(s)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## kgeval gate: %s\n\n", gateTitle(res))
	fmt.Fprintf(&b, "%s\n\n", cell(gateSubject(res, variant)))
	b.WriteString("| check | value | bound | result |\n|---|---|---|---|\n")
	for _, c := range res.Checks {
		result := "pass"
		if !c.Pass {
			result = "**FAIL**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", cell(c.Check), cell(gateValue(c)), cell(c.Bound), result)
	}
	if res.Failed > 0 {
		b.WriteString("\nFailed:\n\n")
		for _, c := range res.Checks {
			if !c.Pass {
				fmt.Fprintf(&b, "- %s: %s\n", cell(c.Check), cell(c.Message))
			}
		}
	}
	if len(res.Warnings) > 0 {
		b.WriteString("\nWarnings:\n\n")
		for _, x := range res.Warnings {
			fmt.Fprintf(&b, "- %s\n", cell(x.Message))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// JUnit XML: the shape Jenkins, GitLab and the GitHub test-report actions
// read.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  string          `xml:"system-out,omitempty"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// junitSuiteName names the one test suite of the report.
const junitSuiteName = "kgeval gate"

// writeGateJUnit writes the result as JUnit XML: one test suite "kgeval
// gate", one test case per check, a <failure> with the reason for each
// failed check, the warnings as the suite's output.
func writeGateJUnit(w io.Writer, res analysis.GateResult, variant string) error {
	s := junitSuite{Name: junitSuiteName, Tests: len(res.Checks), Failures: res.Failed,
		Properties: []junitProperty{{"run", res.Run}, {"variant", variant}}}
	if res.Baseline != "" {
		s.Properties = append(s.Properties, junitProperty{"baseline", res.Baseline})
	}
	var warn []string
	for _, x := range res.Warnings {
		warn = append(warn, "warning: "+x.Message)
	}
	s.SystemOut = strings.Join(warn, "\n")
	for _, c := range res.Checks {
		tc := junitCase{Name: c.Check, Classname: "kgeval.gate." + c.Kind,
			SystemOut: fmt.Sprintf("value %s, bound %s: %s", gateValue(c), c.Bound, c.Message)}
		if !c.Pass {
			tc.Failure = &junitFailure{Message: c.Message, Type: c.Kind,
				Text: fmt.Sprintf("%s\nvalue: %s\nbound: %s\n%s", c.Check, gateValue(c), c.Bound, c.Message)}
		}
		s.Cases = append(s.Cases, tc)
	}
	doc := junitSuites{Name: "kgeval", Tests: s.Tests, Failures: s.Failures, Suites: []junitSuite{s}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
