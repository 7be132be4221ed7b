package web_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/kgeval/kgeval/web"
)

// downHealth injects the fault of a Neo4j that does not answer.
type downHealth struct{}

func (downHealth) Check(context.Context) (map[string]string, error) {
	return nil, kgeval.Errorf(kgeval.EUNAVAILABLE, "neo4j at bolt://127.0.0.1:1 is not reachable")
}

const (
	testToken    = "kgv_test-token-for-web-tests"
	testUser     = "alice"
	testPassword = "correct horse battery"
)

// MustServer starts the server against the real Neo4j with one user and one
// token.
func MustServer(tb testing.TB, db *graphstore.DB, h web.Health) (*httptest.Server, *web.Server) {
	tb.Helper()
	hash, err := web.HashPassword(testPassword)
	if err != nil {
		tb.Fatal(err)
	}
	cfg := web.Config{Version: "test", Auth: web.AuthConfig{
		Users:      map[string]string{testUser: hash},
		Tokens:     map[string]string{web.HashToken(testToken): "ci"},
		Admins:     map[string]bool{"token:ci": true},
		SessionKey: []byte(strings.Repeat("k", 64)),
		// httptest serves plain http, where clients drop Secure cookies.
		InsecureCookies: true,
	}}
	var store readmodel.Services
	if db != nil {
		store = db
		cfg.Cypher = graphstoretest.MustConsole(tb)
	}
	s, err := web.NewServer(cfg, h, store)
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(s.Handler())
	tb.Cleanup(srv.Close)
	return srv, s
}

// client is a browser-like client: it keeps cookies, does not follow
// redirects, and sends the CSRF token it was given.
type client struct {
	tb    testing.TB
	base  string
	token string // bearer token, if any
	csrf  string
	jar   []*http.Cookie
}

func (c *client) do(method, path string, body io.Reader, hdr map[string]string) (*http.Response, string) {
	c.tb.Helper()
	req, _ := http.NewRequest(method, c.base+path, body)
	for _, ck := range c.jar {
		req.AddCookie(ck)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	cl := &http.Client{}
	cl.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := cl.Do(req)
	if err != nil {
		c.tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, ck := range resp.Cookies() {
		kept := c.jar[:0]
		for _, old := range c.jar {
			if old.Name != ck.Name {
				kept = append(kept, old)
			}
		}
		c.jar = kept
		if ck.MaxAge >= 0 {
			c.jar = append(c.jar, ck)
		}
	}
	if m := regexp.MustCompile(`name="csrf-token" content="([^"]+)"`).FindStringSubmatch(string(b)); m != nil {
		c.csrf = m[1]
	}
	return resp, string(b)
}

func (c *client) get(path string) (*http.Response, string) { return c.do("GET", path, nil, nil) }

func (c *client) getJSON(path string, v any) int {
	c.tb.Helper()
	resp, body := c.get(path)
	if err := json.Unmarshal([]byte(body), v); err != nil && resp.StatusCode == 200 {
		c.tb.Fatalf("GET %s: %v in %.200s", path, err, body)
	}
	return resp.StatusCode
}

func (c *client) postForm(path string, form url.Values) (*http.Response, string) {
	return c.do("POST", path, strings.NewReader(form.Encode()), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
}

// signIn signs c in with the test user's password.
func (c *client) signIn() {
	c.tb.Helper()
	c.get("/login")
	resp, _ := c.postForm("/login", url.Values{"csrf_token": {c.csrf}, "user": {testUser}, "password": {testPassword}, "next": {"/"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		c.tb.Fatalf("sign-in: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	c.get("/") // the page carries the session's new CSRF token
}

// TestServer_Healthz checks /healthz against the real Neo4j, then against a
// Neo4j that does not answer: anonymous clients and signed-in non-admins
// get {"status":"ok"} (503 {"status":"unavailable"}) and nothing else; a
// signed-in admin also gets the versions of kgeval, Neo4j and GDS (and why
// it is unavailable). Issue 49, N6: the anonymous answer named the commit
// and the Neo4j and GDS versions.
func TestServer_Healthz(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	down, _ := MustServer(t, nil, downHealth{})
	for _, tc := range []struct {
		name, base string
		code       int
		status     string
	}{{"Up", srv.URL, 200, "ok"}, {"Down", down.URL, http.StatusServiceUnavailable, "unavailable"}} {
		t.Run(tc.name, func(t *testing.T) {
			anonymous, user, admin := &client{tb: t, base: tc.base}, &client{tb: t, base: tc.base}, &client{tb: t, base: tc.base, token: testToken}
			user.get("/login") // signIn would read "/", which the down server has no store for
			if resp, _ := user.postForm("/login", url.Values{"csrf_token": {user.csrf}, "user": {testUser}, "password": {testPassword}}); resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("sign-in: %d", resp.StatusCode)
			}
			for _, who := range []struct {
				name string
				c    *client
				keys string
			}{{"anonymous", anonymous, "status"}, {"non-admin", user, "status"}, {"admin", admin, map[bool]string{true: "gds kgeval neo4j status", false: "error kgeval status"}[tc.code == 200]}} {
				resp, body := who.c.get("/healthz")
				var m map[string]any
				if err := json.Unmarshal([]byte(body), &m); err != nil {
					t.Fatalf("%s: %v in %q", who.name, err, body)
				}
				t.Logf("%s GET /healthz: %d %s", who.name, resp.StatusCode, body)
				if resp.StatusCode != tc.code || m["status"] != tc.status || strings.Join(slices.Sorted(maps.Keys(m)), " ") != who.keys {
					t.Errorf("%s: %d %s, want %d with status %q and exactly the keys %q", who.name, resp.StatusCode, body, tc.code, tc.status, who.keys)
				}
			}
		})
	}
}

// TestServer_Auth checks sign-in, tokens, sessions and CSRF.
func TestServer_Auth(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	t.Run("Unauthorized", func(t *testing.T) {
		c := &client{tb: t, base: srv.URL}
		for _, p := range []string{"/api/runs", "/api/runs/x/samples", "/api/me", "/metrics"} {
			resp, body := c.get(p)
			var e map[string]string
			json.Unmarshal([]byte(body), &e)
			if resp.StatusCode != 401 || e["code"] != kgeval.EUNAUTHORIZED || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				t.Errorf("GET %s: %d %s", p, resp.StatusCode, body)
			}
		}
		resp, _ := c.do("POST", "/api/cypher", strings.NewReader(`{"query":"RETURN 1"}`), map[string]string{"Content-Type": "application/json"})
		if resp.StatusCode != 401 {
			t.Errorf("POST /api/cypher: %d", resp.StatusCode)
		}
		resp, _ = c.get("/runs/x")
		if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login?next=") {
			t.Errorf("page: %d %s", resp.StatusCode, resp.Header.Get("Location"))
		}
		bad := &client{tb: t, base: srv.URL, token: "kgv_wrong"}
		if resp, _ := bad.get("/api/runs"); resp.StatusCode != 401 {
			t.Errorf("wrong token: %d", resp.StatusCode)
		}
	})
	t.Run("Token", func(t *testing.T) {
		c := &client{tb: t, base: srv.URL, token: testToken}
		var me map[string]any
		if code := c.getJSON("/api/me", &me); code != 200 || me["user"] != "ci" || me["via"] != "token" {
			t.Errorf("me: %d %v", code, me)
		}
		// A token is no ambient credential: no CSRF token needed.
		resp, body := c.do("POST", "/api/cypher", strings.NewReader(`{"query":"RETURN 1 AS one"}`), map[string]string{"Content-Type": "application/json"})
		if resp.StatusCode != 200 || !strings.Contains(body, `"one"`) {
			t.Errorf("cypher with token: %d %s", resp.StatusCode, body)
		}
	})
	t.Run("Session", func(t *testing.T) {
		c := &client{tb: t, base: srv.URL}
		resp, _ := c.get("/login")
		ck := resp.Header.Get("Set-Cookie")
		if !strings.Contains(ck, "HttpOnly") || !strings.Contains(ck, "SameSite=Strict") {
			t.Errorf("session cookie: %s", ck)
		}
		if resp, _ := c.postForm("/login", url.Values{"user": {testUser}, "password": {testPassword}}); resp.StatusCode != 403 {
			t.Errorf("sign-in without CSRF token: %d", resp.StatusCode)
		}
		if resp, _ := c.postForm("/login", url.Values{"csrf_token": {c.csrf}, "user": {testUser}, "password": {"wrong"}}); resp.StatusCode != 401 {
			t.Errorf("wrong password: %d", resp.StatusCode)
		}
		if resp, _ := c.postForm("/login", url.Values{"csrf_token": {c.csrf}, "user": {"mallory"}, "password": {testPassword}}); resp.StatusCode != 401 {
			t.Errorf("unknown user: %d", resp.StatusCode)
		}
		resp, _ = c.postForm("/login", url.Values{"csrf_token": {c.csrf}, "user": {testUser}, "password": {testPassword}, "next": {"//evil.example/"}})
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
			t.Errorf("sign-in: %d, next %s (an off-site next must become /)", resp.StatusCode, resp.Header.Get("Location"))
		}
		old := c.csrf
		var me map[string]any
		if code := c.getJSON("/api/me", &me); code != 200 || me["user"] != testUser || me["via"] != "session" || me["csrf_token"] == old {
			t.Errorf("me: %d %v (the CSRF token must change at sign-in)", code, me)
		}
		c.csrf, _ = me["csrf_token"].(string)
		body := `{"query":"RETURN 1 AS one"}`
		if resp, _ := c.do("POST", "/api/cypher", strings.NewReader(body), map[string]string{"Content-Type": "application/json"}); resp.StatusCode != 403 {
			t.Errorf("POST without CSRF header: %d", resp.StatusCode)
		}
		if resp, _ := c.do("POST", "/api/cypher", strings.NewReader(body), map[string]string{"Content-Type": "application/json", "X-CSRF-Token": "wrong"}); resp.StatusCode != 403 {
			t.Errorf("POST with a wrong CSRF token: %d", resp.StatusCode)
		}
		// The right token from another site (http.CrossOriginProtection).
		for _, h := range []map[string]string{{"Sec-Fetch-Site": "cross-site"}, {"Origin": "https://evil.example"}} {
			h["Content-Type"], h["X-CSRF-Token"] = "application/json", c.csrf
			if resp, out := c.do("POST", "/api/cypher", strings.NewReader(body), h); resp.StatusCode != 403 || !strings.Contains(out, "cross-origin") {
				t.Errorf("POST with CSRF token and %v: %d %s, want 403", h, resp.StatusCode, out)
			}
		}
		if resp, out := c.do("POST", "/api/cypher", strings.NewReader(body), map[string]string{"Content-Type": "application/json", "X-CSRF-Token": c.csrf, "Sec-Fetch-Site": "same-origin"}); resp.StatusCode != 200 {
			t.Errorf("POST with CSRF token, same origin: %d %s", resp.StatusCode, out)
		}
		if resp, _ := c.postForm("/logout", url.Values{}); resp.StatusCode != 403 {
			t.Errorf("logout without CSRF: %d", resp.StatusCode)
		}
		if resp, _ := c.postForm("/logout", url.Values{"csrf_token": {c.csrf}}); resp.StatusCode != http.StatusSeeOther {
			t.Errorf("logout: %d", resp.StatusCode)
		}
		if resp, _ := c.get("/api/me"); resp.StatusCode != 401 {
			t.Errorf("after logout: %d", resp.StatusCode)
		}
	})
	t.Run("SecureByDefault", func(t *testing.T) {
		s, err := web.NewServer(web.Config{Auth: web.AuthConfig{SessionKey: []byte(strings.Repeat("k", 64))}}, downHealth{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		s.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/login", nil))
		if ck := rec.Header().Get("Set-Cookie"); !strings.Contains(ck, "; Secure") || !strings.Contains(ck, "HttpOnly") {
			t.Errorf("default cookie: %s", ck)
		}
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("CSP: %s", csp)
		}
		if _, err := web.NewServer(web.Config{Auth: web.AuthConfig{SessionKey: []byte("short")}}, downHealth{}, nil); kgeval.ErrorCode(err) != kgeval.EINVALID {
			t.Errorf("short session key: %v", err)
		}
	})
}

// TestServer_API reads a stored run through the API and checks it against
// what the store and the native engine hold.
func TestServer_API(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	r := graphstoretest.MustWebRun(t, db, 8)
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	c := &client{tb: t, base: srv.URL, token: testToken}
	run := "/api/runs/" + url.PathEscape(r.Name)

	t.Run("Runs", func(t *testing.T) {
		var list struct{ Runs []analysis.RunRow }
		if code := c.getJSON("/api/runs", &list); code != 200 {
			t.Fatal(code)
		}
		found := false
		for _, x := range list.Runs {
			found = found || (x.Name == r.Name && x.Samples == 8)
		}
		if !found {
			t.Errorf("run %s not listed", r.Name)
		}
		var v analysis.RunView
		if code := c.getJSON(run, &v); code != 200 || v.Run.Name != r.Name || len(v.Summary) != 2 || len(v.Systems) != 2 || len(v.Settings.Pairs) != 2 {
			t.Errorf("run: %d %+v", code, v)
		}
		var st analysis.RunStats
		if code := c.getJSON(run+"/stats", &st); code != 200 || len(st.Histograms) != 9 || len(st.Systems) != 2 || len(st.Metrics) != 3 {
			t.Errorf("stats: %d %+v", code, st)
		}
		for _, ms := range st.Metrics {
			if ms.Metric == "llm_faithfulness" && (ms.Nulls != 8 || ms.Scored != 0 || len(ms.Reasons) != 1 || ms.Reasons[0].Reason != "no LLM judge configured") {
				t.Errorf("llm_faithfulness stats: %+v", ms)
			}
			if ms.Metric == "bert_score_f1" && (ms.Hi != 100 || st.Systems[0].Means["bert_score_f1"] == nil) {
				t.Errorf("bert_score_f1 stats: %+v, system means %v", ms, st.Systems[0].Means)
			}
		}
	})
	t.Run("Correlations", func(t *testing.T) {
		var v analysis.CorrelationView
		if code := c.getJSON(run+"/correlations", &v); code != 200 || v.Samples != 8 || len(v.Variables) != 11 || !slices.Equal(v.Empty, []string{"llm_faithfulness"}) {
			t.Fatalf("%d %+v", code, v)
		}
		// ts_groundedness_avg against bert_score_f1 over the samples where
		// both have a value, by hand.
		var xs, ys []float64
		for _, smp := range r.Samples {
			if x := r.Metrics[smp.ID]["ts_groundedness_avg"].Value; x != nil {
				xs = append(xs, *x)
				ys = append(ys, *r.Metrics[smp.ID]["bert_score_f1"].Value)
			}
		}
		mx, my := 0.0, 0.0
		for i := range xs {
			mx += xs[i] / float64(len(xs))
			my += ys[i] / float64(len(ys))
		}
		var sxy, sxx, syy float64
		for i := range xs {
			sxy += (xs[i] - mx) * (ys[i] - my)
			sxx += (xs[i] - mx) * (xs[i] - mx)
			syy += (ys[i] - my) * (ys[i] - my)
		}
		got, ok := v.Get("ts_groundedness_avg", "bert_score_f1")
		if want := sxy / math.Sqrt(sxx*syy); !ok || got.N != len(xs) || got.Pearson == nil || math.Abs(*got.Pearson-want) > 1e-9 {
			t.Errorf("ts_groundedness_avg × bert_score_f1: %+v, want r %v over %d", got, want, len(xs))
		}
		if code := c.getJSON(run+"/correlations?select=kg", &v); code != 200 || len(v.Variables) != 9 {
			t.Errorf("select=kg: %d %v", code, v.Variables)
		}
		var e map[string]string
		if code := c.getJSON(run+"/correlations?select=nope", &e); code != 400 || e["code"] != kgeval.EINVALID ||
			!strings.HasPrefix(e["error"], `select="nope": no variable of this run matches "nope"`) || strings.Contains(e["error"], "--metrics") {
			t.Errorf("select=nope: %d %v (want the API's words, not the CLI's)", code, e)
		}
		// Human labels are always correlated: select=human adds nothing and is no error.
		if code := c.getJSON(run+"/correlations?select=kg,human", &v); code != 200 || len(v.Variables) != 9 {
			t.Errorf("select=kg,human: %d %v", code, v.Variables)
		}
		if code := c.getJSON("/api/runs/no-such-run/correlations", &e); code != 404 {
			t.Errorf("unknown run: %d", code)
		}
	})
	t.Run("Sweep", func(t *testing.T) {
		var v analysis.SweepView
		if code := c.getJSON(run+"/sweep", &v); code != 200 || len(v.Points) != 4 || !slices.Equal(v.Taus, []float64{0.7}) || !slices.Equal(v.Deltas, []float64{0.3, 1.5}) ||
			!slices.Equal(v.Pairs, []string{"faithfulness", "answer_relevancy"}) || v.Delta != 0.5 {
			t.Errorf("sweep: %d %+v", code, v)
		}
		var e map[string]string
		if code := c.getJSON("/api/runs/no-such-run/sweep", &e); code != 404 {
			t.Errorf("unknown run: %d", code)
		}
	})
	t.Run("Samples", func(t *testing.T) {
		var p readmodel.SamplePage
		if code := c.getJSON(run+"/samples?pair=faithfulness&metric=multihop&sort=score&order=desc&limit=3&offset=1", &p); code != 200 || p.Total != 8 || len(p.Samples) != 3 {
			t.Fatalf("%d %+v", code, p)
		}
		want, _ := db.ListSamples(context.Background(), readmodel.SampleQuery{Run: r.Name, Pair: "faithfulness", Metric: "multihop", Sort: "score", Desc: true, Limit: 3, Offset: 1}, r.Settings.Pairs)
		for i := range p.Samples {
			if p.Samples[i].ID != want.Samples[i].ID {
				t.Errorf("row %d: %s, want %s", i, p.Samples[i].ID, want.Samples[i].ID)
			}
		}
		if code := c.getJSON(run+"/samples?system=b&null=false&pair=faithfulness&metric=multihop&min=0&max=1", &p); code != 200 || p.Total == 0 {
			t.Errorf("filters: %d %+v", code, p)
		}
		if code := c.getJSON(run+"/samples?pair=faithfulness&metric=ts_groundedness_avg&sort=score&order=desc&limit=3", &p); code != 200 || p.Total != 8 || len(p.Samples) != 3 {
			t.Fatalf("sorted by another metric: %d %+v", code, p)
		}
		for i, row := range p.Samples {
			want := r.Metrics[row.ID]["ts_groundedness_avg"].Value
			got := row.Metrics["ts_groundedness_avg"]
			if got == nil || want == nil || *got.Value != *want || i > 0 && *p.Samples[i-1].Metrics["ts_groundedness_avg"].Value < *got.Value {
				t.Errorf("row %d %s: %+v, want %v, descending", i, row.ID, got, want)
			}
		}
		if code := c.getJSON(run+"/samples?metric=llm_faithfulness&reason="+url.QueryEscape("no LLM judge configured"), &p); code != 200 || p.Total != 8 {
			t.Errorf("reason of another metric: %d %+v", code, p)
		}
		var e map[string]string
		for _, q := range []string{"sort=question", "order=sideways", "min=abc", "null=maybe", "limit=100000", "sort=score", "metric=a.b&sort=score"} {
			if code := c.getJSON(run+"/samples?"+q, &e); code != 400 || e["code"] != kgeval.EINVALID {
				t.Errorf("%s: %d %v", q, code, e)
			}
		}
		if code := c.getJSON("/api/runs/no-such-run/samples", &e); code != 404 {
			t.Errorf("unknown run: %d", code)
		}
	})
	t.Run("Sample", func(t *testing.T) {
		var d readmodel.SampleDetail
		if code := c.getJSON(run+"/samples/s03", &d); code != 200 || d.ID != "s03" || d.Question != r.Samples[3].Question || len(d.Pairs) != 2 || d.Delta != 0.5 {
			t.Fatalf("%d %+v", code, d)
		}
		if len(d.Metrics) != 3 || d.Metrics[0].Metric != "ts_groundedness_avg" || d.Metrics[0].Value != nil || d.Metrics[0].Reason != "no triplets extracted from answer" {
			t.Errorf("s03 metrics: %+v", d.Metrics)
		}
		var raw struct {
			Metrics []struct {
				Metric      string
				Explanation map[string]any
			}
		}
		if code := c.getJSON(run+"/samples/s02", &raw); code != 200 || len(raw.Metrics) != 3 || raw.Metrics[0].Explanation["matches"] == nil {
			t.Errorf("s02 metrics: the explanation is not JSON in the API: %+v", raw)
		}
		var g analysis.GraphView
		if code := c.getJSON(run+"/samples/s03/graphs/faithfulness", &g); code != 200 {
			t.Fatal(code)
		}
		pg, _ := db.ReadPairGraph(context.Background(), r.Name, "s03", "faithfulness")
		if len(g.Nodes) != len(pg.Nodes) || len(g.Edges) != len(pg.Edges) || g.Delta != 0.5 || len(g.Paths) != len(pg.InputEntities()) {
			t.Errorf("graph: %d nodes, %d edges, %d paths; want %d, %d, %d", len(g.Nodes), len(g.Edges), len(g.Paths), len(pg.Nodes), len(pg.Edges), len(pg.InputEntities()))
		}
		for _, n := range g.Nodes {
			if n.Community == nil {
				t.Errorf("node %d has no community", n.ID)
			}
		}
		// The explain text, as `kgeval explain` prints it.
		if resp, body := c.get(run + "/samples/s03/explain"); resp.StatusCode != 200 || !strings.HasPrefix(body, "sample s03") || !strings.Contains(body, "faithfulness (") {
			t.Errorf("explain: %d %.300s", resp.StatusCode, body)
		}
		var e map[string]string
		if code := c.getJSON(run+"/samples/nope", &e); code != 404 || e["code"] != kgeval.ENOTFOUND {
			t.Errorf("unknown sample: %d %v", code, e)
		}
		if resp, _ := c.get(run + "/samples/nope/explain"); resp.StatusCode != 404 {
			t.Errorf("explain of an unknown sample: %d", resp.StatusCode)
		}
		if code := c.getJSON(run+"/samples/s03/graphs/nope", &e); code != 404 {
			t.Errorf("unknown pair: %d %v", code, e)
		}
	})
	t.Run("Export", func(t *testing.T) {
		resp, body := c.get(run + "/export?format=csv")
		rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
		if resp.StatusCode != 200 || err != nil || len(rows) != 9 || rows[0][3] != "faithfulness.multihop" || rows[1][0] != "s00" {
			t.Errorf("csv: %d %v %.300s", resp.StatusCode, err, body)
		}
		if n := len(rows[0]); err == nil && (n != 3+(5+1)+(4+1)+2*3 || rows[0][n-2] != "ts_groundedness_avg" || rows[1][n-2] != "0" || rows[4][n-1] != "no triplets extracted from answer") {
			t.Errorf("csv metric columns: %v / %v / %v", rows[0], rows[1], rows[4])
		}
		resp, body = c.get(run + "/export?format=jsonl")
		lines := strings.Split(strings.TrimSpace(body), "\n")
		var first map[string]any
		json.Unmarshal([]byte(lines[0]), &first)
		if resp.StatusCode != 200 || len(lines) != 8 || first["id"] != "s00" || first["scores"] == nil || first["metrics"].(map[string]any)["bert_score_f1"] != 10.0 ||
			first["nulls"].(map[string]any)["llm_faithfulness"] != "no LLM judge configured" {
			t.Errorf("jsonl: %d %d lines %v", resp.StatusCode, len(lines), first)
		}
		if resp, _ := c.get(run + "/export?format=xml"); resp.StatusCode != 400 {
			t.Errorf("xml: %d", resp.StatusCode)
		}
		// headline=1: the same rows with each pair's headline and the
		// sample's pass (the Python client's to_pandas); format=claims one
		// row per stored claim.
		resp, body = c.get(run + "/export?format=jsonl&headline=1")
		hl := strings.Split(strings.TrimSpace(body), "\n")
		var h map[string]any
		json.Unmarshal([]byte(hl[0]), &h)
		if head, _ := h["headline"].(map[string]any); resp.StatusCode != 200 || len(hl) != 8 || h["id"] != "s00" || head["faithfulness"] == nil || h["scores"] == nil {
			t.Errorf("headline: %d %d lines %v", resp.StatusCode, len(hl), h)
		}
		if resp, _ := c.get(run + "/export?format=claims"); resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" {
			t.Errorf("claims: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	})
	t.Run("Compare", func(t *testing.T) {
		// A run against itself is refused (400), not an empty comparison.
		resp, body := c.get("/api/compare?a=" + url.QueryEscape(r.Name) + "&b=" + url.QueryEscape(r.Name))
		if resp.StatusCode != 400 || !strings.Contains(body, "compare two different runs") {
			t.Errorf("a run against itself: %d %s", resp.StatusCode, body)
		}
		// Another run of the same samples and scores: paired by id, no
		// difference, and the paired comparison of analysis.CompareRuns.
		var v analysis.CompareView
		r2 := graphstoretest.MustWebRun(t, db, 8)
		if code := c.getJSON("/api/compare?a="+url.QueryEscape(r.Name)+"&b="+url.QueryEscape(r2.Name)+"&pair=faithfulness&metric=multihop", &v); code != 200 || v.Common != 8 || v.Paired == nil || len(v.Metrics) != 9 {
			t.Fatalf("%d %+v", code, v)
		}
		if p := v.Paired; p.PairedBy != "id" || p.Pairs != 8 || len(p.Metrics) == 0 || p.Metrics[0].Diff == nil || *p.Metrics[0].Diff != 0 {
			t.Errorf("paired: %+v", p)
		}
		if v.Key != "faithfulness.multihop" || v.Chosen == nil || v.Chosen.Metric != v.Key || v.Chosen.Unchanged != v.Chosen.N || len(v.Regressed) != 0 {
			t.Errorf("chosen: %s %+v %v", v.Key, v.Chosen, v.Regressed)
		}
		if len(v.Warnings) != 0 || len(v.Pairs) != 2 || v.MetricNames[0] != "multihop" {
			t.Errorf("warnings %v, pairs %v, metrics %v", v.Warnings, v.Pairs, v.MetricNames)
		}
	})
	t.Run("Cypher", func(t *testing.T) {
		resp, body := c.do("POST", "/api/cypher", strings.NewReader(`{"query":"MATCH (s:Sample {run: '`+r.Name+`'}) RETURN s.id AS id ORDER BY id"}`), map[string]string{"Content-Type": "application/json"})
		if resp.StatusCode != 200 || !strings.Contains(body, `["s07"]`) {
			t.Errorf("%d %.300s", resp.StatusCode, body)
		}
		resp, body = c.do("POST", "/api/cypher", strings.NewReader(`{"query":"MATCH (n) DETACH DELETE n"}`), map[string]string{"Content-Type": "application/json"})
		if resp.StatusCode != 400 || !strings.Contains(body, "refused") {
			t.Errorf("write: %d %s", resp.StatusCode, body)
		}
	})
	t.Run("Metrics", func(t *testing.T) {
		_, body := c.get("/metrics")
		for _, want := range []string{`kgeval_http_requests_total{code="200",method="GET",route="/api/runs/:run/samples"}`,
			`kgeval_console_queries_total{outcome="refused"} 1`, "kgeval_http_request_duration_seconds_bucket", "go_goroutines"} {
			if !strings.Contains(body, want) {
				t.Errorf("/metrics lacks %s", want)
			}
		}
	})
}

// TestServer_Pages renders every page of a stored run and checks that
// sample text holding HTML is shown as text.
func TestServer_Pages(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	r := graphstoretest.MustWebRun(t, db, 3)
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	c := &client{tb: t, base: srv.URL}
	c.signIn()
	run := "/runs/" + url.PathEscape(r.Name)
	for _, tc := range []struct{ path, want string }{
		{"/", r.Name},
		{run, "KG score distributions"},
		{run, `id="metric-table"`},
		{run, `id="sweep-data"`},
		{run, `id="correlation-section"`},
		{run + "/samples/s01", "&lt;script&gt;alert(1)&lt;/script&gt;"},
		{run + "/samples/s01", "answer 1 is &lt;b&gt;true&lt;/b&gt;"},
		{run + "/samples/s01", `<td class="metric-reason">no LLM judge configured</td>`},
		{run + "/samples/s01/graphs/faithfulness", `id="graph-data"`},
		{"/cypher", `id="query"`},
		{"/compare?a=" + url.QueryEscape(r.Name) + "&b=" + url.QueryEscape(r.Name), `id="compare-refused"`},
	} {
		resp, body := c.get(tc.path)
		if resp.StatusCode != 200 || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d, no %q", tc.path, resp.StatusCode, tc.want)
		}
		if strings.Contains(body, "<script>alert(1)") || strings.Contains(body, "<b>true") {
			t.Errorf("%s: sample text rendered as HTML", tc.path)
		}
	}
	resp, body := c.get(run + "/samples/nope")
	if resp.StatusCode != 404 || !strings.Contains(body, "no sample") {
		t.Errorf("unknown sample page: %d", resp.StatusCode)
	}
	for _, a := range []string{"/assets/app.js", "/assets/graph.js", "/assets/vendor/cytoscape.min.js", "/assets/vendor/echarts.min.js"} {
		if resp, _ := c.get(a); resp.StatusCode != 200 {
			t.Errorf("%s: %d (run `make web-assets`)", a, resp.StatusCode)
		}
	}
}

// TestServer_OpenAPI checks that every API route is documented and every
// documented path is served.
func TestServer_OpenAPI(t *testing.T) {
	srv, s := MustServer(t, nil, downHealth{})
	c := &client{tb: t, base: srv.URL}
	var doc struct {
		OpenAPI string
		Paths   map[string]map[string]any
	}
	if code := c.getJSON("/api/openapi.json", &doc); code != 200 || !strings.HasPrefix(doc.OpenAPI, "3.") {
		t.Fatalf("%d %s", code, doc.OpenAPI)
	}
	served := map[string]bool{}
	param := regexp.MustCompile(`:(\w+)`)
	for _, rt := range s.Handler().(*gin.Engine).Routes() {
		p := param.ReplaceAllString(rt.Path, "{$1}")
		if !strings.HasPrefix(p, "/api/") && p != "/healthz" && p != "/metrics" {
			continue
		}
		key := strings.ToLower(rt.Method) + " " + p
		served[key] = true
		if doc.Paths[p][strings.ToLower(rt.Method)] == nil {
			t.Errorf("%s is not in openapi.json", key)
		}
	}
	for p, ops := range doc.Paths {
		for m := range ops {
			if !served[m+" "+p] {
				t.Errorf("openapi.json documents %s %s, which is not served", m, p)
			}
		}
	}
}
