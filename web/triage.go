package web

import (
	"strconv"

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

// triage serves GET /api/runs/:run/triage: per pair the samples that need
// attention (analysis.Triage), with the why of the first failing ones.
func (s *Server) triage(c *gin.Context) (any, error) {
	q, err := triageQuery(c)
	if err != nil {
		return nil, err
	}
	return s.read.Triage(c.Request.Context(), c.Param("run"), variantOf(c), q)
}
