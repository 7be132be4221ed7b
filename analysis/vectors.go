package analysis

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/stats"
)

// Row is one sample of a run with its scores, as the graph store exports it.
type Row struct {
	ID, System string
	// Question groups the answers of several systems to one question.
	Question string
	// Human is the sample's human labels as JSON ("" or "null" for none).
	Human string
	// Scores maps pair name to the pair's KG scores.
	Scores map[string]kgeval.KGResult
	// Metrics maps metric name to the sample's other metric values.
	Metrics map[string]kgeval.MetricScore
	// Explanations maps metric name to its explanation (JSON), for the
	// metrics whose explanations an analysis reads (factual_accuracy,
	// answer_class); it may be nil.
	Explanations map[string][]byte
}

// Vectors holds, for each variable, one value per row in row order; nil
// is a null or missing value.
type Vectors map[string][]*float64

// HumanPrefix starts the name of every human-label variable.
const HumanPrefix = "human."

// KGName is the variable name of a KG score: "<pair>.<metric>".
func KGName(pair, metric string) string { return pair + "." + metric }

// MetricVectors returns a vector for every KG score ("<pair>.<metric>") and
// every other metric any row has.
func MetricVectors(rows []Row) Vectors {
	v := Vectors{}
	get := func(name string) []*float64 {
		if v[name] == nil {
			v[name] = make([]*float64, len(rows))
		}
		return v[name]
	}
	for i, r := range rows {
		for pair, s := range r.Scores {
			for _, m := range metricreg.KGMetricNames {
				if val := s.Value(m); val != nil || !kgeval.NotApplicable(s.ReasonFor(m)) {
					get(KGName(pair, m))[i] = val
				}
			}
		}
		for name, s := range r.Metrics {
			get(name)[i] = s.Value
		}
	}
	// A verdict score without any value (not computed for this run) is no
	// variable.
	for name, vals := range v {
		pair, metric, ok := strings.Cut(name, ".")
		if !ok || pair == "" || metricreg.GraphMetric(metric) || !slices.Contains(metricreg.KGMetricNames, metric) {
			continue
		}
		if !slices.ContainsFunc(vals, func(x *float64) bool { return x != nil }) {
			delete(v, name)
		}
	}
	return v
}

// Merge adds the variables of o to v (o's win on a name clash) and returns v.
func (v Vectors) Merge(o Vectors) Vectors {
	for k, x := range o {
		v[k] = x
	}
	return v
}

// Names returns the variable names in display order: KG scores, then
// triplet-similarity metrics, then the other metrics, then human labels,
// each group sorted by name.
func (v Vectors) Names() []string {
	names := make([]string, 0, len(v))
	for k := range v {
		names = append(names, k)
	}
	SortNames(names)
	return names
}

// SortNames sorts variable names in display order (see Vectors.Names).
func SortNames(names []string) {
	sort.Slice(names, func(i, j int) bool {
		gi, gj := group(names[i]), group(names[j])
		if gi != gj {
			return gi < gj
		}
		return names[i] < names[j]
	})
}

func group(name string) int {
	switch {
	case strings.HasPrefix(name, HumanPrefix):
		return 4
	case IsKG(name):
		return 0
	case metricreg.MetricFamily(name) == metricreg.FamilyTS:
		return 1
	case metricreg.MetricFamily(name) == metricreg.FamilyLLM:
		return 2
	}
	return 3
}

// IsKG reports whether name is a KG score variable ("<pair>.<metric>").
func IsKG(name string) bool {
	if strings.HasPrefix(name, HumanPrefix) {
		return false
	}
	i := strings.LastIndexByte(name, '.')
	return i > 0 && metricreg.MetricFamily(name[i+1:]) == metricreg.FamilyKG
}

// Present returns the names whose vectors hold at least one value, and
// those that hold none.
func (v Vectors) Present(names []string) (present, empty []string) {
	for _, n := range names {
		has := false
		for _, x := range v[n] {
			if x != nil && stats.Finite(*x) {
				has = true
				break
			}
		}
		if has {
			present = append(present, n)
		} else {
			empty = append(empty, n)
		}
	}
	return present, empty
}

// Select returns the names of v that the patterns pick, in display order:
// a pattern is a variable name ("faithfulness.multihop"), a pair name
// ("faithfulness": its three KG scores), a KG metric name ("multihop": that
// score of every pair), a family (kg, ts, llm, ragas, baseline, human) or a
// triplet-similarity base name (ts_groundedness: its three aggregates).
// No pattern selects every variable. Errors: an UnknownVariablesError
// (EINVALID) naming the patterns that pick nothing, with the available
// names.
func (v Vectors) Select(patterns []string) ([]string, error) {
	all := v.Names()
	if len(patterns) == 0 {
		return all, nil
	}
	set := map[string]bool{}
	var unknown []string
	for _, p := range patterns {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		expanded, _ := metricreg.ExpandMetrics([]string{p})
		n := 0
		for _, name := range all {
			if matches(name, p, expanded) {
				set[name] = true
				n++
			}
		}
		if n == 0 {
			unknown = append(unknown, p)
		}
	}
	if len(unknown) > 0 {
		return nil, &UnknownVariablesError{Unknown: unknown, Names: all,
			err: kgeval.Errorf(kgeval.EINVALID, "no such variable in this run: %s (it has: %s)", strings.Join(unknown, ","), strings.Join(all, ", "))}
	}
	var out []string
	for _, name := range all {
		if set[name] {
			out = append(out, name)
		}
	}
	return out, nil
}

// UnknownVariablesError is Select's error when patterns pick no variable
// of the run: the patterns and the run's variables, so that each caller
// words it for its own input (the command line's --metrics, the API's
// select=). Its code is EINVALID.
type UnknownVariablesError struct {
	// Unknown are the patterns that pick nothing, in the order given;
	// Names the run's variables in display order.
	Unknown, Names []string
	err            *kgeval.Error
}

func (e *UnknownVariablesError) Error() string { return e.err.Error() }
func (e *UnknownVariablesError) Unwrap() error { return e.err }

func matches(name, p string, expanded []string) bool {
	switch {
	case name == p:
		return true
	case p == "human":
		return strings.HasPrefix(name, HumanPrefix)
	case IsKG(name) && (strings.HasPrefix(name, p+".") || strings.HasSuffix(name, "."+p)):
		return true
	}
	for _, e := range expanded {
		if name == e || IsKG(name) && strings.HasSuffix(name, "."+e) {
			return true
		}
	}
	return false
}

// Range returns the fixed scale of a variable, the range its histogram
// covers: the registry's (metricreg.MetricRange: [0, 100] for the RAGAS-style
// metrics but answer_class, [−1, 1] for the cosine metrics) for a metric,
// [0, 1] for the KG scores and human labels.
func Range(name string) (lo, hi float64) {
	if strings.HasPrefix(name, HumanPrefix) || IsKG(name) {
		return 0, 1
	}
	return metricreg.MetricRange(name)
}

// Present returns the present, finite Present of x.
func Present(x []*float64) []float64 {
	out := make([]float64, 0, len(x))
	for _, p := range x {
		if p != nil && stats.Finite(*p) {
			out = append(out, *p)
		}
	}
	return out
}

// Plural is "1 sample" or "n samples": n with one or many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}
