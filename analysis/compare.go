package analysis

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/metrics"
	"github.com/kgeval/kgeval/stats"
)

// Comparison is the per-system report of a run.
type Comparison struct {
	Systems     []SystemSummary `json:"systems"`
	Differences []Difference    `json:"differences"`
}

// SystemSummary describes one system's samples.
type SystemSummary struct {
	System  string          `json:"system"`
	Samples int             `json:"samples"`
	Metrics []MetricSummary `json:"metrics"`
	// Grades counts the factual_accuracy grades (A–E); nil when no sample
	// of the system has one.
	Grades map[string]int `json:"grades,omitempty"`
	// Classes counts the answer_class classes (CORRECT, WRONG, DONT_KNOW);
	// nil when no sample of the system has one.
	Classes map[string]int `json:"classes,omitempty"`
}

// MetricSummary is one metric over one system's samples.
type MetricSummary struct {
	Metric string   `json:"metric"`
	N      int      `json:"n"`
	Null   int      `json:"null"`
	Mean   *float64 `json:"mean"`
	Best   *Extreme `json:"best"`
	Worst  *Extreme `json:"worst"`
}

// Extreme is a value with the sample that has it.
type Extreme struct {
	Value  float64 `json:"value"`
	Sample string  `json:"sample"`
}

// Difference compares two systems on one metric.
type Difference struct {
	Metric string `json:"metric"`
	A      string `json:"a"`
	B      string `json:"b"`
	// Paired is true when both systems answered the same questions once
	// each: the tests are then paired by question.
	Paired bool `json:"paired"`
	// N is the number of pairs (paired) or of values, A's plus B's.
	N     int      `json:"n"`
	MeanA *float64 `json:"mean_a"`
	MeanB *float64 `json:"mean_b"`
	// Wilcoxon and PairedT are set for paired data, Welch otherwise; each
	// is null with a reason in Reasons when not defined.
	Wilcoxon *Test             `json:"wilcoxon,omitempty"`
	PairedT  *Test             `json:"paired_t,omitempty"`
	Welch    *Test             `json:"welch,omitempty"`
	Reasons  map[string]string `json:"reasons,omitempty"`
	// Shared is the number of questions both systems answered once each
	// with both values present; WinRate is the fraction of them where A
	// scores higher than B, ties counting one half (null when Shared is 0).
	Shared  int      `json:"shared"`
	Wins    int      `json:"wins"`
	Ties    int      `json:"ties"`
	Losses  int      `json:"losses"`
	WinRate *float64 `json:"win_rate"`
}

// Test is a hypothesis test's result (see stats.Test).
type Test struct {
	Stat float64 `json:"stat"`
	P    float64 `json:"p"`
	DF   float64 `json:"df,omitempty"`
	N    int     `json:"n"`
}

// NoSystem names the samples that have no system.
const NoSystem = "(none)"

// Compare summarises each system of rows on the named variables of v and
// tests every pair of systems on each of them.
func Compare(rows []Row, v Vectors, names []string) Comparison {
	bySystem := map[string][]int{}
	var systems []string
	for i, r := range rows {
		s := SystemOf(r)
		if bySystem[s] == nil {
			systems = append(systems, s)
		}
		bySystem[s] = append(bySystem[s], i)
	}
	sort.Strings(systems)
	c := Comparison{Systems: []SystemSummary{}, Differences: []Difference{}}
	for _, s := range systems {
		c.Systems = append(c.Systems, summarise(s, rows, bySystem[s], v, names))
	}
	for _, name := range names {
		for i, a := range systems {
			for _, b := range systems[i+1:] {
				c.Differences = append(c.Differences, Differ(name, a, b, rows, bySystem[a], bySystem[b], v[name]))
			}
		}
	}
	return c
}

func SystemOf(r Row) string {
	if r.System == "" {
		return NoSystem
	}
	return r.System
}

func summarise(system string, rows []Row, idx []int, v Vectors, names []string) SystemSummary {
	s := SystemSummary{System: system, Samples: len(idx), Metrics: []MetricSummary{}}
	for _, name := range names {
		ms := MetricSummary{Metric: name}
		var vals []float64
		for _, i := range idx {
			x := v[name][i]
			if x == nil || !stats.Finite(*x) {
				ms.Null++
				continue
			}
			vals = append(vals, *x)
			if ms.Best == nil || *x > ms.Best.Value {
				ms.Best = &Extreme{*x, rows[i].ID}
			}
			if ms.Worst == nil || *x < ms.Worst.Value {
				ms.Worst = &Extreme{*x, rows[i].ID}
			}
		}
		ms.N = len(vals)
		if ms.N > 0 {
			ms.Mean = stats.Ptr(stats.Mean(vals))
		}
		s.Metrics = append(s.Metrics, ms)
	}
	for _, i := range idx {
		if g, ok := grade(rows[i]); ok {
			if s.Grades == nil {
				s.Grades = map[string]int{}
			}
			s.Grades[g]++
		}
		if c, ok := class(rows[i]); ok {
			if s.Classes == nil {
				s.Classes = map[string]int{}
			}
			s.Classes[c]++
		}
	}
	return s
}

// grade is the factual_accuracy grade of r: from the explanation, else from
// the score.
func grade(r Row) (string, bool) {
	var e struct {
		Grade string `json:"grade"`
	}
	if b := r.Explanations[metricreg.MetricFactualAccuracy]; len(b) > 0 && json.Unmarshal(b, &e) == nil && e.Grade != "" {
		return e.Grade, true
	}
	if m, ok := r.Metrics[metricreg.MetricFactualAccuracy]; ok && m.Value != nil {
		return metrics.Grade(*m.Value), true
	}
	return "", false
}

// class is the answer_class class of r, from its explanation.
func class(r Row) (string, bool) {
	var e struct {
		Class string `json:"class"`
	}
	if b := r.Explanations[metricreg.MetricAnswerClass]; len(b) > 0 && json.Unmarshal(b, &e) == nil && e.Class != "" {
		return e.Class, true
	}
	return "", false
}

// Differ compares systems a and b (their rows ia and ib) on one variable x.
func Differ(metric, a, b string, rows []Row, ia, ib []int, x []*float64) Difference {
	d := Difference{Metric: metric, A: a, B: b, Reasons: map[string]string{}}
	qa, qb := ByQuestion(rows, ia), ByQuestion(rows, ib)
	// Questions answered once by each system, in a fixed order.
	var shared []string
	for q, is := range qa {
		if len(is) == 1 && len(qb[q]) == 1 {
			shared = append(shared, q)
		}
	}
	sort.Strings(shared)
	d.Paired = len(shared) > 0 && len(shared) == len(ia) && len(shared) == len(ib)
	var pa, pb []float64
	for _, q := range shared {
		va, vb := x[qa[q][0]], x[qb[q][0]]
		if va == nil || vb == nil || !stats.Finite(*va) || !stats.Finite(*vb) {
			continue
		}
		pa, pb = append(pa, *va), append(pb, *vb)
		switch {
		case *va > *vb:
			d.Wins++
		case *va < *vb:
			d.Losses++
		default:
			d.Ties++
		}
	}
	d.Shared = len(pa)
	if d.Shared > 0 {
		d.WinRate = stats.Ptr((float64(d.Wins) + float64(d.Ties)/2) / float64(d.Shared))
	} else {
		d.Reasons["win_rate"] = "no question answered once by both systems with both values present"
	}
	switch {
	case d.Paired && len(pa) == 0:
		d.Reasons = map[string]string{"paired": "no question with both values present"}
	case d.Paired:
		d.N = len(pa)
		d.MeanA, d.MeanB = stats.MeanPtr(pa), stats.MeanPtr(pb)
		if t, ok := stats.WilcoxonSignedRank(pa, pb); ok {
			d.Wilcoxon = fromStats(t)
		} else {
			d.Reasons["wilcoxon"] = pairedReason(pa, pb, true)
		}
		if t, ok := stats.PairedT(pa, pb); ok {
			d.PairedT = fromStats(t)
		} else {
			d.Reasons["paired_t"] = pairedReason(pa, pb, false)
		}
	default:
		va, vb := Present(pick(x, ia)), Present(pick(x, ib))
		d.N = len(va) + len(vb)
		d.MeanA, d.MeanB = stats.MeanPtr(va), stats.MeanPtr(vb)
		if t, ok := stats.WelchT(va, vb); ok {
			d.Welch = fromStats(t)
		} else if len(va) < 2 || len(vb) < 2 {
			d.Reasons["welch"] = fmt.Sprintf("%s has %s and %s has %s, need 2 each", a, Plural(len(va), "value", "values"), b, Plural(len(vb), "value", "values"))
		} else {
			d.Reasons["welch"] = "both systems are constant"
		}
	}
	if len(d.Reasons) == 0 {
		d.Reasons = nil
	}
	return d
}

func pairedReason(a, b []float64, wilcoxon bool) string {
	if wilcoxon {
		if len(a) == 0 {
			return "no pair with both values present"
		}
		return fmt.Sprintf("all %s have a zero difference", Plural(len(a), "pair", "pairs"))
	}
	if len(a) < 2 {
		return fmt.Sprintf("%s with both values present, need 2", Plural(len(a), "pair", "pairs"))
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return fmt.Sprintf("the %d differences are all %.4g: t is not defined", len(d), d[0])
}

func ByQuestion(rows []Row, idx []int) map[string][]int {
	m := map[string][]int{}
	for _, i := range idx {
		m[rows[i].Question] = append(m[rows[i].Question], i)
	}
	return m
}

func pick(x []*float64, idx []int) []*float64 {
	out := make([]*float64, len(idx))
	for k, i := range idx {
		out[k] = x[i]
	}
	return out
}

func fromStats(t stats.Test) *Test { return &Test{Stat: t.Stat, P: t.P, DF: t.DF, N: t.N} }

// CompareSystems compares the systems of rows on the variables patterns
// select (all when none; sel selects, default Vectors.Select) and returns
// the comparison with the selected variables that have no value: the one
// systems comparison of the CLI and the dashboard. Errors: EINVALID for a
// pattern that selects nothing.
func CompareSystems(rows []Row, patterns []string, sel func(Vectors, []string) ([]string, error)) (Comparison, []string, error) {
	if sel == nil {
		sel = Vectors.Select
	}
	v := MetricVectors(rows)
	names, err := sel(v, patterns)
	if err != nil {
		return Comparison{}, nil, err
	}
	present, empty := v.Present(names)
	return Compare(rows, v, present), empty, nil
}
