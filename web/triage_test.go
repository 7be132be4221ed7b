package web_test

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/web"
)

// TestServer_Triage checks GET /api/runs/:run/triage against the scores
// the test run was stored with: every cell's value and pass mark, the
// failing counts, worst first, the filters, the column sort, the why of
// the first failing rows, configured thresholds and bad queries.
func TestServer_Triage(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	r := graphstoretest.MustWebRun(t, db, 8)
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	c := &client{tb: t, base: srv.URL, token: testToken}
	run := "/api/runs/" + url.PathEscape(r.Name) + "/triage"
	th := analysis.DefaultThresholds()

	// failing counts the scores of a stored result that fail thresholds.
	failing := func(res kgeval.KGResult, th map[string]float64) int {
		n := 0
		for _, m := range analysis.TriageMetrics {
			if v := res.Value(m); v != nil && !analysis.Passes(m, *v, th[m]) {
				n++
			}
		}
		return n
	}
	check := func(t *testing.T, v *analysis.Triage, th map[string]float64, system string) {
		t.Helper()
		if len(v.Pairs) != 2 || v.Samples != 8 || v.Tau != 0.7 || v.Delta != 0.5 {
			t.Fatalf("pairs %d samples %d tau %v delta %v", len(v.Pairs), v.Samples, v.Tau, v.Delta)
		}
		for _, p := range v.Pairs {
			want, wantFailing := 0, 0
			for _, s := range r.Samples {
				if system == "" || s.System == system {
					want++
					if failing(r.Results[s.ID][p.Pair], th) > 0 {
						wantFailing++
					}
				}
			}
			if p.Total != want || p.Failing != wantFailing || len(p.Rows) != want {
				t.Errorf("%s: total %d failing %d rows %d, want %d %d %d", p.Pair, p.Total, p.Failing, len(p.Rows), want, wantFailing, want)
			}
			for i, row := range p.Rows {
				res := r.Results[row.ID][p.Pair]
				if system != "" && row.System != system {
					t.Errorf("%s %s: system %q, want %q", p.Pair, row.ID, row.System, system)
				}
				if row.Failing != failing(res, th) || i > 0 && p.Rows[i-1].Failing < row.Failing {
					t.Errorf("%s %s: failing %d, want %d, worst first", p.Pair, row.ID, row.Failing, failing(res, th))
				}
				for _, cell := range row.Cells {
					v := res.Value(cell.Metric)
					switch {
					case v == nil && (cell.Value != nil || cell.Pass != nil):
						t.Errorf("%s %s %s: %v, want null", p.Pair, row.ID, cell.Metric, *cell.Value)
					case v != nil && (cell.Value == nil || *cell.Value != *v || cell.Pass == nil || *cell.Pass != analysis.Passes(cell.Metric, *v, th[cell.Metric])):
						t.Errorf("%s %s %s: %+v, want %v", p.Pair, row.ID, cell.Metric, cell, *v)
					}
				}
			}
		}
	}

	t.Run("WorstFirst", func(t *testing.T) {
		var v analysis.Triage
		if code := c.getJSON(run+"?limit=50", &v); code != 200 {
			t.Fatal(code)
		}
		check(t, &v, th, "")
		explained := 0
		for _, p := range v.Pairs {
			for _, row := range p.Rows {
				if len(row.Why) > 0 || len(row.Nearest) > 0 {
					explained++
					if row.Failing == 0 {
						t.Errorf("%s %s: a passing row explained", p.Pair, row.ID)
					}
				}
				for _, l := range row.Why {
					if o := l.Outcome(); o == kgeval.VerdictSupported && !l.Conflict || l.Pair != p.Pair {
						t.Errorf("%s %s: why line %+v is not a failing fact of the pair", p.Pair, row.ID, l)
					}
				}
			}
		}
		if explained == 0 {
			t.Error("no failing row explained")
		}
		t.Logf("faithfulness: %d of %d failing; answer_relevancy: %d of %d failing; %d rows explained",
			v.Pairs[0].Failing, v.Pairs[0].Total, v.Pairs[1].Failing, v.Pairs[1].Total, explained)
	})
	t.Run("System", func(t *testing.T) {
		var v analysis.Triage
		if code := c.getJSON(run+"?system=a&limit=50", &v); code != 200 {
			t.Fatal(code)
		}
		check(t, &v, th, "a")
	})
	t.Run("SortAndRange", func(t *testing.T) {
		var v analysis.Triage
		if code := c.getJSON(run+"?pair=faithfulness&sort=multihop&order=desc&metric=multihop&min=0.1&max=1", &v); code != 200 || len(v.Pairs) != 1 {
			t.Fatalf("%d %+v", code, v)
		}
		prev := 2.0
		for _, row := range v.Pairs[0].Rows {
			x := row.Cells[0].Value
			if row.Cells[0].Metric != "multihop" || x == nil || *x > prev || *x < 0.1 {
				t.Errorf("row %s: %+v not in range or not descending", row.ID, row.Cells[0])
			}
			prev = *x
		}
	})
	t.Run("Thresholds", func(t *testing.T) {
		lenient := map[string]float64{"multihop": 0, "community_overlap": 0, "support": 0, "contradiction": 1, "slot_coverage": 0, "recall": 0, "f1": 0}
		s, err := web.NewServer(web.Config{Version: "test", Auth: web.AuthConfig{Disabled: true, SessionKey: []byte(strings.Repeat("k", 64))}, Thresholds: lenient}, &graphstore.Health{DB: db}, db)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(s.Handler())
		defer srv.Close()
		var v analysis.Triage
		if code := (&client{tb: t, base: srv.URL}).getJSON(run, &v); code != 200 {
			t.Fatal(code)
		}
		for _, p := range v.Pairs {
			if p.Failing != 0 {
				t.Errorf("%s: %d failing with every threshold at its lenient end", p.Pair, p.Failing)
			}
		}
		for _, x := range v.Thresholds {
			if x.Metric == "contradiction" && (x.Value != 1 || !strings.HasPrefix(x.Direction, "lower")) {
				t.Errorf("threshold %+v", x)
			}
		}
	})
	t.Run("Pages", func(t *testing.T) {
		resp, body := c.get("/runs/" + url.PathEscape(r.Name))
		if resp.StatusCode != 200 {
			t.Fatal(resp.StatusCode)
		}
		tri, cards := strings.Index(body, `<section id="triage"`), strings.Index(body, `class="cards"`)
		if tri < 0 || cards < 0 || tri > cards {
			t.Errorf("triage at %d, cards at %d: want the triage first", tri, cards)
		}
		if !strings.Contains(body, `data-min-n="10"`) || !strings.Contains(body, `/help/metrics?run=`) {
			t.Error("run page without min_n or the metrics help link")
		}
		resp, body = c.get("/help/metrics?run=" + url.QueryEscape(r.Name))
		if resp.StatusCode != 200 {
			t.Fatal(resp.StatusCode)
		}
		for _, want := range []string{`id="metric-multihop"`, "share of input entities that reach a context entity by a path of cost &lt;= delta",
			"τ 0.7 (SIMILAR edges), δ 0.5 (path cost)", "≤ 0.000", "fewer than 10 samples"} {
			if !strings.Contains(body, want) {
				t.Errorf("/help/metrics lacks %q", want)
			}
		}
		if resp, _ := c.get("/help/metrics?run=no-such-run"); resp.StatusCode != 404 {
			t.Errorf("unknown run: %d", resp.StatusCode)
		}
	})
	t.Run("Bad", func(t *testing.T) {
		var e map[string]string
		for _, q := range []string{"sort=ts_groundedness_avg", "order=up", "min=abc", "min=0.2", "limit=100000", "pair=nope", "limit=x"} {
			if code := c.getJSON(run+"?"+q, &e); code != 400 || e["code"] != kgeval.EINVALID {
				t.Errorf("%s: %d %v", q, code, e)
			}
		}
		if code := c.getJSON("/api/runs/no-such-run/triage", &e); code != 404 {
			t.Errorf("unknown run: %d", code)
		}
	})
}
