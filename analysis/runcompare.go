package analysis

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"unicode"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/stats"
)

// Unchanged is the largest |difference| between a sample's two values that
// counts as no change; a mean within it of a gate's bound counts as equal to
// the bound.
const Unchanged = 1e-9

// TopRegressions is how many of the most regressed samples CompareRuns lists
// per metric by default.
const TopRegressions = 10

// Pairing keys of RunComparison.PairedBy.
const (
	PairedByID       = "id"
	PairedByQuestion = "question"
)

// RunCompareOptions configures CompareRuns.
type RunCompareOptions struct {
	// Baseline and Run are the records of the two runs: their names label
	// the report, and their dataset fingerprints, configurations, models,
	// encoders and statuses give the warnings (RunWarnings). Two records
	// with the same non-empty name are refused.
	Baseline, Run kgeval.Run
	// Metrics are the variables to compare, in this order; nil compares
	// every variable either run has, in display order (Vectors.Names).
	Metrics []string
	// Top is how many of the most regressed samples to list per metric
	// (0: TopRegressions).
	Top int
}

// RunComparison compares a run with a baseline run, sample by sample: did
// the change between them help?
type RunComparison struct {
	Baseline string `json:"baseline"`
	Run      string `json:"run"`
	// PairedBy says how samples were paired: "id" when the runs share
	// sample ids, else "question" (see CompareRuns).
	PairedBy string `json:"paired_by"`
	// Pairs is the number of paired samples; UnpairedBaseline and
	// UnpairedRun count each run's samples left without a partner.
	Pairs            int `json:"pairs"`
	UnpairedBaseline int `json:"unpaired_baseline"`
	UnpairedRun      int `json:"unpaired_run"`
	// Interval names the method of every metric's CILo and CIHi.
	Interval string       `json:"interval"`
	Warnings []RunWarning `json:"warnings"`
	Metrics  []RunMetric  `json:"metrics"`
}

// RunWarning is something that makes a comparison of two runs doubtful.
type RunWarning struct {
	// Kind is one of "dataset", "settings", "model", "encoder", "status",
	// "questions".
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// RunMetric compares one variable over the paired samples.
type RunMetric struct {
	Metric    string `json:"metric"`
	Direction string `json:"direction"`
	// N is the number of pairs with both values present; NullBaseline and
	// NullRun count the pairs where that run's value is null or missing.
	N            int `json:"n"`
	NullBaseline int `json:"null_baseline"`
	NullRun      int `json:"null_run"`
	// MeanBaseline and MeanRun are the means over the N pairs, Diff the mean
	// of run − baseline, and Gain the same turned round for a
	// lower-is-better metric, so that a positive Gain is an improvement for
	// every metric. CILo and CIHi bound Diff (see RunComparison.Interval).
	MeanBaseline *float64 `json:"mean_baseline"`
	MeanRun      *float64 `json:"mean_run"`
	Diff         *float64 `json:"diff"`
	Gain         *float64 `json:"gain"`
	CILo         *float64 `json:"ci_lo"`
	CIHi         *float64 `json:"ci_hi"`
	// Wilcoxon (signed-rank) and PairedT test run − baseline; each is null
	// with a reason in Reasons when not defined.
	Wilcoxon *Test `json:"wilcoxon"`
	PairedT  *Test `json:"paired_t"`
	// Improved, Regressed and Unchanged count the pairs by the sign of the
	// direction-adjusted difference; |difference| <= Unchanged is unchanged.
	Improved  int               `json:"improved"`
	Regressed int               `json:"regressed"`
	Unchanged int               `json:"unchanged"`
	Reasons   map[string]string `json:"reasons,omitempty"`
	// TopRegressions lists the most regressed pairs, worst first.
	TopRegressions []SampleChange `json:"top_regressions"`
}

// SampleChange is one pair of samples with its two values.
type SampleChange struct {
	// ID is the run's sample id; BaselineID the baseline's, when it differs
	// (samples paired by question).
	ID         string  `json:"id"`
	BaselineID string  `json:"baseline_id,omitempty"`
	Question   string  `json:"question"`
	Baseline   float64 `json:"baseline"`
	Run        float64 `json:"run"`
	// Diff is Run − Baseline.
	Diff float64 `json:"diff"`
}

// CompareRuns pairs the samples of a baseline run and of a run and compares
// them on each variable. Samples are paired by id when the runs share any
// sample id; otherwise by question text, a question asked more than once in
// a run (by several systems) being paired by system and question. Samples
// whose key is not unique in both runs stay unpaired.
//
// For each variable, over the pairs where both values are present: the two
// means, the mean difference run − baseline with its 95% t interval
// (stats.MeanCI, the interval of the paired t-test; null for fewer than 2
// pairs), the paired Wilcoxon signed-rank and t tests, the counts of improved,
// unchanged and regressed pairs in the metric's direction
// (metricreg.ValidityOf) and the most regressed pairs.
//
// Errors: EINVALID when both records name the same run, when either run has
// no sample, or when no sample pairs, with the reason.
func CompareRuns(baseline, run []Row, o RunCompareOptions) (RunComparison, error) {
	if o.Top <= 0 {
		o.Top = TopRegressions
	}
	a, b := o.Baseline.Name, o.Run.Name
	c := RunComparison{Baseline: a, Run: b, Warnings: []RunWarning{}, Metrics: []RunMetric{},
		Interval: "95% t interval of the mean difference: mean ± t(0.975, n−1)·s/√n over the n pairs (the paired t-test's interval)"}
	if a != "" && a == b {
		return c, kgeval.Errorf(kgeval.EINVALID, "the baseline is run %q itself: compare two different runs", a)
	}
	if len(baseline) == 0 || len(run) == 0 {
		return c, kgeval.Errorf(kgeval.EINVALID, "cannot compare runs: baseline %s has %s, run %s has %s",
			orUnnamed(a), Plural(len(baseline), "sample", "samples"), orUnnamed(b), Plural(len(run), "sample", "samples"))
	}
	pairs, by := pairRuns(baseline, run)
	c.PairedBy, c.Pairs = by, len(pairs)
	c.UnpairedBaseline, c.UnpairedRun = len(baseline)-len(pairs), len(run)-len(pairs)
	if len(pairs) == 0 {
		return c, kgeval.Errorf(kgeval.EINVALID, "cannot compare runs: baseline %s (%s) and run %s (%s) share no sample id and no question asked once in each (or by one system)",
			orUnnamed(a), Plural(len(baseline), "sample", "samples"), orUnnamed(b), Plural(len(run), "sample", "samples"))
	}
	c.Warnings = append(c.Warnings, RunWarnings(o.Baseline, o.Run)...)
	if by == PairedByID {
		differ := 0
		for _, p := range pairs {
			if baseline[p[0]].Question != run[p[1]].Question {
				differ++
			}
		}
		if differ > 0 {
			c.Warnings = append(c.Warnings, RunWarning{"questions", fmt.Sprintf("%d of %d samples paired by id ask a different question in the two runs: are the ids record numbers of different datasets?", differ, len(pairs))})
		}
	}
	va, vb := MetricVectors(baseline), MetricVectors(run)
	names := o.Metrics
	if names == nil {
		all := Vectors{}
		for k := range va {
			all[k] = nil
		}
		for k := range vb {
			all[k] = nil
		}
		names = all.Names()
	}
	for _, name := range names {
		c.Metrics = append(c.Metrics, compareMetric(name, baseline, run, pairs, va[name], vb[name], o))
	}
	return c, nil
}

func orUnnamed(run string) string {
	if run == "" {
		return "(unnamed)"
	}
	return fmt.Sprintf("%q", run)
}

// pairRuns returns the pairs (baseline row, run row) in baseline order and
// the key they were paired by.
func pairRuns(a, b []Row) ([][2]int, string) {
	all := func(rows []Row) []int {
		idx := make([]int, len(rows))
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	if pairs, _, _ := pairUnique(a, b, all(a), all(b), func(r Row) string { return r.ID }); len(pairs) > 0 {
		return pairs, PairedByID
	}
	pairs, ra, rb := pairUnique(a, b, all(a), all(b), func(r Row) string { return r.Question })
	more, _, _ := pairUnique(a, b, ra, rb, func(r Row) string { return kgeval.JoinKey(SystemOf(r), r.Question) })
	pairs = append(pairs, more...)
	sort.Slice(pairs, func(i, j int) bool { return pairs[i][0] < pairs[j][0] })
	return pairs, PairedByQuestion
}

// pairUnique pairs the rows ia of a with the rows ib of b whose key is
// unique among ia and among ib, and returns the rest of each.
func pairUnique(a, b []Row, ia, ib []int, key func(Row) string) (pairs [][2]int, restA, restB []int) {
	ka, kb := map[string][]int{}, map[string][]int{}
	for _, i := range ia {
		ka[key(a[i])] = append(ka[key(a[i])], i)
	}
	for _, i := range ib {
		kb[key(b[i])] = append(kb[key(b[i])], i)
	}
	paired := map[int]bool{}
	for _, i := range ia {
		k := key(a[i])
		if len(ka[k]) == 1 && len(kb[k]) == 1 {
			pairs = append(pairs, [2]int{i, kb[k][0]})
			paired[kb[k][0]] = true
		} else {
			restA = append(restA, i)
		}
	}
	for _, i := range ib {
		if !paired[i] {
			restB = append(restB, i)
		}
	}
	return pairs, restA, restB
}

func compareMetric(name string, baseline, run []Row, pairs [][2]int, xa, xb []*float64, o RunCompareOptions) RunMetric {
	dir := metricreg.ValidityOf(name).Direction
	m := RunMetric{Metric: name, Direction: dir.String(), Reasons: map[string]string{}, TopRegressions: []SampleChange{}}
	at := func(x []*float64, i int) (float64, bool) {
		if x == nil || x[i] == nil || !stats.Finite(*x[i]) {
			return 0, false
		}
		return *x[i], true
	}
	var pa, pb, d []float64
	var regressed []SampleChange
	for _, p := range pairs {
		va, okA := at(xa, p[0])
		vb, okB := at(xb, p[1])
		if !okA {
			m.NullBaseline++
		}
		if !okB {
			m.NullRun++
		}
		if !okA || !okB {
			continue
		}
		pa, pb, d = append(pa, va), append(pb, vb), append(d, vb-va)
		adj := float64(dir) * (vb - va)
		switch {
		case math.Abs(vb-va) <= Unchanged:
			m.Unchanged++
		case adj > 0:
			m.Improved++
		default:
			m.Regressed++
			ch := SampleChange{ID: run[p[1]].ID, Question: run[p[1]].Question, Baseline: va, Run: vb, Diff: vb - va}
			if id := baseline[p[0]].ID; id != ch.ID {
				ch.BaselineID = id
			}
			regressed = append(regressed, ch)
		}
	}
	m.N = len(d)
	if m.N == 0 {
		switch {
		case xa == nil && xb == nil:
			m.Reasons["values"] = "neither run has this variable"
		case xa == nil:
			m.Reasons["values"] = "the baseline has no such variable"
		case xb == nil:
			m.Reasons["values"] = "the run has no such variable"
		default:
			m.Reasons["values"] = "no pair with both values present"
		}
	} else {
		m.MeanBaseline, m.MeanRun, m.Diff = stats.MeanPtr(pa), stats.MeanPtr(pb), stats.MeanPtr(d)
		m.Gain = stats.Ptr(float64(dir) * *m.Diff)
		if lo, hi, ok := stats.MeanCI(d, 0.95); ok {
			m.CILo, m.CIHi = stats.Ptr(lo), stats.Ptr(hi)
		} else {
			m.Reasons["interval"] = "1 pair with both values present, need 2"
		}
		if t, ok := stats.WilcoxonSignedRank(pb, pa); ok {
			m.Wilcoxon = fromStats(t)
		} else {
			m.Reasons["wilcoxon"] = pairedReason(pb, pa, true)
		}
		if t, ok := stats.PairedT(pb, pa); ok {
			m.PairedT = fromStats(t)
		} else {
			m.Reasons["paired_t"] = pairedReason(pb, pa, false)
		}
	}
	// Worst first: the most negative direction-adjusted difference.
	sort.SliceStable(regressed, func(i, j int) bool {
		gi, gj := float64(dir)*regressed[i].Diff, float64(dir)*regressed[j].Diff
		if gi != gj {
			return gi < gj
		}
		return regressed[i].ID < regressed[j].ID
	})
	if len(regressed) > o.Top {
		regressed = regressed[:o.Top]
	}
	m.TopRegressions = append(m.TopRegressions, regressed...)
	if len(m.Reasons) == 0 {
		m.Reasons = nil
	}
	return m
}

// RunWarnings says what makes a comparison of two runs doubtful: different
// datasets (the dataset fingerprints), different scoring settings (the
// scoring section of the recorded configurations, key by key), models or
// encoders, and a run that is not done. Empty fields give no warning; a
// configuration recorded for one run only is a warning.
func RunWarnings(baseline, run kgeval.Run) []RunWarning {
	var w []RunWarning
	add := func(kind, format string, args ...any) { w = append(w, RunWarning{kind, fmt.Sprintf(format, args...)}) }
	a, b := orUnnamed(baseline.Name), orUnnamed(run.Name)
	if baseline.Fingerprint != "" && run.Fingerprint != "" && baseline.Fingerprint != run.Fingerprint {
		add("dataset", "different datasets: baseline %s was evaluated from %s (sha256 %.12s), run %s from %s (sha256 %.12s)",
			a, baseline.Dataset, baseline.Fingerprint, b, run.Dataset, run.Fingerprint)
	}
	sa, okA := scoringSettings(baseline.Config)
	sb, okB := scoringSettings(run.Config)
	switch {
	case okA && okB:
		var diffs []string
		for _, k := range unionKeys(sa, sb) {
			if !reflect.DeepEqual(sa[k], sb[k]) {
				diffs = append(diffs, fmt.Sprintf("scoring.%s %s → %s", snake(k), compactJSON(sa[k]), compactJSON(sb[k])))
			}
		}
		if len(diffs) > 0 {
			add("settings", "different scoring settings (baseline → run): %s", strings.Join(diffs, "; "))
		}
	case okA != okB && baseline.Config+run.Config != "":
		missing := b
		if !okA {
			missing = a
		}
		add("settings", "scoring settings not compared: %s has no readable recorded configuration", missing)
	}
	if ea, eb := ExtractionMethod(baseline), ExtractionMethod(run); ea != eb {
		add("extraction", "different extraction: baseline %s read its triplets by %s, run %s by %s (extraction.method)", a, ea, b, eb)
	}
	if ma, mb := kgeval.ModelOf(baseline.LLM), kgeval.ModelOf(run.LLM); ma != "" && mb != "" && ma != mb {
		add("model", "different models: baseline %s used %s, run %s used %s", a, ma, b, mb)
	}
	if baseline.Encoder != "" && run.Encoder != "" && baseline.Encoder != run.Encoder {
		add("encoder", "different encoders: baseline %s used %s, run %s used %s", a, baseline.Encoder, b, run.Encoder)
	}
	for _, r := range []struct {
		role string
		run  kgeval.Run
	}{{"baseline", baseline}, {"run", run}} {
		if s := StatusWarning(r.role, r.run); s != nil {
			w = append(w, *s)
		}
	}
	return w
}

// StatusWarning warns that a run (role: "run" or "baseline") is not done;
// nil when it is, or when its status is not recorded.
func StatusWarning(role string, r kgeval.Run) *RunWarning {
	if r.Status == "" || r.Status == kgeval.RunDone {
		return nil
	}
	return &RunWarning{"status", fmt.Sprintf("%s %s is not finished (status %s): its scores may be partial", role, orUnnamed(r.Name), r.Status)}
}

// scoringSettings returns the scoring section of a recorded configuration
// (JSON of cmd's Config: {"Scoring": {"Tau": 0.7, ...}, ...}).
func scoringSettings(config string) (map[string]any, bool) {
	var top map[string]json.RawMessage
	if config == "" || json.Unmarshal([]byte(config), &top) != nil {
		return nil, false
	}
	for k, raw := range top {
		if strings.EqualFold(k, "scoring") {
			var s map[string]any
			if json.Unmarshal(raw, &s) != nil || s == nil {
				return nil, false
			}
			return s, true
		}
	}
	return nil, false
}

func unionKeys(a, b map[string]any) []string {
	set := map[string]bool{}
	for k := range a {
		set[k] = true
	}
	for k := range b {
		set[k] = true
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// snake turns a Go field name of the recorded configuration into its
// configuration key: TauRel → tau_rel.
func snake(s string) string {
	var sb strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
			sb.WriteByte('_')
		}
		sb.WriteRune(unicode.ToLower(r))
	}
	return sb.String()
}

func compactJSON(v any) string {
	if v == nil {
		return "(unset)"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
