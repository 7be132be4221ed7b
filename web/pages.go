package web

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// pageNames are the dashboard's pages; each is templates/NAME.html inside
// templates/layout.html.
var pageNames = []string{"login", "runs", "run", "sample", "graph", "cypher", "compare", "sensitivity", "metrics-help", "jobs", "error"}

var funcs = template.FuncMap{
	"score": func(v *float64) string {
		if v == nil {
			return "null"
		}
		return fmt.Sprintf("%.3f", *v)
	},
	"num": func(v float64) string { return fmt.Sprintf("%.3f", v) },
	"pct": func(v *float64) string {
		if v == nil || math.IsNaN(*v) {
			return "0"
		}
		return fmt.Sprintf("%.1f", *v*100)
	},
	"join":      strings.Join,
	"path":      url.PathEscape,
	"add":       func(a, b int) int { return a + b },
	"metricKey": func(pair, metric string) string { return pair + "." + metric },
	"mean":      func(m map[string]*float64, key string) *float64 { return m[key] },
	"count":     func(m map[string]int, key string) int { return m[key] },
	// meaning is a metric's one-line meaning from kgeval's metric registry.
	"meaning": func(metric string) string {
		m, _ := metricreg.LookupMetric(metric)
		return m.Meaning
	},
	// vis shows a value HTML-escaped with its bidi controls and zero-width
	// characters as marked spans; visText as marker text, for attributes,
	// <title> and <option> (text.go).
	"vis":      visAny,
	"visText":  visTextAny,
	"clipText": clipText,
	"verdict":  analysis.Verdict,
	"lt05":     func(p float64) bool { return p < analysis.Significance },
	// kgMetricList names the KG metrics (read per pair), space-separated.
	"kgMetricList": func() string { return strings.Join(metricreg.KGMetricNames, " ") },
	// gloss is a metric's meaning, direction and range from the registry,
	// for a title: "share of ... · higher is better · 0 to 1".
	"gloss": gloss,
	"passMark": func(passed bool) string {
		if passed {
			return "pass"
		}
		return "fail"
	},
}

func parsePages() (map[string]*template.Template, error) {
	out := map[string]*template.Template{}
	for _, name := range pageNames {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(files, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", name, err)
		}
		out[name] = t
	}
	return out, nil
}

// pageData is what every page template gets: the signed-in user, the CSRF
// token for forms and fetch calls, the title and the page's own view model.
type pageData struct {
	Title string
	User  string
	CSRF  string
	Nav   string
	Page  any
}

// page wraps a handler that builds a page's view model.
func (s *Server) page(name string, fn func(c *gin.Context) (string, any, error)) gin.HandlerFunc {
	return func(c *gin.Context) {
		title, vm, err := fn(c)
		if err != nil {
			s.renderError(c, err)
			return
		}
		s.render(c, http.StatusOK, name, pageData{Title: title, Nav: name, Page: vm})
	}
}

func (s *Server) render(c *gin.Context, status int, name string, d pageData) {
	d.User = c.GetString(keyUser)
	d.CSRF = s.auth.csrfToken(c)
	var buf bytes.Buffer
	if err := s.pages[name].ExecuteTemplate(&buf, "layout.html", d); err != nil {
		s.log.Error("render", "page", name, "err", err)
		c.String(http.StatusInternalServerError, "internal error")
		return
	}
	c.Header("Cache-Control", "no-store")
	c.Data(status, "text/html; charset=utf-8", buf.Bytes())
}

// ErrorPage is the view model of an error page.
type ErrorPage struct {
	Status  int
	Message string
}

func (s *Server) renderError(c *gin.Context, err error) {
	status, ok := statusOf[kgeval.ErrorCode(err)]
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
	s.render(c, status, "error", pageData{Title: http.StatusText(status), Page: ErrorPage{Status: status, Message: msg}})
	c.Abort()
}

// LoginPage is the view model of the sign-in page.
type LoginPage struct {
	Next  string
	Error string
	Users bool // whether any user can sign in with a password
}

func (s *Server) loginPage(c *gin.Context) {
	if c.GetString(keyUser) != "" {
		c.Redirect(http.StatusSeeOther, safeNext(c.Query("next")))
		return
	}
	s.render(c, http.StatusOK, "login", pageData{Title: "Sign in", Page: LoginPage{Next: safeNext(c.Query("next")), Users: len(s.auth.cfg.Users) > 0}})
}

// login signs a user or token in. Every attempt first passes the limits
// per client (failed and successful sign-ins) and per (user name, client),
// and, for a client that failed for the name before, per name; a good
// password or token then the limit of its identity, so that nobody can
// sign in often enough to crowd the session store.
func (s *Server) login(c *gin.Context) {
	page := LoginPage{Next: safeNext(c.PostForm("next")), Users: len(s.auth.cfg.Users) > 0}
	token := strings.TrimSpace(c.PostForm("token"))
	client, user := c.ClientIP(), ""
	if token == "" {
		user = c.PostForm("user")
	}
	if wait := s.auth.attemptWait(client, user); wait > 0 {
		s.tooManySignIns(c, page, wait)
		return
	}
	name, kind, ok := s.auth.checkLogin(c.PostForm("user"), c.PostForm("password"), token)
	if !ok {
		s.auth.failed(client, user)
		s.metrics.logins.WithLabelValues("failed").Inc()
		page.Error = "Wrong user name, password or token."
		s.render(c, http.StatusUnauthorized, "login", pageData{Title: "Sign in", Page: page})
		return
	}
	if wait := s.auth.identityWait(name, kind); wait > 0 {
		s.tooManySignIns(c, page, wait)
		return
	}
	s.auth.succeeded(client, name, kind)
	if err := s.auth.signIn(c, name, kind); err != nil {
		if kgeval.ErrorCode(err) == kgeval.ETOOMANY {
			s.tooManySignIns(c, LoginPage{Next: page.Next, Users: page.Users, Error: kgeval.ErrorMessage(err) + "."}, time.Minute)
			return
		}
		s.renderError(c, err)
		return
	}
	s.metrics.logins.WithLabelValues("ok").Inc()
	c.Redirect(http.StatusSeeOther, page.Next)
}

// tooManySignIns answers a sign-in refused by a limit: 429, Retry-After,
// and the sign-in page saying when to try again (page.Error, if set, says
// why).
func (s *Server) tooManySignIns(c *gin.Context, page LoginPage, wait time.Duration) {
	secs := int(math.Ceil(wait.Seconds()))
	s.metrics.logins.WithLabelValues("limited").Inc()
	c.Header("Retry-After", strconv.Itoa(secs))
	if page.Error == "" {
		page.Error = fmt.Sprintf("Too many sign-ins: try again in %d s.", secs)
	}
	s.render(c, http.StatusTooManyRequests, "login", pageData{Title: "Sign in", Page: page})
}

func (s *Server) logout(c *gin.Context) {
	s.auth.signOut(c)
	c.Redirect(http.StatusSeeOther, "/login")
}

// RunsPage is the view model of the runs list; each run names the
// sensitivity experiment (its run prefix) it belongs to, if any.
type RunsPage struct {
	Runs []analysis.RunRow
}

func (s *Server) runsPage(c *gin.Context) (string, any, error) {
	runs, err := s.read.Runs(c.Request.Context())
	if err != nil {
		return "", nil, err
	}
	return "Runs", RunsPage{Runs: s.shownRuns(c, runs)}, nil
}

// RunPage is the view model of a run's dashboard.
type RunPage struct {
	View    *analysis.RunView
	Stats   *analysis.RunStats
	Metrics []string
	// Keys are "pair.metric" in table order.
	Keys []string
	// Families group the other metrics by family, for the pickers.
	Families []MetricFamily
	// Reasons are the distinct null reasons of KG scores and other metrics.
	Reasons []string
	Sweep   *analysis.SweepView
	// Sensitivity is the prefix of the sensitivity experiment the run
	// belongs to, if any.
	Sensitivity string
	// KGMetrics tells the sample list which metrics are read per pair.
	KGMetrics KGMetricInfo
	// MinN is the fewest samples under which p-values and correlations
	// are hidden (web.min_n).
	MinN int
	// TriageMetrics are the KG metrics the triage's range filter offers.
	TriageMetrics []string
}

// KGMetricInfo lists the KG metrics (read per pair), the graph scores among
// them (shown in the pair columns) and the lower-is-better ones (sorted
// highest first by default).
type KGMetricInfo struct {
	Metrics []string `json:"metrics"`
	Graph   []string `json:"graph"`
	Lower   []string `json:"lower"`
}

func kgMetricInfo() KGMetricInfo {
	info := KGMetricInfo{Metrics: metricreg.KGMetricNames}
	for _, m := range metricreg.KGMetricNames {
		if metricreg.GraphMetric(m) {
			info.Graph = append(info.Graph, m)
		}
		if metricreg.IsLowerBetter(m) {
			info.Lower = append(info.Lower, m)
		}
	}
	return info
}

// MetricFamily is a metric family and its metrics present in a run.
type MetricFamily struct {
	Family  string
	Metrics []string
}

func metricFamilies(ms []analysis.MetricStat) []MetricFamily {
	var out []MetricFamily
	for _, m := range ms {
		if len(out) == 0 || out[len(out)-1].Family != m.Family {
			out = append(out, MetricFamily{Family: m.Family})
		}
		out[len(out)-1].Metrics = append(out[len(out)-1].Metrics, m.Metric)
	}
	return out
}

func nullReasons(st *analysis.RunStats) []string {
	seen := map[string]bool{}
	var out []string
	add := func(r string) {
		if r != "" && !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	for _, r := range st.Reasons {
		add(r.Reason)
	}
	for _, m := range st.Metrics {
		for _, r := range m.Reasons {
			add(r.Reason)
		}
	}
	return out
}

func (s *Server) runPage(c *gin.Context) (string, any, error) {
	// The page fetches its triage (TriageQuery as triage.js first asks
	// for it) right after it loads: the reader starts it now, beside the
	// stats, so that the fetch of a finished run joins it or finds it
	// cached.
	ov, err := s.read.Overview(c.Request.Context(), c.Param("run"), analysis.OverviewOptions{Prefetch: &analysis.TriageQuery{Limit: TriagePageRows}})
	if err != nil {
		return "", nil, err
	}
	v, st := s.shownView(c, ov.View), ov.Stats
	p := RunPage{View: v, Stats: st, Metrics: v.Settings.Metrics, Families: metricFamilies(st.Metrics), Reasons: nullReasons(st), Sweep: ov.Sweep,
		KGMetrics: kgMetricInfo(), MinN: s.cfg.MinN, TriageMetrics: analysis.TriageMetrics, Sensitivity: ov.Sensitivity}
	for _, pr := range v.Settings.Pairs {
		for _, m := range v.Settings.Metrics {
			p.Keys = append(p.Keys, pr.Name+"."+m)
		}
	}
	return "Run " + v.Run.Name, p, nil
}

// SamplePage is the view model of a sample: its texts and scores, the
// claims of its answer and reference pairs, the why of its verdict scores
// per pair and what the grounding check dropped.
type SamplePage struct {
	Sample    *readmodel.SampleDetail
	Claims    []ClaimPair
	Metrics   []MetricRow
	Why       []WhyPair
	Grounding Grounding
}

// ClaimPair is one pair's claims on the sample page (a pair whose headline
// is the claim score: faithfulness, factual_correctness): its claim
// scores, the pass mark its verdicts were read against, and every claim,
// lowest score first; Reason says why it has none.
type ClaimPair struct {
	Pair                        kgeval.Pair
	Score, ScoreMin, PSupported *float64
	PassMark                    float64
	WithModel                   bool
	Supported                   int
	Claims                      []analysis.ClaimView
	Reason                      string
}

// claimPairs are the claims of d's pairs whose headline is the claim score,
// in the run's pair order, each pair's claims lowest score first
// (analysis.ClaimsWorstFirst). A pair with neither a claim nor a reason
// that applies (a run scored before claim checks) is left out.
func claimPairs(d *readmodel.SampleDetail) []ClaimPair {
	var out []ClaimPair
	for _, pd := range d.Pairs {
		if pd.Score == nil || analysis.Headline(pd.Pair) != metricreg.MetricClaimScore {
			continue
		}
		r := &pd.Score.KGResult
		cp := ClaimPair{Pair: pd.Pair, Score: r.Value(metricreg.MetricClaimScore), ScoreMin: r.Value(metricreg.MetricClaimScoreMin), PSupported: r.Value(metricreg.MetricPSupported)}
		if len(r.Claims) == 0 {
			if cp.Reason = r.ReasonFor(metricreg.MetricClaimScore); cp.Reason == "" || kgeval.NotApplicable(cp.Reason) {
				continue
			}
			out = append(out, cp)
			continue
		}
		cp.Claims = analysis.NewClaimViews(pd.Pair.Context, r.Claims)
		for _, c := range cp.Claims {
			if c.Model != nil {
				cp.WithModel = true
			}
			if c.Verdict == kgeval.ClaimSupported {
				cp.Supported++
			}
		}
		cp.PassMark = analysis.PassMark(metricreg.MetricClaimScore, cp.WithModel)
		out = append(out, cp)
	}
	return out
}

// MetricRow is one metric value of a sample with its explanation drawn
// generically; SameAs names the metric just above when both share one
// explanation (the three aggregates of a triplet-similarity metric), which
// is then drawn once.
type MetricRow struct {
	readmodel.MetricValue
	Explained *Explanation
	SameAs    string
}

func metricRows(vs []readmodel.MetricValue) []MetricRow {
	out := make([]MetricRow, 0, len(vs))
	shown := -1 // the row whose explanation is drawn
	for i, v := range vs {
		r := MetricRow{MetricValue: v}
		if shown >= 0 && len(v.Explanation) > 0 && vs[shown].Family == v.Family && bytes.Equal(vs[shown].Explanation, v.Explanation) {
			r.SameAs = vs[shown].Metric
		} else {
			r.Explained = explain(v.Explanation)
			shown = i
		}
		out = append(out, r)
	}
	return out
}

func (s *Server) samplePage(c *gin.Context) (string, any, error) {
	v, err := s.sampleOf(c)
	if err != nil {
		return "", nil, err
	}
	return "Sample " + v.ID, SamplePage{Sample: v.SampleDetail, Claims: claimPairs(v.SampleDetail), Metrics: metricRows(v.Metrics), Why: whyPairs(v), Grounding: groundingOf(v.Grounding)}, nil
}

// GraphPage is the view model of a pair graph view: the graph and the
// run's pairs (links to the sample's other graphs).
type GraphPage struct {
	Graph *analysis.GraphView
	Pairs []kgeval.Pair
}

func (s *Server) graphPage(c *gin.Context) (string, any, error) {
	g, err := s.read.Graph(c.Request.Context(), c.Param("run"), c.Param("id"), c.Param("pair"))
	if err != nil {
		return "", nil, err
	}
	return "Graph " + g.Pair + " of " + g.Sample, GraphPage{Graph: g, Pairs: g.Pairs}, nil
}

// CypherPage is the view model of the console.
type CypherPage struct {
	MaxRows int
	MaxKB   int
	Timeout string
	Example string
}

func (s *Server) cypherPage(c *gin.Context) (string, any, error) {
	return "Cypher console", CypherPage{MaxRows: s.cfg.Console.MaxRows, MaxKB: s.cfg.Console.MaxBytes >> 10, Timeout: s.cfg.Console.Timeout.String(),
		Example: "MATCH (e:Entity {side: 'in'})-[r:SIMILAR]->(c:Entity)\nRETURN e, r, c\nLIMIT 25"}, nil
}

// ComparePage is the view model of the run comparison: the runs to pick
// from, A and B (by default the second-newest and the newest run), and the
// comparison, or Refused saying why there is none (A = B, fewer than two
// runs).
type ComparePage = analysis.ComparePick

func (s *Server) comparePage(c *gin.Context) (string, any, error) {
	p, err := s.read.ComparePage(c.Request.Context(), c.Query("a"), c.Query("b"), c.Query("pair"), c.DefaultQuery("metric", metricreg.MetricMultihop))
	if err != nil {
		return "", nil, err
	}
	shown := *p
	shown.Runs, shown.View = s.shownRuns(c, p.Runs), s.shownCompare(c, p.View)
	return "Compare runs", &shown, nil
}

// SensitivityPage is the view model of a sensitivity experiment's results.
type SensitivityPage struct {
	View *analysis.SensitivityView
}

func (s *Server) sensitivityPage(c *gin.Context) (string, any, error) {
	bins, err := binsOf(c)
	if err != nil {
		return "", nil, err
	}
	v, err := s.read.Sensitivity(c.Request.Context(), c.Param("run"), bins)
	if err != nil {
		return "", nil, err
	}
	return "Sensitivity " + v.Run, SensitivityPage{View: v}, nil
}

// gloss says what a metric means, which way is better and its scale, from
// kgeval's metric registry; "" for a name it does not know.
func gloss(metric string) string {
	m, ok := metricreg.LookupMetric(metric)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%s · %s · %g to %g", m.Meaning, m.Direction, m.Lo, m.Hi)
}

// MetricsHelpPage is the view model of /help/metrics: every metric of the
// registry, the triage's pass marks and the graph parameters in force (of
// the run named by ?run=, else kgeval's defaults).
type MetricsHelpPage struct {
	Metrics    []MetricHelp
	Run        string
	Tau, Delta float64
	MinN       int
}

// MetricHelp is one metric as the help page lists it; Threshold is its
// triage pass mark (KG metrics only).
type MetricHelp struct {
	metricreg.MetricInfo
	Threshold *float64
	Params    string
}

func (s *Server) metricsHelpPage(c *gin.Context) (string, any, error) {
	p := MetricsHelpPage{MinN: s.cfg.MinN}
	gp := kgeval.DefaultGraphParams()
	p.Tau, p.Delta = gp.Tau, gp.Delta
	if name := c.Query("run"); name != "" {
		_, st, err := s.read.Run(c.Request.Context(), name)
		if err != nil {
			return "", nil, err
		}
		p.Run, p.Tau, p.Delta = name, st.Tau, st.Delta
	}
	th := analysis.DefaultThresholds()
	for k, v := range s.cfg.Thresholds {
		th[k] = v
	}
	for _, m := range metricreg.Registry() {
		h := MetricHelp{MetricInfo: m}
		if v, ok := th[m.Name]; ok && m.Family == metricreg.FamilyKG {
			h.Threshold = &v
		}
		switch {
		case m.Name == metricreg.MetricMultihop:
			h.Params = fmt.Sprintf("τ %g (SIMILAR edges), δ %g (path cost)", p.Tau, p.Delta)
		case m.Graph || m.Family == metricreg.FamilyKG:
			h.Params = fmt.Sprintf("τ %g (SIMILAR edges)", p.Tau)
		}
		p.Metrics = append(p.Metrics, h)
	}
	return "Metrics", p, nil
}
