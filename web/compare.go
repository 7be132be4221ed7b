package web

import (
	"context"
	"math"
	"sort"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
)

// CompareMetric is one pair and metric's mean in two runs.
type CompareMetric struct {
	Pair   string   `json:"pair"`
	Metric string   `json:"metric"`
	A      *float64 `json:"a"`
	B      *float64 `json:"b"`
	NA     int      `json:"n_a"`
	NB     int      `json:"n_b"`
	Diff   *float64 `json:"diff"` // B - A
}

// CompareSample is one sample present in both runs whose score changed.
type CompareSample struct {
	ID   string   `json:"id"`
	A    *float64 `json:"a"`
	B    *float64 `json:"b"`
	Diff *float64 `json:"diff"`
}

// CompareView sets two runs side by side: means per pair and metric, and
// the samples (matched by id) whose chosen score moved most.
type CompareView struct {
	A       RunRow          `json:"a"`
	B       RunRow          `json:"b"`
	Metrics []CompareMetric `json:"metrics"`
	Pair    string          `json:"pair"`
	Metric  string          `json:"metric"`
	Common  int             `json:"common"`
	Samples []CompareSample `json:"samples"`
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
	v := &CompareView{A: runRow(ra), B: runRow(rb), Pair: pair, Metric: metric, Metrics: []CompareMetric{}, Samples: []CompareSample{}}
	pick := func(r kgeval.KGResult, m string) *float64 { return r.Value(m) }
	mean := func(rows []kgeval.SampleScores, p, m string) (*float64, int) {
		sum, n := 0.0, 0
		for _, r := range rows {
			if x := pick(r.Scores[p], m); x != nil {
				sum += *x
				n++
			}
		}
		if n == 0 {
			return nil, 0
		}
		return kgeval.Float(sum / float64(n)), n
	}
	for _, p := range sa.Pairs {
		for _, m := range sa.Metrics {
			cm := CompareMetric{Pair: p.Name, Metric: m}
			cm.A, cm.NA = mean(xa, p.Name, m)
			cm.B, cm.NB = mean(xb, p.Name, m)
			if cm.A != nil && cm.B != nil {
				cm.Diff = kgeval.Float(*cm.B - *cm.A)
			}
			if cm.NA+cm.NB == 0 && !kgeval.GraphMetric(m) {
				continue // a verdict score that does not apply to this pair
			}
			v.Metrics = append(v.Metrics, cm)
		}
	}
	byID := map[string]kgeval.SampleScores{}
	for _, r := range xa {
		byID[r.ID] = r
	}
	for _, r := range xb {
		ra, ok := byID[r.ID]
		if !ok {
			continue
		}
		v.Common++
		cs := CompareSample{ID: r.ID, A: pick(ra.Scores[pair], metric), B: pick(r.Scores[pair], metric)}
		if cs.A != nil && cs.B != nil {
			cs.Diff = kgeval.Float(*cs.B - *cs.A)
		}
		v.Samples = append(v.Samples, cs)
	}
	size := func(d *float64) float64 {
		if d == nil {
			return -1
		}
		return math.Abs(*d)
	}
	sort.SliceStable(v.Samples, func(i, j int) bool { return size(v.Samples[i].Diff) > size(v.Samples[j].Diff) })
	if len(v.Samples) > 100 {
		v.Samples = v.Samples[:100]
	}
	return v, nil
}
