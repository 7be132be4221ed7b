package web

import (
	"context"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
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

// analysisRows turns exported rows into the rows package analysis reads.
func analysisRows(xs []graphstore.SampleScores) []analysis.Row {
	rows := make([]analysis.Row, len(xs))
	for i, x := range xs {
		rows[i] = analysis.Row{ID: x.ID, System: x.System, Question: x.Question, Human: x.Human, Scores: x.Scores, Metrics: x.Metrics}
	}
	return rows
}

// correlate correlates the variables of rows that patterns select (all
// when none) and every human label. Errors: EINVALID for a pattern that
// selects nothing.
func correlate(rows []analysis.Row, patterns []string) (*CorrelationView, error) {
	v := analysis.MetricVectors(rows)
	names, err := v.Select(patterns)
	if err != nil {
		return nil, err
	}
	view := &CorrelationView{Samples: len(rows), Empty: []string{}}
	if hv, err := analysis.HumanVectors(rows); err != nil {
		view.HumanError = err.Error()
	} else {
		v.Merge(hv)
		names = append(names, hv.Names()...)
	}
	present, empty := v.Present(names)
	view.Empty = append(view.Empty, empty...)
	view.Matrix = analysis.Correlate(v, present)
	return view, nil
}

func (s *Server) correlationsOf(ctx context.Context, r kgeval.Run, variant, sel string) (*CorrelationView, error) {
	var patterns []string
	for _, p := range strings.Split(sel, ",") {
		if p = strings.TrimSpace(p); p != "" {
			patterns = append(patterns, p)
		}
	}
	key, ok := s.cache.key(r, "correlations", variant, strings.Join(patterns, ","))
	return cached(s.cache, key, ok, func() (*CorrelationView, error) {
		xs, err := s.store.RunScores(ctx, r.Name, variant)
		if err != nil {
			return nil, err
		}
		v, err := correlate(analysisRows(xs), patterns)
		if err != nil {
			return nil, err
		}
		v.Run, v.Variant = r.Name, variant
		return v, nil
	})
}

func (s *Server) correlations(c *gin.Context) (any, error) {
	ctx := c.Request.Context()
	r, _, err := s.run(ctx, c.Param("run"))
	if err != nil {
		return nil, err
	}
	return s.correlationsOf(ctx, r, variantOf(c), c.Query("select"))
}
