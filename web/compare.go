package web

import (
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
)

func (s *Server) compare(c *gin.Context) (any, error) {
	return s.read.Compare(c.Request.Context(), c.Query("a"), c.Query("b"), c.Query("pair"), c.DefaultQuery("metric", kgeval.MetricMultihop))
}

// shortText is s cut to n characters with an ellipsis, and whether it was
// cut (the compare page's answers: the whole on demand).
func shortText(s string, n int) (string, bool) {
	if utf8.RuneCountInString(s) <= n {
		return s, false
	}
	return string([]rune(s)[:n]) + "…", true
}

// clipped is a text cut for display, and whether it was cut.
type clipped struct {
	Text string
	Cut  bool
}

func clipText(n int, s string) clipped {
	t, cut := shortText(s, n)
	return clipped{t, cut}
}

// comparePairs picks A and B for the compare page: the query's, or by
// default the second-newest run as A and the newest as B (runs newest
// first); with one of them given, the other is the newest run besides it.
func comparePairs(runs []analysis.RunRow, a, b string) (string, string) {
	other := func(not string) string {
		for _, r := range runs {
			if r.Name != not {
				return r.Name
			}
		}
		return ""
	}
	switch {
	case a == "" && b == "" && len(runs) >= 2:
		return runs[1].Name, runs[0].Name
	case a == "" && b != "":
		return other(b), b
	case b == "" && a != "":
		return a, other(a)
	}
	return a, b
}
