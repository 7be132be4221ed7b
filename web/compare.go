package web

import (
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval/metricreg"
)

func (s *Server) compare(c *gin.Context) (any, error) {
	v, err := s.read.Compare(c.Request.Context(), c.Query("a"), c.Query("b"), c.Query("pair"), c.DefaultQuery("metric", metricreg.MetricMultihop))
	if err != nil {
		return nil, err
	}
	return s.shownCompare(c, v), nil
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
