package web

import (
	"errors"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
)

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
	var unknown *analysis.UnknownVariablesError
	if !errors.As(err, &unknown) {
		return names, err
	}
	return nil, kgeval.Errorf(kgeval.EINVALID, "select=%s: no variable of this run matches %s; give variable names, pair names, KG metric names, families (kg, ts, llm, ragas, baseline) or ts base names, comma-separated (this run has: %s)",
		strconv.Quote(strings.Join(patterns, ",")), strings.Join(quoted(unknown.Unknown), ", "), strings.Join(unknown.Names, ", "))
}

func quoted(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strconv.Quote(x)
	}
	return out
}

// variablesQuery parses the run, variant and select= of a correlation or
// systems request.
func variablesQuery(c *gin.Context) analysis.VariablesQuery {
	return analysis.VariablesQuery{Run: c.Param("run"), Variant: variantOf(c), Patterns: patternsOf(c.Query("select")), Select: selectVars}
}

// correlations serves GET /api/runs/:run/correlations
// (analysis.CorrelationView).
func (s *Server) correlations(c *gin.Context) (any, error) {
	return s.read.Correlations(c.Request.Context(), variablesQuery(c))
}

// systems serves GET /api/runs/:run/systems (analysis.SystemsView).
func (s *Server) systems(c *gin.Context) (any, error) {
	return s.read.Systems(c.Request.Context(), variablesQuery(c))
}

// binsOf parses the bins parameter. Errors: EINVALID.
func binsOf(c *gin.Context) (int, error) {
	v := c.Query("bins")
	if v == "" {
		return analysis.DefaultBins, nil
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
	return s.read.Sensitivity(c.Request.Context(), c.Param("run"), bins)
}
