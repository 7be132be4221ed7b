package web

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
)

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
	analysis.Matrix
}

// patternsOf splits a select= value into its patterns.
func patternsOf(sel string) []string {
	var out []string
	for _, p := range strings.Split(sel, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// selectVars returns the variables of v that patterns pick (all when
// none), as Vectors.Select does. Errors: EINVALID naming the patterns that
// pick nothing in the words of the API's select parameter.
func selectVars(v analysis.Vectors, patterns []string) ([]string, error) {
	names, err := v.Select(patterns)
	if err == nil || kgeval.ErrorCode(err) != kgeval.EINVALID {
		return names, err
	}
	// Select words its error for the CLI's --metrics flag: find the
	// patterns that pick nothing and say it for select=.
	var unknown []string
	for _, p := range patterns {
		if _, err := v.Select([]string{p}); err != nil {
			unknown = append(unknown, p)
		}
	}
	return nil, kgeval.Errorf(kgeval.EINVALID, "select=%s: no variable of this run matches %s; give variable names, pair names, KG metric names, families (kg, ts, llm, ragas, baseline) or ts base names, comma-separated (this run has: %s)",
		strconv.Quote(strings.Join(patterns, ",")), strings.Join(quoted(unknown), ", "), strings.Join(v.Names(), ", "))
}

func quoted(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.Quote(x)
	}
	return out
}

// correlate correlates the variables of rows that patterns select (all
// when none) and every human label (analysis.CorrelateRows). Errors:
// EINVALID for a pattern that selects nothing.
func correlate(rows []analysis.Row, patterns []string) (*CorrelationView, error) {
	// Human labels are always added: "human" selects nothing more.
	patterns = slices.DeleteFunc(slices.Clone(patterns), func(p string) bool { return p == "human" })
	c, err := analysis.CorrelateRows(rows, analysis.CorrelateOptions{Patterns: patterns, Select: selectVars, Human: analysis.HumanIfValid})
	if err != nil {
		return nil, err
	}
	return &CorrelationView{Samples: len(rows), Empty: append([]string{}, c.Empty...), HumanError: c.HumanError, Matrix: c.Matrix}, nil
}

// analysed returns what fn derives from the rows of run r's scoring
// variant, cached under kind and sel for a finished run; with explain the
// rows carry the explanations analysis.Compare reads.
func analysed[T any](ctx context.Context, s *Server, r kgeval.Run, kind, variant, sel string, explain bool, fn func([]analysis.Row, []string) (T, error)) (T, error) {
	patterns := patternsOf(sel)
	return analysis.Cached(s.read, r, []string{kind, variant, strings.Join(patterns, ",")}, func() (T, error) {
		var zero T
		xs, err := s.store.RunScores(ctx, r.Name, variant)
		if err != nil {
			return zero, err
		}
		var expl map[string]map[string][]byte
		if explain {
			if expl, err = s.store.MetricExplanations(ctx, r.Name, analysis.ExplainedMetrics); err != nil {
				return zero, err
			}
		}
		return fn(analysis.Rows(xs, expl), patterns)
	})
}

// runOf reads the run named in the path. Errors: ENOTFOUND.
func (s *Server) runOf(c *gin.Context) (kgeval.Run, error) {
	r, _, err := s.read.Run(c.Request.Context(), c.Param("run"))
	return r, err
}

func (s *Server) correlations(c *gin.Context) (any, error) {
	r, err := s.runOf(c)
	if err != nil {
		return nil, err
	}
	variant := variantOf(c)
	return analysed(c.Request.Context(), s, r, "correlations", variant, c.Query("select"), false, func(rows []analysis.Row, patterns []string) (*CorrelationView, error) {
		v, err := correlate(rows, patterns)
		if err != nil {
			return nil, err
		}
		v.Run, v.Variant = r.Name, variant
		return v, nil
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
	analysis.Comparison
}

// compareSystems compares the systems of rows on the variables patterns
// select (all when none). Errors: EINVALID for a pattern that selects
// nothing.
func compareSystems(rows []analysis.Row, patterns []string) (*SystemsView, error) {
	c, empty, err := analysis.CompareSystems(rows, patterns, selectVars)
	if err != nil {
		return nil, err
	}
	return &SystemsView{Samples: len(rows), Empty: append([]string{}, empty...), Comparison: c}, nil
}

func (s *Server) systems(c *gin.Context) (any, error) {
	r, err := s.runOf(c)
	if err != nil {
		return nil, err
	}
	variant := variantOf(c)
	return analysed(c.Request.Context(), s, r, "systems", variant, c.Query("select"), true, func(rows []analysis.Row, patterns []string) (*SystemsView, error) {
		v, err := compareSystems(rows, patterns)
		if err != nil {
			return nil, err
		}
		v.Run, v.Variant = r.Name, variant
		return v, nil
	})
}

// SensitivityRun is one run of a sensitivity experiment.
type SensitivityRun struct {
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
	Run     string                `json:"run"`
	Bins    int                   `json:"bins"`
	Runs    []SensitivityRun      `json:"runs"`
	Metrics []analysis.Separation `json:"metrics"`
}

// DefaultBins is the histogram bins of the sensitivity view, as of
// `kgeval sensitivity`.
const DefaultBins = 10

func (s *Server) sensitivityOf(ctx context.Context, prefix string, bins int) (*SensitivityView, error) {
	var runs []kgeval.Run
	for _, variant := range analysis.SensitivityVariants {
		r, _, err := s.read.Run(ctx, analysis.SensitivityRun(prefix, variant))
		if err != nil {
			if kgeval.ErrorCode(err) == kgeval.ENOTFOUND {
				return nil, kgeval.Errorf(kgeval.ENOTFOUND, "no sensitivity experiment %q: run %q does not exist (`kgeval sensitivity --run %s` stores %s, %s-reference_as_answer and %s-wrong_answer)",
					prefix, analysis.SensitivityRun(prefix, variant), prefix, prefix, prefix, prefix)
			}
			return nil, err
		}
		runs = append(runs, r)
	}
	return analysis.CachedRuns(s.read, runs, []string{"sensitivity", strconv.Itoa(bins)}, func() (*SensitivityView, error) {
		v := &SensitivityView{Run: prefix, Bins: bins, Runs: []SensitivityRun{}, Metrics: []analysis.Separation{}}
		names := map[string]string{}
		for i, variant := range analysis.SensitivityVariants {
			names[variant] = runs[i].Name
		}
		sens, err := analysis.LoadSensitivity(ctx, s.store, names, bins)
		if err != nil {
			return nil, err
		}
		for _, variant := range analysis.SensitivityVariants {
			v.Runs = append(v.Runs, SensitivityRun{Variant: variant, Run: names[variant], Samples: sens.Samples[variant]})
		}
		v.Metrics = append(v.Metrics, sens.Metrics...)
		return v, nil
	})
}

// binsOf parses the bins parameter. Errors: EINVALID.
func binsOf(c *gin.Context) (int, error) {
	v := c.Query("bins")
	if v == "" {
		return DefaultBins, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 100 {
		return 0, kgeval.Errorf(kgeval.EINVALID, "bins=%q: want an integer from 1 to 100", v)
	}
	return n, nil
}

func (s *Server) sensitivity(c *gin.Context) (any, error) {
	bins, err := binsOf(c)
	if err != nil {
		return nil, err
	}
	return s.sensitivityOf(c.Request.Context(), c.Param("run"), bins)
}
