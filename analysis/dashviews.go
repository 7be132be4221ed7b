package analysis

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/readmodel"
)

// VariablesQuery names the variables of one scoring variant of a run that
// a correlation or systems view reads.
type VariablesQuery struct {
	Run     string
	Variant string
	// Patterns select the variables (all when none), as Vectors.Select
	// does; Select, when set, selects them instead (a caller wording the
	// error of a pattern that selects nothing for its own parameter).
	Patterns []string
	Select   func(v Vectors, patterns []string) ([]string, error)
}

// CorrelationView is the correlation of every pair of a run's variables
// (KG scores "<pair>.<metric>", other metrics, human labels "human.<label>")
// over their pairwise-complete samples, as `kgeval analyze correlate`
// computes it.
type CorrelationView struct {
	Run     string `json:"run"`
	Variant string `json:"variant"`
	Samples int    `json:"samples"`
	// Empty lists the selected variables without any value (left out).
	Empty []string `json:"empty"`
	// HumanError says why human labels were left out, if they were.
	HumanError string `json:"human_error,omitempty"`
	Matrix
}

// Correlations correlates the variables of a run that q selects and every
// human label that can be read (CorrelateRows with HumanIfValid; the
// pattern "human" selects nothing more), cached for a finished run.
// Errors: ENOTFOUND for an unknown run, EINVALID for a pattern that
// selects nothing.
func (rd *Reader) Correlations(ctx context.Context, q VariablesQuery) (*CorrelationView, error) {
	return variables(ctx, rd, q, "correlations", false, func(rows []Row, patterns []string) (*CorrelationView, error) {
		// Human labels are always added: "human" selects nothing more.
		patterns = slices.DeleteFunc(slices.Clone(patterns), func(p string) bool { return p == "human" })
		c, err := CorrelateRows(rows, CorrelateOptions{Patterns: patterns, Select: q.Select, Human: HumanIfValid})
		if err != nil {
			return nil, err
		}
		return &CorrelationView{Run: q.Run, Variant: q.Variant, Samples: len(rows), Empty: append([]string{}, c.Empty...), HumanError: c.HumanError, Matrix: c.Matrix}, nil
	})
}

// SystemsView compares the systems of a run (the dataset's system field)
// as `kgeval compare` does: per system and metric the mean, best and worst
// value with its sample, the factual_accuracy grade and answer_class
// distributions when those metrics were computed, and for every pair of
// systems and metric the paired (by question) or Welch tests and the win
// rate.
type SystemsView struct {
	Run     string `json:"run"`
	Variant string `json:"variant"`
	Samples int    `json:"samples"`
	// Empty lists the selected variables without any value (left out).
	Empty []string `json:"empty"`
	Comparison
}

// Systems compares the systems of a run on the variables q selects
// (CompareSystems), cached for a finished run. Errors: ENOTFOUND for an
// unknown run, EINVALID for a pattern that selects nothing.
func (rd *Reader) Systems(ctx context.Context, q VariablesQuery) (*SystemsView, error) {
	return variables(ctx, rd, q, "systems", true, func(rows []Row, patterns []string) (*SystemsView, error) {
		c, empty, err := CompareSystems(rows, patterns, q.Select)
		if err != nil {
			return nil, err
		}
		return &SystemsView{Run: q.Run, Variant: q.Variant, Samples: len(rows), Empty: append([]string{}, empty...), Comparison: c}, nil
	})
}

// variables returns what fn derives from the rows of q's run and variant,
// cached under kind and the patterns for a finished run; with explain the
// rows carry the explanations CompareSystems reads.
func variables[T any](ctx context.Context, rd *Reader, q VariablesQuery, kind string, explain bool, fn func([]Row, []string) (T, error)) (T, error) {
	var zero T
	r, _, err := rd.Run(ctx, q.Run)
	if err != nil {
		return zero, err
	}
	q.Run = r.Name
	key, ok := rd.cache.key(r, kind, q.Variant, strings.Join(q.Patterns, ","))
	return cached(rd.cache, key, ok, func() (T, error) {
		xs, err := rd.st.RunScores(ctx, r.Name, q.Variant)
		if err != nil {
			return zero, err
		}
		var expl map[string]map[string][]byte
		if explain {
			if expl, err = rd.st.MetricExplanations(ctx, r.Name, ExplainedMetrics); err != nil {
				return zero, err
			}
		}
		return fn(Rows(xs, expl), q.Patterns)
	})
}

// SensitivityRunView is one run of a sensitivity experiment.
type SensitivityRunView struct {
	Variant string `json:"variant"`
	Run     string `json:"run"`
	Samples int    `json:"samples"`
}

// SensitivityView is the result of `kgeval sensitivity --run PREFIX`, read
// back from its three runs (PREFIX, PREFIX-reference_as_answer,
// PREFIX-wrong_answer): per metric the mean, population std and histogram
// (bins bins over the metric's fixed range) of each run, and AUROC and
// Cohen's d of reference_as_answer against wrong_answer — the numbers the
// command prints.
type SensitivityView struct {
	Run     string               `json:"run"`
	Bins    int                  `json:"bins"`
	Runs    []SensitivityRunView `json:"runs"`
	Metrics []Separation         `json:"metrics"`
}

// DefaultBins is the histogram bins of a sensitivity view, as of
// `kgeval sensitivity`.
const DefaultBins = 10

// Sensitivity reads the sensitivity experiment stored under prefix
// (SensitivityView with bins histogram bins), cached when its three runs
// are finished. Errors: ENOTFOUND naming the first of the experiment's
// runs that does not exist.
func (rd *Reader) Sensitivity(ctx context.Context, prefix string, bins int) (*SensitivityView, error) {
	var runs []kgeval.Run
	for _, variant := range SensitivityVariants {
		r, _, err := rd.Run(ctx, SensitivityRun(prefix, variant))
		if err != nil {
			if kgeval.ErrorCode(err) == kgeval.ENOTFOUND {
				return nil, kgeval.Errorf(kgeval.ENOTFOUND, "no sensitivity experiment %q: run %q does not exist (`kgeval sensitivity --run %s` stores %s, %s-reference_as_answer and %s-wrong_answer)",
					prefix, SensitivityRun(prefix, variant), prefix, prefix, prefix, prefix)
			}
			return nil, err
		}
		runs = append(runs, r)
	}
	keys := make([]string, len(runs))
	ok := true
	for i, r := range runs {
		k, done := rd.cache.key(r, "sensitivity", strconv.Itoa(bins))
		keys[i], ok = k, ok && done
	}
	return cached(rd.cache, strings.Join(keys, "\x1e"), ok, func() (*SensitivityView, error) {
		v := &SensitivityView{Run: prefix, Bins: bins, Runs: []SensitivityRunView{}, Metrics: []Separation{}}
		names := map[string]string{}
		for i, variant := range SensitivityVariants {
			names[variant] = runs[i].Name
		}
		sens, err := LoadSensitivity(ctx, rd.st, names, bins)
		if err != nil {
			return nil, err
		}
		for _, variant := range SensitivityVariants {
			v.Runs = append(v.Runs, SensitivityRunView{Variant: variant, Run: names[variant], Samples: sens.Samples[variant]})
		}
		v.Metrics = append(v.Metrics, sens.Metrics...)
		return v, nil
	})
}

// ExportView is what an export of a run writes: its name, its pairs (the
// CSV's columns) and one row of scores per sample.
type ExportView struct {
	Run   string
	Pairs []kgeval.Pair
	Rows  []readmodel.SampleScores
}

// Export reads a run's scores of one scoring variant for an export. It is
// not cached: an export is read once, and its rows are the largest read
// model of a run. Errors: ENOTFOUND for an unknown run.
func (rd *Reader) Export(ctx context.Context, run, variant string) (*ExportView, error) {
	r, d, err := rd.Run(ctx, run)
	if err != nil {
		return nil, err
	}
	rows, err := rd.st.RunScores(ctx, r.Name, variant)
	if err != nil {
		return nil, err
	}
	return &ExportView{Run: r.Name, Pairs: d.Pairs, Rows: rows}, nil
}

// Claims reads a run's KG scores of one scoring variant with the claim
// checks of each pair (SPEC §4d) filled in: what a claims export writes
// (export.ClaimRows). Not cached, as Export. Errors: ENOTFOUND for an
// unknown run.
func (rd *Reader) Claims(ctx context.Context, run, variant string) (*ExportView, error) {
	r, d, err := rd.Run(ctx, run)
	if err != nil {
		return nil, err
	}
	rows, err := rd.st.RunKGScores(ctx, r.Name, variant)
	if err != nil {
		return nil, err
	}
	claims, err := rd.st.RunClaims(ctx, r.Name, variant)
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		for pair, cs := range claims[row.ID] {
			if res, ok := row.Scores[pair]; ok {
				res.Claims = cs
				row.Scores[pair] = res
			}
		}
	}
	return &ExportView{Run: r.Name, Pairs: d.Pairs, Rows: rows}, nil
}
