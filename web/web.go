// Package web serves kgeval's team dashboard and its JSON API over HTTP with
// Gin: runs, samples, per-sample pair graphs, score distributions, exports,
// a read-only Cypher console, /healthz and Prometheus /metrics. Sign-in is
// required by default (users with bcrypt passwords, or API tokens). Pages
// are rendered with html/template and drawn in the browser by Cytoscape.js
// and Apache ECharts, all embedded in the binary.
//
// The server depends on the domain's storage services (Services; graphstore
// implements them) and on package analysis only: a handler parses input,
// makes one call to the read service (analysis.Reader, which reads a run
// once, computes its read models and caches those of finished runs), and
// renders its page's own view model (RunsPage, RunPage, SamplePage,
// GraphPage, CypherPage, ComparePage, SensitivityPage) or JSON; it holds no
// Cypher, no statistics and no cache of its own.
package web

import (
	"context"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"math"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/jobs"
	"github.com/kgeval/kgeval/readmodel"
)

// Health reports on the services kgeval depends on.
type Health interface {
	// Check returns the versions of what answered. Errors: EUNAVAILABLE.
	Check(ctx context.Context) (map[string]string, error)
}

// Config configures the server.
type Config struct {
	Version string
	Auth    AuthConfig
	// Console bounds Cypher console queries (defaults: 10s, 1000 rows,
	// 2 MiB).
	Console readmodel.ConsoleLimits
	// Cypher runs the console's queries (package graphstore/console);
	// nil: POST /api/cypher answers EUNAVAILABLE.
	Cypher readmodel.Console
	// TrustedProxies are the addresses or CIDRs of reverse proxies whose
	// X-Forwarded-For names the client (for the sign-in rate limits) and
	// whose X-Forwarded-Proto says https (for the session cookie); by
	// default none: the client is the connection's peer, and only the
	// connection's own TLS is https.
	TrustedProxies []string
	// Thresholds are the pass marks of KG metrics on the triage (the
	// defaults of analysis.DefaultThresholds for the metrics not named).
	Thresholds map[string]float64
	// MinN is the fewest samples under which p-values and correlations
	// are hidden (default 10).
	MinN int
	// Jobs starts and watches evaluations (the jobs page); nil: none.
	Jobs jobs.Service
	// UploadMaxBytes caps an uploaded dataset (web.upload_max_bytes;
	// default 32 MiB).
	UploadMaxBytes int64
	// Logger receives internal errors and Neo4j's comings and goings
	// (default: slog.Default()).
	Logger *slog.Logger
	// HealthEvery is how often ListenAndServe checks that Neo4j answers,
	// logging when it stops and when it is back (default 15 s).
	HealthEvery time.Duration
}

// Server is kgeval's HTTP server.
type Server struct {
	cfg     Config
	health  Health
	store   readmodel.Services
	engine  *gin.Engine
	auth    *auth
	metrics *metrics
	pages   map[string]*template.Template
	log     *slog.Logger
	read    *analysis.Reader
	watch   *healthWatch
}

//go:embed templates assets openapi.json
var files embed.FS

// NewServer returns a server with its routes. store may be nil for a server
// that only answers /healthz and /metrics.
func NewServer(cfg Config, h Health, store readmodel.Services) (*Server, error) {
	gin.SetMode(gin.ReleaseMode)
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	a, err := newAuth(cfg.Auth, cfg.TrustedProxies)
	if err != nil {
		return nil, err
	}
	if cfg.Console.Timeout <= 0 {
		cfg.Console.Timeout = 10 * time.Second
	}
	if cfg.Console.MaxRows <= 0 {
		cfg.Console.MaxRows = 1000
	}
	if cfg.Console.MaxBytes <= 0 {
		cfg.Console.MaxBytes = 2 << 20
	}
	if cfg.MinN <= 0 {
		cfg.MinN = DefaultMinN
	}
	if cfg.HealthEvery <= 0 {
		cfg.HealthEvery = 15 * time.Second
	}
	s := &Server{cfg: cfg, health: h, store: store, engine: gin.New(), auth: a, metrics: newMetrics(), log: cfg.Logger,
		read:  analysis.NewReader(store, analysis.ReaderOptions{Thresholds: cfg.Thresholds}),
		watch: &healthWatch{log: cfg.Logger}}
	if s.pages, err = parsePages(); err != nil {
		return nil, err
	}
	e := s.engine
	e.UseRawPath = true // sample ids may hold '/', sent as %2F
	e.UnescapePathValues = true
	e.HandleMethodNotAllowed = false
	if err := e.SetTrustedProxies(cfg.TrustedProxies); err != nil {
		return nil, kgeval.Wrap(kgeval.EINVALID, err, "trusted proxies %v", cfg.TrustedProxies)
	}
	e.Use(gin.Recovery(), s.metrics.middleware(), securityHeaders, s.limitBody, s.auth.identify)

	e.GET("/healthz", s.healthz)
	e.GET("/api/openapi.json", s.openapi)
	assets, _ := fs.Sub(files, "assets")
	e.StaticFS("/assets", noDirs{http.FS(assets)})
	e.GET("/login", s.loginPage)
	e.POST("/login", s.auth.csrf, s.login)

	private := e.Group("/", s.auth.require, s.auth.csrf)
	private.GET("/metrics", s.metrics.handler())
	private.POST("/logout", s.logout)

	api := private.Group("/api")
	api.GET("/me", s.api(s.me))
	api.GET("/runs", s.api(s.listRuns))
	api.GET("/runs/:run", s.api(s.getRun))
	api.GET("/runs/:run/stats", s.api(s.runStats))
	api.GET("/runs/:run/sweep", s.api(s.runSweep))
	api.GET("/runs/:run/correlations", s.api(s.correlations))
	api.GET("/runs/:run/systems", s.api(s.systems))
	api.GET("/runs/:run/sensitivity", s.api(s.sensitivity))
	api.GET("/runs/:run/samples", s.api(s.listSamples))
	api.GET("/runs/:run/triage", s.api(s.triage))
	api.GET("/runs/:run/samples/:id", s.api(s.getSample))
	api.GET("/runs/:run/samples/:id/explain", s.explainText)
	api.GET("/runs/:run/samples/:id/graphs/:pair", s.api(s.getGraph))
	api.GET("/runs/:run/export", s.export)
	api.GET("/compare", s.api(s.compare))
	api.POST("/cypher", s.api(s.cypher))
	api.POST("/uploads", s.api(s.upload))
	api.GET("/jobs", s.api(s.listJobs))
	api.POST("/jobs", s.api(s.startJob))
	api.GET("/jobs/:run", s.api(s.getJob))
	api.POST("/jobs/:run/cancel", s.api(s.cancelJob))
	api.POST("/jobs/:run/resume", s.api(s.resumeJob))
	api.DELETE("/runs/:run", s.api(s.deleteRun))
	api.GET("/sessions", s.api(s.listSessions))
	api.POST("/sessions/revoke", s.api(s.revokeSessions))

	private.GET("/", s.page("runs", s.runsPage))
	private.GET("/runs/:run", s.page("run", s.runPage))
	private.GET("/runs/:run/sensitivity", s.page("sensitivity", s.sensitivityPage))
	private.GET("/runs/:run/samples/:id", s.page("sample", s.samplePage))
	private.GET("/runs/:run/samples/:id/graphs/:pair", s.page("graph", s.graphPage))
	private.GET("/cypher", s.page("cypher", s.cypherPage))
	private.GET("/help/metrics", s.page("metrics-help", s.metricsHelpPage))
	private.GET("/compare", s.page("compare", s.comparePage))
	private.GET("/jobs", s.page("jobs", s.jobsPage))
	e.NoRoute(s.notFound)
	return s, nil
}

// Handler returns the server's http.Handler.
func (s *Server) Handler() http.Handler { return s.engine }

// statusOf maps application error codes to HTTP status codes.
var statusOf = map[string]int{
	kgeval.EINVALID:      http.StatusBadRequest,
	kgeval.ENOTFOUND:     http.StatusNotFound,
	kgeval.ECONFLICT:     http.StatusConflict,
	kgeval.EUNAUTHORIZED: http.StatusUnauthorized,
	kgeval.EFORBIDDEN:    http.StatusForbidden,
	kgeval.ETOOLARGE:     http.StatusRequestEntityTooLarge,
	kgeval.ETOOMANY:      http.StatusTooManyRequests,
	kgeval.EUNAVAILABLE:  http.StatusServiceUnavailable,
	kgeval.EINTERNAL:     http.StatusInternalServerError,
}

// apiError is the body of every API error.
type apiError struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

// api wraps a handler that returns (data, error): data is written as JSON,
// an error as {"error", "code"} with the status of its code. Internal
// details are logged, never shown.
func (s *Server) api(fn func(c *gin.Context) (any, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		data, err := fn(c)
		if err != nil {
			s.writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, data)
	}
}

func (s *Server) writeError(c *gin.Context, err error) {
	code := kgeval.ErrorCode(err)
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	msg := kgeval.ErrorMessage(err)
	if kgeval.ErrorKind(err) == kgeval.KindUnreachable {
		s.watch.saw(err)
		msg = neo4jDown
	} else if status >= 500 {
		s.log.Error("web", "path", c.Request.URL.Path, "err", err)
	}
	if d := kgeval.RetryAfter(err); d > 0 {
		c.Header("Retry-After", strconv.Itoa(int(math.Ceil(d.Seconds()))))
	}
	c.AbortWithStatusJSON(status, apiError{Error: msg, Code: code})
}

// healthz says whether the dashboard can serve: {"status":"ok"}, or 503
// {"status":"unavailable"} when Neo4j does not answer, and nothing else to
// anyone (issue 49, N6: the commit and the Neo4j and GDS versions would
// tell an anonymous client which exploits to try). A signed-in admin also
// gets kgeval's version, Neo4j's and GDS's, and the reason when unavailable.
func (s *Server) healthz(c *gin.Context) {
	ctx, cancel := context.WithTimeout(c.Request.Context(), 5*time.Second)
	defer cancel()
	versions, err := s.health.Check(ctx)
	s.watch.saw(err)
	admin := s.auth.isAdmin(c)
	if err != nil {
		body := gin.H{"status": "unavailable"}
		if admin {
			body["error"], body["kgeval"] = kgeval.ErrorMessage(err), s.cfg.Version
		}
		c.JSON(http.StatusServiceUnavailable, body)
		return
	}
	body := gin.H{"status": "ok"}
	if admin {
		body["kgeval"] = s.cfg.Version
		for k, v := range versions {
			body[k] = v
		}
	}
	c.JSON(http.StatusOK, body)
}

func (s *Server) openapi(c *gin.Context) {
	b, _ := files.ReadFile("openapi.json")
	c.Data(http.StatusOK, "application/json", b)
}

func (s *Server) notFound(c *gin.Context) {
	if isAPI(c) {
		c.JSON(http.StatusNotFound, apiError{Error: "no such endpoint (see /api/openapi.json)", Code: kgeval.ENOTFOUND})
		return
	}
	s.renderError(c, kgeval.Errorf(kgeval.ENOTFOUND, "no such page"))
}

// securityHeaders forbid framing, sniffing and any script or asset that is
// not the server's own, and keep every response but the static assets out
// of caches (pages and API answers hold data and CSRF tokens).
func securityHeaders(c *gin.Context) {
	h := c.Writer.Header()
	if !strings.HasPrefix(c.Request.URL.Path, "/assets/") {
		h.Set("Cache-Control", "no-store")
	}
	h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "same-origin")
	c.Next()
}

// Request body limits, enforced before anything reads a body: a console
// query (20,000 characters, JSON-escaped) and everything else (the sign-in
// and sign-out forms, the session API).
const (
	maxBody        = 16 << 10
	maxConsoleBody = 256 << 10
)

// limitBody refuses a body whose declared length is over the route's limit
// and caps what can be read of any other, so that no handler or form
// parser reads more.
func (s *Server) limitBody(c *gin.Context) {
	limit := int64(maxBody)
	switch c.FullPath() {
	case "/api/cypher":
		limit = maxConsoleBody
	case "/api/uploads":
		limit = s.uploadLimit()
	}
	if c.Request.ContentLength > limit {
		c.Header("Connection", "close")
		c.AbortWithStatusJSON(http.StatusRequestEntityTooLarge, apiError{Error: fmt.Sprintf("request body over %d bytes", limit), Code: kgeval.ETOOLARGE})
		return
	}
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, limit)
	c.Next()
}

// noDirs serves files only: a directory is not found, so /assets/ lists
// nothing.
type noDirs struct{ fs http.FileSystem }

func (d noDirs) Open(name string) (http.File, error) {
	f, err := d.fs.Open(name)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || st.IsDir() {
		f.Close()
		return nil, os.ErrNotExist
	}
	return f, nil
}
