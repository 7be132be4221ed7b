package web

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/export"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/kgeval/kgeval/render"
)

func (s *Server) me(c *gin.Context) (any, error) {
	return gin.H{"user": c.GetString(keyUser), "via": c.GetString(keyVia), "admin": s.auth.isAdmin(c), "csrf_token": s.auth.csrfToken(c)}, nil
}

func (s *Server) listRuns(c *gin.Context) (any, error) {
	runs, err := s.read.Runs(c.Request.Context())
	if err != nil {
		return nil, err
	}
	return gin.H{"runs": s.shownRuns(c, runs)}, nil
}

func variantOf(c *gin.Context) string {
	if v := c.Query("variant"); v != "" {
		return v
	}
	return kgeval.DefaultVariant
}

func (s *Server) getRun(c *gin.Context) (any, error) {
	v, err := s.read.View(c.Request.Context(), c.Param("run"), variantOf(c))
	if err != nil {
		return nil, err
	}
	return s.shownView(c, v), nil
}

func (s *Server) runStats(c *gin.Context) (any, error) {
	return s.read.Stats(c.Request.Context(), c.Param("run"), variantOf(c))
}

// sampleQuery parses the sample list's query string. Errors: EINVALID.
func sampleQuery(c *gin.Context) (readmodel.SampleQuery, error) {
	q := readmodel.SampleQuery{Run: c.Param("run"), Variant: variantOf(c), Pair: c.Query("pair"), Metric: c.Query("metric"), Sort: c.Query("sort")}
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
	integer := func(key string) (int, error) {
		v := c.Query(key)
		if v == "" {
			return 0, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, kgeval.Errorf(kgeval.EINVALID, "%s=%q: not an integer", key, v)
		}
		return n, nil
	}
	var err error
	if q.Min, err = num("min"); err != nil {
		return q, err
	}
	if q.Max, err = num("max"); err != nil {
		return q, err
	}
	if q.Offset, err = integer("offset"); err != nil {
		return q, err
	}
	if q.Limit, err = integer("limit"); err != nil {
		return q, err
	}
	switch c.Query("order") {
	case "", "asc":
	case "desc":
		q.Desc = true
	default:
		return q, kgeval.Errorf(kgeval.EINVALID, "order=%q: want asc or desc", c.Query("order"))
	}
	switch c.Query("null") {
	case "":
	case "true":
		q.Null = ptr(true)
	case "false":
		q.Null = ptr(false)
	default:
		return q, kgeval.Errorf(kgeval.EINVALID, "null=%q: want true or false", c.Query("null"))
	}
	if v, ok := c.GetQuery("reason"); ok {
		q.Reason = &v
	}
	if v, ok := c.GetQuery("system"); ok {
		q.System = &v
	}
	return q, nil
}

func (s *Server) listSamples(c *gin.Context) (any, error) {
	q, err := sampleQuery(c)
	if err != nil {
		return nil, err
	}
	return s.read.Samples(c.Request.Context(), q)
}

func (s *Server) runSweep(c *gin.Context) (any, error) {
	return s.read.Sweep(c.Request.Context(), c.Param("run"))
}

func (s *Server) getSample(c *gin.Context) (any, error) {
	return s.sampleOf(c)
}

// sampleOf reads the sample named in the path with its why.
func (s *Server) sampleOf(c *gin.Context) (*analysis.SampleView, error) {
	return s.read.Sample(c.Request.Context(), c.Param("run"), c.Param("id"), variantOf(c))
}

// explainText writes what `kgeval explain` prints for a sample, as text
// (the Python client's Result.explain).
func (s *Server) explainText(c *gin.Context) {
	v, err := s.sampleOf(c)
	if err != nil {
		s.writeError(c, err)
		return
	}
	var b strings.Builder
	render.Explain(&b, c.Param("run"), v.SampleDetail, nil)
	c.Data(http.StatusOK, "text/plain; charset=utf-8", []byte(b.String()))
}

func (s *Server) getGraph(c *gin.Context) (any, error) {
	return s.read.Graph(c.Request.Context(), c.Param("run"), c.Param("id"), c.Param("pair"))
}

// export streams a run's scores as CSV or JSONL, one row per sample.
func (s *Server) export(c *gin.Context) {
	format := c.DefaultQuery("format", "jsonl")
	if format != "csv" && format != "jsonl" && format != "claims" {
		s.writeError(c, kgeval.Errorf(kgeval.EINVALID, "format=%q: want csv, jsonl or claims", format))
		return
	}
	read := s.read.Export
	if format == "claims" {
		read = s.read.Claims
	}
	x, err := read(c.Request.Context(), c.Param("run"), variantOf(c))
	if err != nil {
		s.writeError(c, err)
		return
	}
	file := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || strings.ContainsRune(`"\/;`, r) {
			return '_'
		}
		return r
	}, x.Run) + map[string]string{"csv": ".csv", "jsonl": ".jsonl", "claims": "-claims.jsonl"}[format]
	c.Header("Content-Disposition", `attachment; filename="`+file+`"`)
	if format == "csv" {
		c.Header("Content-Type", "text/csv; charset=utf-8")
		c.Status(http.StatusOK)
		// The response is under way: a write error is a client gone.
		_ = export.WriteCSV(c.Writer, x.Rows, x.Pairs, export.CSVOptions{GuardFormulas: true})
		return
	}
	c.Header("Content-Type", "application/x-ndjson")
	c.Status(http.StatusOK)
	if format == "claims" {
		_ = export.WriteClaimsJSONL(c.Writer, x.Rows, x.Pairs)
		return
	}
	// headline=1: each pair's headline and pass, as `kgeval export --headline`
	// with the triage's thresholds.
	_ = export.WriteJSONLWith(c.Writer, x.Rows, export.JSONLOptions{Headline: c.Query("headline") == "1", Pairs: x.Pairs, Thresholds: s.cfg.Thresholds})
}

// ConsoleRequest is the body of POST /api/cypher.
type ConsoleRequest struct {
	Query string `json:"query"`
}

// cypher runs a console query. The console bounds it (what may appear,
// size, work, time, rows, bytes) and says why it refused or stopped one: a refusal and
// a timeout (kgeval.KindRefused, KindTimeout) are the user's to fix (400),
// too many console queries at once is 429, a Neo4j that does not answer 503.
func (s *Server) cypher(c *gin.Context) (any, error) {
	var req ConsoleRequest
	if err := c.ShouldBindJSON(&req); err != nil {
		return nil, bodyError(err, "want a JSON body {\"query\": \"...\"}")
	}
	if s.cfg.Cypher == nil {
		return nil, kgeval.Errorf(kgeval.EUNAVAILABLE, "this server has no Cypher console")
	}
	lim := s.cfg.Console
	lim.Owner = caller(c) // one user may hold half of the console's slots
	res, err := s.cfg.Cypher.RunConsole(c.Request.Context(), req.Query, lim)
	switch kind := kgeval.ErrorKind(err); {
	case err == nil:
		s.metrics.console.WithLabelValues("ok").Inc()
	case kind == kgeval.KindRefused:
		s.metrics.console.WithLabelValues("refused").Inc()
	case kind == kgeval.KindTimeout:
		s.metrics.console.WithLabelValues("timeout").Inc()
	default:
		s.metrics.console.WithLabelValues("error").Inc()
	}
	return res, err
}

// bodyError is the error of a request body that could not be read: too
// large (ETOOLARGE) or not what want says (EINVALID).
func bodyError(err error, want string) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return kgeval.Errorf(kgeval.ETOOLARGE, "request body over %d bytes", tooLarge.Limit)
	}
	return kgeval.Errorf(kgeval.EINVALID, "%s", want)
}

// SessionsView lists the live dashboard sessions.
type SessionsView struct {
	Sessions []SessionRow `json:"sessions"`
}

func (s *Server) listSessions(c *gin.Context) (any, error) {
	if !s.auth.isAdmin(c) {
		return nil, kgeval.Errorf(kgeval.EFORBIDDEN, "only an admin may list sessions (web.users[].admin or web.tokens[].admin)")
	}
	return SessionsView{Sessions: s.auth.sessions.list(sessionID(c))}, nil
}

// RevokeRequest is the body of POST /api/sessions/revoke: the user whose
// password sessions, or the token whose sessions, end.
type RevokeRequest struct {
	User  string `json:"user"`
	Token string `json:"token"`
}

func (s *Server) revokeSessions(c *gin.Context) (any, error) {
	if !s.auth.isAdmin(c) {
		return nil, kgeval.Errorf(kgeval.EFORBIDDEN, "only an admin may revoke sessions (web.users[].admin or web.tokens[].admin)")
	}
	var req RevokeRequest
	if err := c.ShouldBindJSON(&req); err != nil {
		return nil, bodyError(err, `want a JSON body {"user": "NAME"} or {"token": "NAME"}`)
	}
	if req.User == "" && req.Token == "" {
		return nil, kgeval.Errorf(kgeval.EINVALID, `want a JSON body {"user": "NAME"} or {"token": "NAME"}`)
	}
	n := 0
	if req.User != "" {
		n += s.auth.sessions.revoke(req.User, "user")
	}
	if req.Token != "" {
		n += s.auth.sessions.revoke(req.Token, "token")
	}
	return gin.H{"revoked": n}, nil
}

func ptr[T any](v T) *T { return &v }
