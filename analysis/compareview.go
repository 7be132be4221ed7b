package analysis

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
)

// CompareView compares run B with run A, the baseline ("did my change
// help?"). Metrics are the means per pair and KG metric
// over each run's own samples (SideBySide). Paired is the comparison
// `kgeval compare --run B --baseline A` prints (CompareRuns over every
// variable either run has): samples paired by id (or question), per
// variable the two means, the paired difference with its 95% interval, the
// Wilcoxon and t tests and the improved / unchanged / regressed counts in
// the metric's direction. Key is the variable chosen with pair and metric
// ("faithfulness.multihop", or "ts_groundedness_avg" for a metric read once
// per sample); Chosen is its paired comparison and Regressed its most
// regressed samples, worst first, with both answers. Samples are the
// samples of both runs (by id) by largest change of Key. Warnings are
// always there (different datasets, settings, models or encoders, an
// unfinished run); Unpaired says why Paired is missing when the runs share
// no sample.
type CompareView struct {
	A       RunRow         `json:"a"`
	B       RunRow         `json:"b"`
	Metrics []SideMetric   `json:"metrics"`
	Pair    string         `json:"pair"`
	Metric  string         `json:"metric"`
	Key     string         `json:"key"`
	Common  int            `json:"common"`
	Samples []SideSample   `json:"samples"`
	Paired  *RunComparison `json:"paired,omitempty"`
	// Warnings make the comparison doubtful (RunWarnings; those of Paired
	// when there is one).
	Warnings []RunWarning `json:"warnings"`
	Unpaired string       `json:"unpaired,omitempty"`
	Chosen   *RunMetric   `json:"chosen,omitempty"`
	// Regressed are Chosen's most regressed samples, worst first.
	Regressed []RegressedSample `json:"regressed"`
	// Pairs and MetricNames fill the pickers: the pairs of either run, the
	// KG metrics then the other metrics either run has.
	Pairs       []string `json:"pairs"`
	MetricNames []string `json:"metric_names"`
}

// RegressedSample is one of the most regressed samples of the chosen
// variable with the answer of each run (empty when it could not be read).
type RegressedSample struct {
	SampleChange
	// AID is the sample's id in A (BaselineID when the pair was made by
	// question, else ID).
	AID     string `json:"a_id"`
	AnswerA string `json:"answer_a"`
	AnswerB string `json:"answer_b"`
}

// CompareVariable is the variable of pair and metric: "pair.metric" for a
// KG metric, the metric alone otherwise.
func CompareVariable(pair, metric string) string {
	if slices.Contains(metricreg.KGMetricNames, metric) {
		return KGName(pair, metric)
	}
	return metric
}

// Compare compares run b with run a (the baseline) on the variable of pair
// (default: the first pair of either run) and metric (default multihop).
// Errors: EINVALID for a missing run name or a = b; ENOTFOUND for an
// unknown run.
func (rd *Reader) Compare(ctx context.Context, a, b, pair, metric string) (*CompareView, error) {
	if a == "" || b == "" {
		return nil, kgeval.Errorf(kgeval.EINVALID, "compare needs two runs: ?a=RUN&b=RUN")
	}
	if a == b {
		return nil, kgeval.Errorf(kgeval.EINVALID, "A and B are both run %q: compare two different runs (A the baseline, B the run to judge)", a)
	}
	ra, sa, err := rd.Run(ctx, a)
	if err != nil {
		return nil, err
	}
	rb, sb, err := rd.Run(ctx, b)
	if err != nil {
		return nil, err
	}
	xa, err := rd.st.RunScores(ctx, a, kgeval.DefaultVariant)
	if err != nil {
		return nil, err
	}
	xb, err := rd.st.RunScores(ctx, b, kgeval.DefaultVariant)
	if err != nil {
		return nil, err
	}
	pairs := pairsOf(sa.Pairs, sb.Pairs)
	if pair == "" && len(pairs) > 0 {
		pair = pairs[0]
	}
	if metric == "" {
		metric = metricreg.MetricMultihop
	}
	v := &CompareView{A: RunRowOf(ra), B: RunRowOf(rb), Pair: pair, Metric: metric, Key: CompareVariable(pair, metric),
		Regressed: []RegressedSample{}, Pairs: pairs}
	v.Metrics, v.Common, v.Samples = SideBySide(xa, xb, sa.Pairs, sa.Metrics, pair, metric)
	rowsA, rowsB := Rows(xa, nil), Rows(xb, nil)
	all := MetricVectors(rowsA).Merge(MetricVectors(rowsB))
	v.MetricNames = metricNames(all.Names())
	rc, err := CompareRuns(rowsA, rowsB, RunCompareOptions{Baseline: ra, Run: rb})
	if err != nil {
		v.Warnings = RunWarnings(ra, rb)
		v.Unpaired = kgeval.ErrorMessage(err)
		if v.Warnings == nil {
			v.Warnings = []RunWarning{}
		}
		return v, nil
	}
	v.Paired, v.Warnings = &rc, rc.Warnings
	for i := range rc.Metrics {
		if rc.Metrics[i].Metric == v.Key {
			v.Chosen = &rc.Metrics[i]
		}
	}
	if v.Chosen == nil {
		return v, nil
	}
	for _, ch := range v.Chosen.TopRegressions {
		r := RegressedSample{SampleChange: ch, AID: ch.ID}
		if ch.BaselineID != "" {
			r.AID = ch.BaselineID
		}
		if d, err := rd.st.GetSample(ctx, a, r.AID, kgeval.DefaultVariant, nil); err == nil {
			r.AnswerA = d.Answer
		}
		if d, err := rd.st.GetSample(ctx, b, ch.ID, kgeval.DefaultVariant, nil); err == nil {
			r.AnswerB = d.Answer
		}
		v.Regressed = append(v.Regressed, r)
	}
	return v, nil
}

// pairsOf names the pairs of two runs' settings, A's first.
func pairsOf(a, b []kgeval.Pair) []string {
	out := []string{}
	for _, p := range append(slices.Clone(a), b...) {
		if !slices.Contains(out, p.Name) {
			out = append(out, p.Name)
		}
	}
	return out
}

// metricNames are the metric pickers' names from variable names (in
// display order): each KG metric once, then every other variable.
func metricNames(vars []string) []string {
	out := []string{}
	for _, m := range metricreg.KGMetricNames {
		for _, v := range vars {
			if _, name, ok := strings.Cut(v, "."); ok && name == m && IsKG(v) {
				out = append(out, m)
				break
			}
		}
	}
	for _, v := range vars {
		if !IsKG(v) {
			out = append(out, v)
		}
	}
	return out
}

// Significance is the p-value below which a paired difference is called
// significant (Verdict, the compare page).
const Significance = 0.05

// Verdict says of a variable's paired comparison whether the run is
// better, worse or not significantly different from the baseline, in the
// metric's direction, by the Wilcoxon signed-rank test (the paired t-test
// when Wilcoxon is undefined) at Significance; "n/a" without pairs.
func Verdict(m RunMetric) string {
	t := m.Wilcoxon
	if t == nil {
		t = m.PairedT
	}
	switch {
	case m.N == 0 || m.Gain == nil:
		return "n/a"
	case t == nil || t.P >= Significance || *m.Gain == 0:
		return "no significant change"
	case *m.Gain > 0:
		return "better"
	}
	return "worse"
}

// CompareRow is a row of the paired table: a variable's paired
// comparison, the metric name its picker takes, whether it is the chosen
// one, and its Verdict.
type CompareRow struct {
	RunMetric
	Name    string
	Chosen  bool
	Verdict string
}

// Rows are the paired table's rows: the chosen pair's KG metrics, then
// the other variables.
func (v *CompareView) Rows() []CompareRow {
	if v.Paired == nil {
		return nil
	}
	var out []CompareRow
	for _, m := range v.Paired.Metrics {
		name := m.Metric
		if IsKG(name) {
			pair, metric, _ := strings.Cut(name, ".")
			if pair != v.Pair {
				continue
			}
			name = metric
		}
		out = append(out, CompareRow{RunMetric: m, Name: name, Chosen: m.Metric == v.Key, Verdict: Verdict(m)})
	}
	return out
}

// ComparePick is the compare page's read model: the runs to choose from,
// the two compared (the request's, or the defaults of PickCompared), and the
// comparison, or why there is none.
type ComparePick struct {
	Runs    []RunRow
	View    *CompareView
	A, B    string
	Refused string
}

// ComparePage lists the runs, picks A and B (PickCompared) and compares
// them on pair and metric. A missing pair of runs, a run compared with
// itself, and a default run deleted since the list was read are a Refused
// text, not an error; a run named in the request that does not exist is
// ENOTFOUND.
func (rd *Reader) ComparePage(ctx context.Context, a, b, pair, metric string) (*ComparePick, error) {
	runs, err := rd.Runs(ctx)
	if err != nil {
		return nil, err
	}
	p := &ComparePick{Runs: runs}
	p.A, p.B = PickCompared(runs, a, b)
	switch {
	case p.A == "" || p.B == "":
		p.Refused = "There is nothing to compare yet: comparing needs two runs."
	case p.A == p.B:
		p.Refused = fmt.Sprintf("A and B are both run %s: a run compared with itself shows no change. Pick two different runs (A the baseline, B the run to judge).", p.A)
	default:
		if p.View, err = rd.Compare(ctx, p.A, p.B, pair, metric); err != nil {
			if a != "" && b != "" || kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
				return nil, err
			}
			// A default run deleted since the list was read.
			p.Refused = kgeval.ErrorMessage(err) + ": pick two runs."
		}
	}
	return p, nil
}

// PickCompared picks A and B for the compare page: the request's, or by
// default the second-newest run as A and the newest as B (runs newest
// first); with one of them given, the other is the newest run besides it.
func PickCompared(runs []RunRow, a, b string) (string, string) {
	other := func(not string) string {
		for _, r := range runs {
			if r.Name != not {
				return r.Name
			}
		}
		return ""
	}
	switch {
	case a == "" && b == "" && len(runs) >= 2:
		return runs[1].Name, runs[0].Name
	case a == "" && b != "":
		return other(b), b
	case b == "" && a != "":
		return a, other(a)
	}
	return a, b
}
