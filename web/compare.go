package web

import (
	"context"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
)

// CompareView sets two runs side by side (analysis.SideBySide): means per
// pair and metric, and the samples (matched by id) whose chosen score moved
// most; and, for two different runs, the comparison `kgeval compare
// --baseline` prints (analysis.CompareRuns, A the baseline) of the pair's
// metrics, with its warnings.
type CompareView struct {
	A       RunRow                  `json:"a"`
	B       RunRow                  `json:"b"`
	Metrics []analysis.SideMetric   `json:"metrics"`
	Pair    string                  `json:"pair"`
	Metric  string                  `json:"metric"`
	Common  int                     `json:"common"`
	Samples []analysis.SideSample   `json:"samples"`
	Paired  *analysis.RunComparison `json:"paired,omitempty"`
}

func (s *Server) compare(c *gin.Context) (any, error) {
	return s.compareView(c.Request.Context(), c.Query("a"), c.Query("b"), c.Query("pair"), c.DefaultQuery("metric", kgeval.MetricMultihop))
}

func (s *Server) compareView(ctx context.Context, a, b, pair, metric string) (*CompareView, error) {
	if a == "" || b == "" {
		return nil, kgeval.Errorf(kgeval.EINVALID, "compare needs two runs: ?a=RUN&b=RUN")
	}
	ra, sa, err := s.run(ctx, a)
	if err != nil {
		return nil, err
	}
	rb, _, err := s.run(ctx, b)
	if err != nil {
		return nil, err
	}
	xa, err := s.store.RunScores(ctx, a, kgeval.DefaultVariant)
	if err != nil {
		return nil, err
	}
	xb, err := s.store.RunScores(ctx, b, kgeval.DefaultVariant)
	if err != nil {
		return nil, err
	}
	if pair == "" && len(sa.Pairs) > 0 {
		pair = sa.Pairs[0].Name
	}
	v := &CompareView{A: runRow(ra), B: runRow(rb), Pair: pair, Metric: metric}
	v.Metrics, v.Common, v.Samples = analysis.SideBySide(xa, xb, sa.Pairs, sa.Metrics, pair, metric)
	if a != b {
		var names []string
		for _, m := range sa.Metrics {
			names = append(names, analysis.KGName(pair, m))
		}
		all := analysis.MetricVectors(analysis.Rows(xa, nil)).Merge(analysis.MetricVectors(analysis.Rows(xb, nil)))
		if present, _ := all.Present(names); len(present) > 0 {
			if rc, err := analysis.CompareRuns(analysis.Rows(xa, nil), analysis.Rows(xb, nil), analysis.RunCompareOptions{Baseline: ra, Run: rb, Metrics: present}); err == nil {
				v.Paired = &rc
			}
		}
	}
	return v, nil
}
