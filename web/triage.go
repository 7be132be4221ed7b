package web

import (
	"context"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
)

// DefaultMinN is the fewest samples under which the dashboard hides
// p-values and correlations (web.min_n).
const DefaultMinN = 10

// TriagePageRows is the rows per pair the run page first asks for
// (web/assets/triage.js).
const TriagePageRows = 5

// triageQuery parses the triage's query string. Errors: EINVALID.
func triageQuery(c *gin.Context) (analysis.TriageQuery, error) {
	q := analysis.TriageQuery{Pair: c.Query("pair"), Metric: c.Query("metric"), Sort: c.Query("sort")}
	num := func(key string) (*float64, error) {
		v := c.Query(key)
		if v == "" {
			return nil, nil
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f != f {
			return nil, kgeval.Errorf(kgeval.EINVALID, "%s=%q: not a number", key, v)
		}
		return &f, nil
	}
	var err error
	if q.Min, err = num("min"); err != nil {
		return q, err
	}
	if q.Max, err = num("max"); err != nil {
		return q, err
	}
	if v := c.Query("limit"); v != "" {
		if q.Limit, err = strconv.Atoi(v); err != nil {
			return q, kgeval.Errorf(kgeval.EINVALID, "limit=%q: not an integer", v)
		}
	}
	switch c.Query("order") {
	case "", "asc":
	case "desc":
		q.Desc = true
	default:
		return q, kgeval.Errorf(kgeval.EINVALID, "order=%q: want asc or desc", c.Query("order"))
	}
	if v, ok := c.GetQuery("reason"); ok && v != "" {
		q.Reason = &v
	}
	if v, ok := c.GetQuery("system"); ok {
		q.System = &v
	}
	return q, nil
}

func triageKey(q analysis.TriageQuery) string {
	str := func(p *string) string {
		if p == nil {
			return "-"
		}
		return strconv.Quote(*p)
	}
	num := func(p *float64) string {
		if p == nil {
			return "-"
		}
		return strconv.FormatFloat(*p, 'g', -1, 64)
	}
	return strings.Join([]string{strconv.Quote(q.Pair), str(q.System), strconv.Quote(q.Metric), num(q.Min), num(q.Max), str(q.Reason),
		strconv.Quote(q.Sort), strconv.FormatBool(q.Desc), strconv.Itoa(q.Limit)}, " ")
}

// triage serves GET /api/runs/:run/triage: per pair the samples that need
// attention (analysis.Triage), with the why of the first failing ones.
func (s *Server) triage(c *gin.Context) (any, error) {
	q, err := triageQuery(c)
	if err != nil {
		return nil, err
	}
	ctx := c.Request.Context()
	r, st, err := s.run(ctx, c.Param("run"))
	if err != nil {
		return nil, err
	}
	return s.triageOf(ctx, r, st, variantOf(c), q)
}

func (s *Server) triageOf(ctx context.Context, r kgeval.Run, st analysis.Display, variant string, q analysis.TriageQuery) (*analysis.Triage, error) {
	ixKey, ok := s.cache.key(r, "triage-index", variant)
	ix, err := cached(s.cache, ixKey, ok, func() (*analysis.TriageIndex, error) {
		rows, err := s.store.RunKGScores(ctx, r.Name, variant)
		if err != nil {
			return nil, err
		}
		return analysis.BuildTriageIndex(rows, st.Pairs, s.cfg.Thresholds), nil
	})
	if err != nil {
		return nil, err
	}
	key, _ := s.cache.key(r, "triage", variant, triageKey(q))
	return cached(s.cache, key, ok, func() (*analysis.Triage, error) {
		t, err := ix.Query(q)
		if err != nil {
			return nil, err
		}
		t.Tau, t.Delta = st.Tau, st.Delta
		details := map[string]*kgeval.SampleDetail{}
		for _, id := range t.WhyTargets() {
			d, err := s.store.GetSample(ctx, r.Name, id, variant, st.Pairs)
			if err != nil {
				return nil, err
			}
			details[id] = d
		}
		t.AttachWhy(details)
		return t, nil
	})
}
