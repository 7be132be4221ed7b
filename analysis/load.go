package analysis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// The loaders below read what a read model needs from the store, for the
// CLI and the dashboard alike; the read models themselves are the pure
// functions of this package.

// ScoreSource is what the loaders read: run records and a run's scores as rows.
type ScoreSource interface {
	GetRun(ctx context.Context, name string) (kgeval.Run, error)
	Variants(ctx context.Context, run string) ([]readmodel.Variant, error)
	RunScores(ctx context.Context, run, variant string) ([]readmodel.SampleScores, error)
	MetricExplanations(ctx context.Context, run string, metrics []string) (map[string]map[string][]byte, error)
}

// Rows turns stored rows into analysis rows, with the explanations expl
// holds per sample (nil for none).
func Rows(xs []readmodel.SampleScores, expl map[string]map[string][]byte) []Row {
	rows := make([]Row, len(xs))
	for i, x := range xs {
		rows[i] = Row{ID: x.ID, System: x.System, Question: x.Question, Human: x.Human, Scores: x.Scores, Metrics: x.Metrics,
			Explanations: expl[x.ID]}
	}
	return rows
}

// ExplainedMetrics are the metrics whose explanations Compare reads.
var ExplainedMetrics = []string{metricreg.MetricFactualAccuracy, metricreg.MetricAnswerClass}

// LoadRows reads the samples of one scoring variant of a run as rows; with
// explain, also the explanations of ExplainedMetrics. Errors: ENOTFOUND
// for an unknown run or variant, EINVALID for a run without samples.
func LoadRows(ctx context.Context, st ScoreSource, run, variant string, explain bool) ([]Row, error) {
	if _, err := st.GetRun(ctx, run); err != nil {
		return nil, err
	}
	scores, err := st.RunScores(ctx, run, variant)
	if err != nil {
		return nil, err
	}
	if len(scores) == 0 {
		return nil, kgeval.Errorf(kgeval.EINVALID, "run %q has no sample", run)
	}
	if variant != kgeval.DefaultVariant {
		stored := false
		for _, s := range scores {
			stored = stored || len(s.Scores) > 0
		}
		if !stored {
			return nil, noSuchVariant{run: run, err: kgeval.Errorf(kgeval.ENOTFOUND, "run %q has no variant %q", run, variant)}
		}
	}
	var expl map[string]map[string][]byte
	if explain {
		if expl, err = st.MetricExplanations(ctx, run, ExplainedMetrics); err != nil {
			return nil, err
		}
	}
	return Rows(scores, expl), nil
}

// noSuchVariant is the error of a scoring variant a run does not have.
type noSuchVariant struct {
	run string
	err *kgeval.Error
}

func (e noSuchVariant) Error() string { return e.err.Error() }
func (e noSuchVariant) Unwrap() error { return e.err }

// NoSuchVariant reports whether err says that a run has no scoring variant
// of the name the caller gave, and names the run, so that a caller can add
// its own advice (the CLI points to `kgeval sweep-report`).
func NoSuchVariant(err error) (run string, ok bool) {
	var e noSuchVariant
	if errors.As(err, &e) {
		return e.run, true
	}
	return "", false
}

// SensitivityVariants are the variants of the sensitivity experiment, in
// display order.
var SensitivityVariants = []string{VariantOriginal, VariantReferenceAsAnswer, VariantWrongAnswer}

// SensitivityRun is the run of a variant in the sensitivity experiment
// named prefix: prefix itself for the original answers, else
// prefix-variant.
func SensitivityRun(prefix, variant string) string {
	if variant == VariantOriginal {
		return prefix
	}
	return prefix + "-" + variant
}

// SensitivityRuns names the runs of the experiment named prefix, by
// variant.
func SensitivityRuns(prefix string) map[string]string {
	runs := map[string]string{}
	for _, v := range SensitivityVariants {
		runs[v] = SensitivityRun(prefix, v)
	}
	return runs
}

// SensitivityPrefix returns the prefix of the sensitivity experiment whose
// three runs are all in names and which run belongs to, and false when
// there is none.
func SensitivityPrefix(names map[string]bool, run string) (string, bool) {
	complete := func(prefix string) bool {
		for _, v := range SensitivityVariants {
			if !names[SensitivityRun(prefix, v)] {
				return false
			}
		}
		return true
	}
	if complete(run) {
		return run, true
	}
	for _, v := range SensitivityVariants[1:] {
		if prefix, ok := strings.CutSuffix(run, "-"+v); ok && complete(prefix) {
			return prefix, true
		}
	}
	return "", false
}

// Sensitivity is the outcome of the sensitivity experiment read back from
// its runs: per metric any of them has, each variant's description and the
// separation of reference_as_answer from wrong_answer; Samples counts each
// run's samples, by variant.
type Sensitivity struct {
	Samples map[string]int
	Metrics []Separation
}

// LoadSensitivity reads the experiment's runs (runs, by variant) and
// describes every metric any of them has (histograms of bins bins), with
// the AUROC and Cohen's d of reference_as_answer against wrong_answer.
// Errors: those of LoadRows.
func LoadSensitivity(ctx context.Context, st ScoreSource, runs map[string]string, bins int) (*Sensitivity, error) {
	out := &Sensitivity{Samples: map[string]int{}}
	var groups []Group
	all := Vectors{}
	for _, variant := range SensitivityVariants {
		rows, err := LoadRows(ctx, st, runs[variant], kgeval.DefaultVariant, false)
		if err != nil {
			return nil, err
		}
		v := MetricVectors(rows)
		groups = append(groups, Group{Name: variant, V: v})
		all.Merge(v)
		out.Samples[variant] = len(rows)
	}
	for _, name := range all.Names() {
		out.Metrics = append(out.Metrics, Separate(name, groups, VariantReferenceAsAnswer, VariantWrongAnswer, bins))
	}
	return out, nil
}

// SweepReport is how a run's KG scores change over its sweep variants, and
// how well they separate two groups: two systems of the run (A, B) or the
// run from another run swept over the same grid (Against).
type SweepReport struct {
	Run     string   `json:"run"`
	Against string   `json:"against,omitempty"`
	A       string   `json:"a,omitempty"`
	B       string   `json:"b,omitempty"`
	Note    string   `json:"note,omitempty"`
	Metrics []string `json:"metrics"`
	Points  []Point  `json:"points"`
}

// LoadSweepReport reads every scoring variant of run (the default first,
// then the grid by tau and delta) and summarises the metrics patterns
// select per variant (SweepPoint), separating two groups: the run from
// against when set, else the two systems named (or the first two systems in
// alphabetical order when there are several). Errors: ENOTFOUND for an
// unknown run, EINVALID for an unknown system or pattern.
func LoadSweepReport(ctx context.Context, st ScoreSource, run, against string, systems, patterns []string) (SweepReport, error) {
	rep := SweepReport{Run: run, Against: against}
	if _, err := st.GetRun(ctx, run); err != nil {
		return rep, err
	}
	variants, err := st.Variants(ctx, run)
	if err != nil {
		return rep, err
	}
	other := map[string]bool{}
	if against != "" {
		if _, err := st.GetRun(ctx, against); err != nil {
			return rep, err
		}
		vs, err := st.Variants(ctx, against)
		if err != nil {
			return rep, err
		}
		for _, v := range vs {
			other[v.Name] = true
		}
	}
	// The default variant first, then the grid by tau and delta.
	sort.SliceStable(variants, func(i, j int) bool {
		a, b := variants[i], variants[j]
		if (a.Name == kgeval.DefaultVariant) != (b.Name == kgeval.DefaultVariant) {
			return a.Name == kgeval.DefaultVariant
		}
		if a.Tau != b.Tau {
			return a.Tau < b.Tau
		}
		return a.Delta < b.Delta
	})
	var skipped []string
	for _, vr := range variants {
		if against != "" && !other[vr.Name] {
			skipped = append(skipped, vr.Name)
			continue
		}
		rows, err := LoadRows(ctx, st, run, vr.Name, false)
		if err != nil {
			return rep, err
		}
		v := MetricVectors(rows)
		if rep.Metrics == nil {
			names, err := v.Select(patterns)
			if err != nil {
				return rep, err
			}
			rep.Metrics = names
		}
		var a, b *Group
		switch {
		case against != "":
			orows, err := LoadRows(ctx, st, against, vr.Name, false)
			if err != nil {
				return rep, err
			}
			rep.A, rep.B = run, against
			a, b = &Group{Name: run, V: v}, &Group{Name: against, V: MetricVectors(orows)}
		default:
			idx := map[string][]int{}
			for i, r := range rows {
				idx[r.System] = append(idx[r.System], i)
			}
			if rep.A == "" {
				if len(systems) == 2 {
					for _, s := range systems {
						if idx[s] == nil {
							return rep, kgeval.Errorf(kgeval.EINVALID, "--systems: run %q has no system %q (it has: %s)", run, s, strings.Join(sortedKeys(idx), ", "))
						}
					}
					rep.A, rep.B = systems[0], systems[1]
				} else if names := sortedKeys(idx); len(names) >= 2 {
					rep.A, rep.B = names[0], names[1]
					if len(names) > 2 {
						rep.Note = fmt.Sprintf("the run has %d systems (%s); separating the first two, choose others with --systems", len(names), strings.Join(names, ", "))
					}
				} else {
					rep.Note = "the run has one system: means only (separate two runs with --against)"
				}
			}
			if rep.A != "" {
				a, b = &Group{Name: rep.A, V: v.Subset(idx[rep.A])}, &Group{Name: rep.B, V: v.Subset(idx[rep.B])}
			}
		}
		rep.Points = append(rep.Points, SweepPoint(vr.Name, vr.Tau, vr.Delta, v, a, b, rep.Metrics))
	}
	if len(skipped) > 0 {
		rep.Note = strings.TrimSpace(rep.Note + fmt.Sprintf(" variants not stored for %s, left out: %s", against, strings.Join(skipped, ", ")))
	}
	if len(rep.Points) <= 1 {
		rep.Note = strings.TrimSpace(rep.Note + fmt.Sprintf(" run %q has no sweep variant: run `kgeval sweep --run %s --tau ... --delta ...` first", run, run))
	}
	return rep, nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// StoredRun is a run's record with its rows (without explanations).
type StoredRun struct {
	Record kgeval.Run
	Rows   []Row
}

// LoadRuns reads the records and rows of one variant of the named runs, in
// order. Errors: those of LoadRows.
func LoadRuns(ctx context.Context, st ScoreSource, variant string, names ...string) ([]StoredRun, error) {
	out := make([]StoredRun, len(names))
	for i, name := range names {
		var err error
		if out[i].Record, err = st.GetRun(ctx, name); err != nil {
			return nil, err
		}
		if out[i].Rows, err = LoadRows(ctx, st, name, variant, false); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// CheckBaseline checks the run and the baseline of a comparison of two
// runs, before either is read. Errors: EINVALID of an option problem
// (kgeval.KindNoRun, kgeval.KindSameRun).
func CheckBaseline(run, baseline string) error {
	switch {
	case run == "":
		return kgeval.OptionErrorf(kgeval.KindNoRun, "the run is required")
	case baseline == run:
		return kgeval.OptionErrorf(kgeval.KindSameRun, "the baseline %s is the run itself: compare two different runs", baseline)
	}
	return nil
}

// LoadRunComparison compares a run with a baseline run, sample by sample,
// on the metrics patterns select in either (CompareRuns; `kgeval compare
// --baseline`). Errors: EINVALID from CheckBaseline, for an unknown pattern
// or when CompareRuns refuses; those of LoadRows.
func LoadRunComparison(ctx context.Context, st ScoreSource, run, baseline, variant string, patterns []string) (RunComparison, error) {
	if err := CheckBaseline(run, baseline); err != nil {
		return RunComparison{}, err
	}
	runs, err := LoadRuns(ctx, st, variant, baseline, run)
	if err != nil {
		return RunComparison{}, err
	}
	base, cur := runs[0], runs[1]
	names, err := MetricVectors(base.Rows).Merge(MetricVectors(cur.Rows)).Select(patterns)
	if err != nil {
		return RunComparison{}, err
	}
	return CompareRuns(base.Rows, cur.Rows, RunCompareOptions{Baseline: base.Record, Run: cur.Record, Metrics: names})
}

// ExtractionMethod returns the extraction.method recorded in a run's
// configuration (llm, rules or both), "llm" when it records none (runs made
// before the setting existed).
func ExtractionMethod(r kgeval.Run) string {
	var c struct{ Extraction struct{ Method string } }
	if json.Unmarshal([]byte(r.Config), &c) == nil && c.Extraction.Method != "" {
		return c.Extraction.Method
	}
	return "llm"
}

// LoadRunScores returns the score rows of a run's variant with the pairs
// it was scored with: its recorded settings' pairs, else pairs (today's
// configuration), for the columns of an export.
func LoadRunScores(ctx context.Context, st ScoreSource, run, variant string, pairs []kgeval.Pair) ([]readmodel.SampleScores, []kgeval.Pair, error) {
	rec, err := st.GetRun(ctx, run)
	if err != nil {
		return nil, nil, err
	}
	if rec.Settings != nil && len(rec.Settings.Pairs) > 0 {
		pairs = rec.Settings.Pairs
	}
	rows, err := st.RunScores(ctx, run, variant)
	if err != nil {
		return nil, nil, err
	}
	return rows, pairs, nil
}
