package web

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/export"
)

// RunRow is a run as the runs list shows it.
type RunRow struct {
	Name     string    `json:"name"`
	Dataset  string    `json:"dataset"`
	Status   string    `json:"status"`
	Error    string    `json:"error,omitempty"`
	Engine   string    `json:"engine"`
	Encoder  string    `json:"encoder"`
	LLM      string    `json:"llm"`
	Samples  int       `json:"samples"`
	Rejected int       `json:"rejected"`
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished,omitzero"`
}

func runRow(r kgeval.Run) RunRow {
	return RunRow{Name: r.Name, Dataset: r.Dataset, Status: r.Status, Error: r.Error, Engine: r.Engine, Encoder: r.Encoder,
		LLM: r.LLM, Samples: r.Samples, Rejected: r.Rejected, Started: r.Started, Finished: r.Finished}
}

// RunView is one run with its settings, summary and systems.
type RunView struct {
	Run      RunRow               `json:"run"`
	Settings analysis.Display     `json:"settings"`
	Summary  []kgeval.PairSummary `json:"summary"`
	Systems  []kgeval.SystemCount `json:"systems"`
	Stages   kgeval.Stages        `json:"stages,omitempty"`
	Calls    *kgeval.Calls        `json:"calls,omitempty"`
}

func (s *Server) me(c *gin.Context) (any, error) {
	return gin.H{"user": c.GetString(keyUser), "via": c.GetString(keyVia), "admin": s.auth.isAdmin(c), "csrf_token": s.auth.csrfToken(c)}, nil
}

func (s *Server) listRuns(c *gin.Context) (any, error) {
	runs, err := s.store.ListRuns(c.Request.Context())
	if err != nil {
		return nil, err
	}
	out := make([]RunRow, 0, len(runs))
	for _, r := range runs {
		out = append(out, runRow(r))
	}
	return gin.H{"runs": out}, nil
}

// run reads the run named in the path and its settings.
func (s *Server) run(ctx context.Context, name string) (kgeval.Run, analysis.Display, error) {
	r, err := s.store.GetRun(ctx, name)
	if err != nil {
		return r, analysis.Display{}, err
	}
	return r, analysis.DisplayOf(r), nil
}

func (s *Server) runView(ctx context.Context, name, variant string) (*RunView, error) {
	r, st, err := s.run(ctx, name)
	if err != nil {
		return nil, err
	}
	key, ok := s.cache.key(r, "view", variant)
	return cached(s.cache, key, ok, func() (*RunView, error) { return s.buildRunView(ctx, r, st, variant) })
}

func (s *Server) buildRunView(ctx context.Context, r kgeval.Run, st analysis.Display, variant string) (*RunView, error) {
	name := r.Name
	sum, err := s.store.RunSummary(ctx, name, variant)
	if err != nil {
		return nil, err
	}
	systems, err := s.store.RunSystems(ctx, name)
	if err != nil {
		return nil, err
	}
	if sum == nil {
		sum = []kgeval.PairSummary{}
	}
	return &RunView{Run: runRow(r), Settings: st, Summary: sum, Systems: systems, Stages: r.Stages, Calls: r.Calls}, nil
}

func variantOf(c *gin.Context) string {
	if v := c.Query("variant"); v != "" {
		return v
	}
	return kgeval.DefaultVariant
}

func (s *Server) getRun(c *gin.Context) (any, error) {
	return s.runView(c.Request.Context(), c.Param("run"), variantOf(c))
}

func (s *Server) runStats(c *gin.Context) (any, error) {
	ctx := c.Request.Context()
	r, st, err := s.run(ctx, c.Param("run"))
	if err != nil {
		return nil, err
	}
	return s.runStatsOf(ctx, r, st, variantOf(c))
}

func (s *Server) runStatsOf(ctx context.Context, r kgeval.Run, st analysis.Display, variant string) (*analysis.RunStats, error) {
	key, ok := s.cache.key(r, "stats", variant)
	return cached(s.cache, key, ok, func() (*analysis.RunStats, error) { return analysis.LoadRunStats(ctx, s.store, r.Name, variant, st) })
}

// sampleQuery parses the sample list's query string. Errors: EINVALID.
func sampleQuery(c *gin.Context) (kgeval.SampleQuery, error) {
	q := kgeval.SampleQuery{Run: c.Param("run"), Variant: variantOf(c), Pair: c.Query("pair"), Metric: c.Query("metric"), Sort: c.Query("sort")}
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
	ctx := c.Request.Context()
	r, st, err := s.run(ctx, q.Run)
	if err != nil {
		return nil, err
	}
	key, ok := s.cache.key(r, "samples", filterKey(q))
	if !ok {
		return s.store.ListSamples(ctx, q, st.Pairs)
	}
	if q.Limit == 0 {
		q.Limit = 50
	}
	if q.Limit < 0 || q.Limit > kgeval.MaxPageSize || q.Offset < 0 {
		return s.store.ListSamples(ctx, q, st.Pairs) // reports the bad page
	}
	order, err := cached(s.cache, key, ok, func() ([]kgeval.SampleRow, error) { return s.store.SampleOrder(ctx, q) })
	if err != nil {
		return nil, err
	}
	lo, hi := min(q.Offset, len(order)), min(q.Offset+q.Limit, len(order))
	page := &kgeval.SamplePage{Total: len(order), Offset: q.Offset, Limit: q.Limit, Samples: append([]kgeval.SampleRow(nil), order[lo:hi]...)}
	if err := s.store.SampleScores(ctx, r.Name, q.Variant, page.Samples, st.Pairs, kgeval.OtherMetric(q.Metric)); err != nil {
		return nil, err
	}
	return page, nil
}

// filterKey is a sample query without its page, for cache keys.
func filterKey(q kgeval.SampleQuery) string {
	null := "-"
	if q.Null != nil {
		null = strconv.FormatBool(*q.Null)
	}
	return strings.Join([]string{strconv.Quote(q.Variant), strconv.Quote(q.Pair), strconv.Quote(q.Metric), strconv.Quote(q.Sort),
		strconv.FormatBool(q.Desc), keyNum(q.Min), keyNum(q.Max), null, keyStr(q.Reason), keyStr(q.System)}, " ")
}

// keyStr and keyNum write an optional filter value into a cache key ("-"
// when unset).
func keyStr(p *string) string {
	if p == nil {
		return "-"
	}
	return strconv.Quote(*p)
}

func keyNum(p *float64) string {
	if p == nil {
		return "-"
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}

// SweepView is a run's sweep: each pair's mean KG scores at every grid
// point (tau, delta) stored by `kgeval sweep`, beside the run's own tau and
// delta. Points is empty when the run was never swept.
type SweepView struct {
	Run    string                `json:"run"`
	Tau    float64               `json:"tau"`
	Delta  float64               `json:"delta"`
	Taus   []float64             `json:"taus"`
	Deltas []float64             `json:"deltas"`
	Pairs  []string              `json:"pairs"`
	Points []kgeval.VariantMeans `json:"points"`
}

func (s *Server) runSweep(c *gin.Context) (any, error) {
	ctx := c.Request.Context()
	r, st, err := s.run(ctx, c.Param("run"))
	if err != nil {
		return nil, err
	}
	return s.sweepOf(ctx, r, st)
}

func (s *Server) sweepOf(ctx context.Context, r kgeval.Run, st analysis.Display) (*SweepView, error) {
	key, ok := s.cache.key(r, "sweep")
	return cached(s.cache, key, ok, func() (*SweepView, error) {
		pts, err := s.store.RunSweep(ctx, r.Name)
		if err != nil {
			return nil, err
		}
		v := &SweepView{Run: r.Name, Tau: st.Tau, Delta: st.Delta, Taus: []float64{}, Deltas: []float64{}, Pairs: []string{}, Points: pts}
		for _, p := range pts {
			if !slices.Contains(v.Taus, p.Tau) {
				v.Taus = append(v.Taus, p.Tau)
			}
			if !slices.Contains(v.Deltas, p.Delta) {
				v.Deltas = append(v.Deltas, p.Delta)
			}
		}
		slices.Sort(v.Taus)
		slices.Sort(v.Deltas)
		// Pairs in the run's order, then any other pair a variant holds.
		for _, p := range st.Pairs {
			for _, x := range pts {
				if x.Pair == p.Name {
					v.Pairs = append(v.Pairs, p.Name)
					break
				}
			}
		}
		for _, x := range pts {
			if !slices.Contains(v.Pairs, x.Pair) {
				v.Pairs = append(v.Pairs, x.Pair)
			}
		}
		return v, nil
	})
}

func (s *Server) getSample(c *gin.Context) (any, error) {
	return s.sampleOf(c)
}

// sampleOf reads the sample named in the path with its why.
func (s *Server) sampleOf(c *gin.Context) (*SampleView, error) {
	ctx := c.Request.Context()
	_, st, err := s.run(ctx, c.Param("run"))
	if err != nil {
		return nil, err
	}
	d, err := s.store.GetSample(ctx, c.Param("run"), c.Param("id"), variantOf(c), st.Pairs)
	if err != nil {
		return nil, err
	}
	d.Delta = st.Delta
	return sampleView(d), nil
}

// GraphNode is a pair-graph node for drawing.
type GraphNode struct {
	kgeval.Node
	Community *int `json:"community"`
}

// GraphView is a pair graph as the graph view draws it: nodes with their
// community, edges with weight and cost, and each input entity's best path
// and cost against delta.
type GraphView struct {
	Run         string              `json:"run"`
	Sample      string              `json:"sample"`
	Pair        string              `json:"pair"`
	Delta       float64             `json:"delta"`
	EmptyReason string              `json:"empty_reason,omitempty"`
	Nodes       []GraphNode         `json:"nodes"`
	Edges       []kgeval.Edge       `json:"edges"`
	Paths       []kgeval.EntityPath `json:"paths"`
}

func (s *Server) graphView(ctx context.Context, run, sample, pair string) (*GraphView, error) {
	_, st, err := s.run(ctx, run)
	if err != nil {
		return nil, err
	}
	g, err := s.store.ReadGraphExplanation(ctx, run, sample, pair)
	if err != nil {
		return nil, err
	}
	v := &GraphView{Run: run, Sample: sample, Pair: pair, Delta: st.Delta, EmptyReason: g.EmptyReason,
		Nodes: make([]GraphNode, len(g.Nodes)), Edges: g.Edges, Paths: g.EntityPaths()}
	if v.Edges == nil {
		v.Edges = []kgeval.Edge{}
	}
	for i, n := range g.Nodes {
		v.Nodes[i] = GraphNode{Node: n, Community: g.Communities[i]}
	}
	return v, nil
}

func (s *Server) getGraph(c *gin.Context) (any, error) {
	return s.graphView(c.Request.Context(), c.Param("run"), c.Param("id"), c.Param("pair"))
}

// export streams a run's scores as CSV or JSONL, one row per sample.
func (s *Server) export(c *gin.Context) {
	ctx := c.Request.Context()
	format := c.DefaultQuery("format", "jsonl")
	if format != "csv" && format != "jsonl" {
		s.writeError(c, kgeval.Errorf(kgeval.EINVALID, "format=%q: want csv or jsonl", format))
		return
	}
	r, st, err := s.run(ctx, c.Param("run"))
	if err != nil {
		s.writeError(c, err)
		return
	}
	rows, err := s.store.RunScores(ctx, r.Name, variantOf(c))
	if err != nil {
		s.writeError(c, err)
		return
	}
	file := strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || strings.ContainsRune(`"\/;`, r) {
			return '_'
		}
		return r
	}, r.Name) + "." + format
	c.Header("Content-Disposition", `attachment; filename="`+file+`"`)
	if format == "csv" {
		c.Header("Content-Type", "text/csv; charset=utf-8")
		c.Status(http.StatusOK)
		// The response is under way: a write error is a client gone.
		_ = export.WriteCSV(c.Writer, rows, st.Pairs, export.CSVOptions{GuardFormulas: true})
		return
	}
	c.Header("Content-Type", "application/x-ndjson")
	c.Status(http.StatusOK)
	_ = export.WriteJSONL(c.Writer, rows)
}

// ConsoleRequest is the body of POST /api/cypher.
type ConsoleRequest struct {
	Query string `json:"query"`
}

// cypher runs a console query. The store bounds it (length, nesting, cost,
// time, rows, bytes) and says why it refused or stopped one: "refused:"
// and "timed out:" are the user's to fix (400), too many console queries at
// once is 429, a Neo4j that does not answer 503.
func (s *Server) cypher(c *gin.Context) (any, error) {
	var req ConsoleRequest
	if err := c.ShouldBindJSON(&req); err != nil {
		return nil, bodyError(err, "want a JSON body {\"query\": \"...\"}")
	}
	res, err := s.store.RunConsole(c.Request.Context(), req.Query, s.cfg.Console)
	switch msg := kgeval.ErrorMessage(err); {
	case err == nil:
		s.metrics.console.WithLabelValues("ok").Inc()
	case strings.HasPrefix(msg, "refused"):
		s.metrics.console.WithLabelValues("refused").Inc()
	case strings.HasPrefix(msg, "timed out"):
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
