package check

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/stats"

	"github.com/kgeval/kgeval"
)

// Gate kinds of GateCheck.Kind.
const (
	CheckThreshold  = "threshold"
	CheckRegression = "regression"
)

// GateOps are the comparison operators of a requirement.
var GateOps = []string{">=", "<=", "==", ">", "<"}

// Requirement is one threshold of a gate: the run's mean of Metric compared
// with Bound by Op.
type Requirement struct {
	Metric string  `json:"metric"`
	Op     string  `json:"op"`
	Bound  float64 `json:"bound"`
}

func (r Requirement) String() string { return fmt.Sprintf("%s %s %g", r.Metric, r.Op, r.Bound) }

// ParseRequirement parses a requirement, `<variable> <op> <number>`:
//
//	requirement = variable op number
//	variable    = 1*( letter / digit / "_" / "." / "-" )   e.g. faithfulness.support
//	op          = ">=" / "<=" / "==" / ">" / "<"
//	number      = a decimal or exponent literal, finite    e.g. 0.8, 1e-2
//
// with optional spaces between the three parts. The check is always on the
// run's mean of the variable; there are no functions, no other operators
// and no combinations. Errors: EINVALID of kind kgeval.KindBadRequirement,
// with the 1-based column of the problem.
func ParseRequirement(s string) (Requirement, error) {
	bad := func(col int, format string, args ...any) error {
		return kgeval.OptionErrorf(kgeval.KindBadRequirement, "requirement %q at column %d: %s (write <variable><op><number>, e.g. faithfulness.support>=0.8)",
			s, col, fmt.Sprintf(format, args...))
	}
	i := skipSpaces(s, 0)
	name, j := scanName(s, i)
	if name == "" {
		if j < len(s) {
			return Requirement{}, bad(j+1, "want a variable name, found %q", s[j:j+1])
		}
		return Requirement{}, bad(j+1, "want a variable name")
	}
	j = skipSpaces(s, j)
	if j < len(s) && s[j] == '(' {
		return Requirement{}, bad(j+1, "%s(...) is not supported: name the variable; the check is on its mean", name)
	}
	op := ""
	for _, o := range GateOps {
		if strings.HasPrefix(s[j:], o) {
			op = o
			break
		}
	}
	if op == "" {
		found := "the end"
		if j < len(s) {
			found = fmt.Sprintf("%q", s[j:j+1])
		}
		return Requirement{}, bad(j+1, "want an operator (>=, <=, ==, > or <), found %s", found)
	}
	k := skipSpaces(s, j+len(op))
	x, err := parseNumber(s[k:])
	if err != "" {
		return Requirement{}, bad(k+1, "%s", err)
	}
	return Requirement{Metric: name, Op: op, Bound: x}, nil
}

// MaxRegression bounds how much worse than the baseline a variable's mean
// may get: at most Max in the variable's direction.
type MaxRegression struct {
	Metric string  `json:"metric"`
	Max    float64 `json:"max"`
}

func (m MaxRegression) String() string { return fmt.Sprintf("%s=%g", m.Metric, m.Max) }

// ParseMaxRegression parses `<variable>=<number>` (the variable as in
// ParseRequirement, the number finite and >= 0). Errors: EINVALID of kind
// kgeval.KindBadMaxRegression, with the 1-based column of the problem.
func ParseMaxRegression(s string) (MaxRegression, error) {
	bad := func(col int, format string, args ...any) error {
		return kgeval.OptionErrorf(kgeval.KindBadMaxRegression, "regression bound %q at column %d: %s (write <variable>=<number>, e.g. faithfulness.support=0.05)",
			s, col, fmt.Sprintf(format, args...))
	}
	i := skipSpaces(s, 0)
	name, j := scanName(s, i)
	if name == "" {
		return MaxRegression{}, bad(j+1, "want a variable name")
	}
	j = skipSpaces(s, j)
	if j >= len(s) || s[j] != '=' || strings.HasPrefix(s[j:], "==") {
		return MaxRegression{}, bad(j+1, "want =")
	}
	k := skipSpaces(s, j+1)
	x, err := parseNumber(s[k:])
	if err != "" {
		return MaxRegression{}, bad(k+1, "%s", err)
	}
	if x < 0 {
		return MaxRegression{}, bad(k+1, "want a number >= 0, the largest worsening allowed")
	}
	return MaxRegression{Metric: name, Max: x}, nil
}

func skipSpaces(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// scanName returns the variable name starting at i and the index after it.
func scanName(s string, i int) (string, int) {
	j := i
	for j < len(s) {
		c := s[j]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-' {
			j++
			continue
		}
		break
	}
	return s[i:j], j
}

// parseNumber parses the rest of an expression as a finite number; the
// message says what is wrong, "" when nothing is.
func parseNumber(s string) (float64, string) {
	t := strings.TrimRight(s, " \t")
	if t == "" {
		return 0, "want a number"
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || strings.ContainsAny(t, "xXpP_") {
		return 0, fmt.Sprintf("%q is not a number", t)
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Sprintf("want a finite number, found %q", t)
	}
	return x, ""
}

// GateOptions are a gate's checks.
type GateOptions struct {
	Require       []Requirement
	MaxRegression []MaxRegression
	// Baseline holds the baseline run's rows; MaxRegression needs them.
	Baseline []analysis.Row
	// Compare names the runs (Compare.Run is the gated run, Compare.Baseline
	// the baseline) and configures the comparison MaxRegression uses; its
	// Metrics are set by Gate.
	Compare analysis.RunCompareOptions
}

// GateCheck is one check of a gate with its outcome.
type GateCheck struct {
	// Check is the check as written: "faithfulness.support >= 0.8", or
	// "faithfulness.support: at most 0.05 worse than the baseline".
	Check  string `json:"check"`
	Kind   string `json:"kind"`
	Metric string `json:"metric"`
	// Value is the run's mean (threshold) or how much worse than the
	// baseline the mean got in the metric's direction (regression; negative
	// when it improved); null when there is no value. N counts the samples
	// (threshold) or pairs (regression) behind it.
	Value *float64 `json:"value"`
	N     int      `json:"n"`
	// Bound is the bound as a condition on Value: ">= 0.8", "<= 0.05".
	Bound string `json:"bound"`
	Pass  bool   `json:"pass"`
	// Message says what was found: on failure, why the check failed.
	Message string `json:"message"`
}

// GateResult is the outcome of a gate.
type GateResult struct {
	Run      string                `json:"run"`
	Baseline string                `json:"baseline,omitempty"`
	Pass     bool                  `json:"pass"`
	Failed   int                   `json:"failed"`
	Checks   []GateCheck           `json:"checks"`
	Warnings []analysis.RunWarning `json:"warnings"`
	// Comparison is the run against the baseline on the variables of the
	// regression bounds; nil without any.
	Comparison *analysis.RunComparison `json:"comparison,omitempty"`
}

// GateError is the error of a gate whose checks did not all pass; its
// message lists the failed checks.
type GateError struct{ Result GateResult }

func (e *GateError) Error() string {
	var why []string
	for _, c := range e.Result.Checks {
		if !c.Pass {
			why = append(why, c.Check+": "+c.Message)
		}
	}
	return fmt.Sprintf("gate failed, %d of %d checks: %s", e.Result.Failed, len(e.Result.Checks), strings.Join(why, "; "))
}

// Gate checks the rows of a run: each requirement on the run's mean of its
// variable over all samples (a variable without any value fails with "no
// values"; a mean within analysis.Unchanged of the bound counts as equal to it), and
// each regression bound on the direction-adjusted mean difference against
// the baseline over paired samples (CompareRuns): the check fails when the
// mean got worse by more than the bound, or when no pair has both values.
// Warnings are the comparison's (RunWarnings), or without a baseline that
// the run is not finished. Errors: EINVALID when there is no check, when a
// regression bound has no baseline rows, or when CompareRuns refuses.
func Gate(rows []analysis.Row, o GateOptions) (GateResult, error) {
	res := GateResult{Run: o.Compare.Run.Name, Checks: []GateCheck{}, Warnings: []analysis.RunWarning{}}
	if len(o.Require) == 0 && len(o.MaxRegression) == 0 {
		return res, kgeval.Errorf(kgeval.EINVALID, "a gate needs at least one requirement or regression bound")
	}
	if len(o.MaxRegression) > 0 && o.Baseline == nil {
		return res, kgeval.Errorf(kgeval.EINVALID, "a regression bound (%s) needs a baseline run", o.MaxRegression[0])
	}
	if o.Baseline != nil {
		res.Baseline = o.Compare.Baseline.Name
	}
	v := analysis.MetricVectors(rows)
	for _, r := range o.Require {
		res.Checks = append(res.Checks, threshold(r, v, len(rows)))
	}
	if len(o.MaxRegression) > 0 {
		co := o.Compare
		co.Metrics = nil
		seen := map[string]bool{}
		for _, m := range o.MaxRegression {
			if !seen[m.Metric] {
				seen[m.Metric] = true
				co.Metrics = append(co.Metrics, m.Metric)
			}
		}
		c, err := analysis.CompareRuns(o.Baseline, rows, co)
		if err != nil {
			return res, err
		}
		res.Comparison = &c
		res.Warnings = append(res.Warnings, c.Warnings...)
		byName := map[string]analysis.RunMetric{}
		for _, m := range c.Metrics {
			byName[m.Metric] = m
		}
		for _, m := range o.MaxRegression {
			res.Checks = append(res.Checks, regression(m, byName[m.Metric], c.Pairs))
		}
	} else if o.Baseline != nil {
		res.Warnings = append(res.Warnings, analysis.RunWarnings(o.Compare.Baseline, o.Compare.Run)...)
	} else if w := analysis.StatusWarning("run", o.Compare.Run); w != nil {
		res.Warnings = append(res.Warnings, *w)
	}
	for _, c := range res.Checks {
		if !c.Pass {
			res.Failed++
		}
	}
	res.Pass = res.Failed == 0
	return res, nil
}

func threshold(r Requirement, v analysis.Vectors, samples int) GateCheck {
	c := GateCheck{Check: r.String(), Kind: CheckThreshold, Metric: r.Metric, Bound: fmt.Sprintf("%s %g", r.Op, r.Bound)}
	x, ok := v[r.Metric]
	vals := analysis.Present(x)
	c.N = len(vals)
	if c.N == 0 {
		c.Message = fmt.Sprintf("no values: none of the %s has %s", analysis.Plural(samples, "sample", "samples"), r.Metric)
		if !ok {
			c.Message = fmt.Sprintf("no values: the run has no variable %s", r.Metric)
		}
		return c
	}
	m := stats.MeanPtr(vals)
	c.Value = m
	eq := math.Abs(*m-r.Bound) <= analysis.Unchanged
	switch r.Op {
	case ">=":
		c.Pass = eq || *m > r.Bound
	case "<=":
		c.Pass = eq || *m < r.Bound
	case ">":
		c.Pass = !eq && *m > r.Bound
	case "<":
		c.Pass = !eq && *m < r.Bound
	case "==":
		c.Pass = eq
	}
	c.Message = fmt.Sprintf("mean %.4g over %s", *m, analysis.Plural(c.N, "sample", "samples"))
	if !c.Pass {
		c.Message += fmt.Sprintf(", want %s %g", r.Op, r.Bound)
	}
	return c
}

func regression(b MaxRegression, m analysis.RunMetric, pairs int) GateCheck {
	c := GateCheck{Check: fmt.Sprintf("%s: at most %g worse than the baseline", b.Metric, b.Max), Kind: CheckRegression, Metric: b.Metric,
		Bound: fmt.Sprintf("<= %g", b.Max), N: m.N}
	if m.N == 0 || m.Gain == nil {
		why := "no pair with both values present"
		if r := m.Reasons["values"]; r != "" {
			why = r
		}
		c.Message = fmt.Sprintf("no values: %s (%s paired)", why, analysis.Plural(pairs, "sample", "samples"))
		return c
	}
	worse := -*m.Gain
	if worse == 0 {
		worse = 0 // no "-0"
	}
	c.Value = &worse
	c.Pass = worse <= b.Max+analysis.Unchanged
	change := fmt.Sprintf("mean %.4g → %.4g over %s, %s", *m.MeanBaseline, *m.MeanRun, analysis.Plural(m.N, "pair", "pairs"), m.Direction)
	switch {
	case !c.Pass:
		c.Message = fmt.Sprintf("got worse by %.4g (%s), more than %g", worse, change, b.Max)
	case worse > analysis.Unchanged:
		c.Message = fmt.Sprintf("got worse by %.4g (%s)", worse, change)
	case worse < -analysis.Unchanged:
		c.Message = fmt.Sprintf("improved by %.4g (%s)", -worse, change)
	default:
		c.Message = fmt.Sprintf("unchanged (%s)", change)
	}
	return c
}

// ParseGate parses the checks of a gate (requirements, regression bounds)
// into GateOptions and checks them with the run and the baseline, before
// any run is read. Errors: EINVALID of an option problem (kgeval.KindNoRun,
// ...; kgeval.OptionErrorf).
func ParseGate(run, baseline string, require, maxRegression []string) (GateOptions, error) {
	var o GateOptions
	if run == "" {
		return o, kgeval.OptionErrorf(kgeval.KindNoRun, "the run is required")
	}
	if len(require) == 0 && len(maxRegression) == 0 {
		return o, kgeval.OptionErrorf(kgeval.KindNoCheck, "nothing to check: give a requirement or a regression bound")
	}
	for _, s := range require {
		r, err := ParseRequirement(s)
		if err != nil {
			return o, err
		}
		o.Require = append(o.Require, r)
	}
	for _, s := range maxRegression {
		r, err := ParseMaxRegression(s)
		if err != nil {
			return o, err
		}
		o.MaxRegression = append(o.MaxRegression, r)
	}
	if len(o.MaxRegression) > 0 && baseline == "" {
		return o, kgeval.OptionErrorf(kgeval.KindNoBaseline, "a regression bound needs a baseline run")
	}
	if baseline != "" {
		return o, analysis.CheckBaseline(run, baseline)
	}
	return o, nil
}
