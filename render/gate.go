package render

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/analysis/check"
)

func gateTitle(res check.GateResult) string {
	if res.Pass {
		return fmt.Sprintf("passed, %s", analysis.Plural(len(res.Checks), "check", "checks"))
	}
	return fmt.Sprintf("FAILED, %d of %d checks failed", res.Failed, len(res.Checks))
}

func gateSubject(res check.GateResult, variant string) string {
	s := "run " + res.Run
	if res.Baseline != "" {
		s += " against baseline " + res.Baseline
	}
	return s + " (variant " + variant + ")"
}

// gateValue renders a check's value: the mean, or how much worse.
func gateValue(c check.GateCheck) string {
	switch {
	case c.Value == nil:
		return "no values"
	case c.Kind == check.CheckRegression:
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

func Gate(w io.Writer, res check.GateResult, variant string) {
	fmt.Fprintf(w, "gate on %s: %s\n", gateSubject(res, variant), gateTitle(res))
	printWarnings(w, res.Warnings)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "check\tvalue\tbound\tresult\tdetail")
	for _, c := range res.Checks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Check, gateValue(c), c.Bound, passFail(c.Pass), c.Message)
	}
	tw.Flush()
}

// GateMarkdown writes the result as a Markdown summary: a heading, a
// table of the checks, the failures' reasons and the warnings.
func GateMarkdown(w io.Writer, res check.GateResult, variant string) error {
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

// GateJUnit writes the result as JUnit XML: one test suite "kgeval
// gate", one test case per check, a <failure> with the reason for each
// failed check, the warnings as the suite's output.
func GateJUnit(w io.Writer, res check.GateResult, variant string) error {
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
