package web_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/web"
)

// claimScores are the calibrated scores of the second claim of each
// sample's faithfulness in MustClaims (the first is supported).
var claimScores = []float64{0.92, 0.15, 0.61, 0.4, 0.05, 0.75, 0.3, 0.55}

// MustClaims stores claim checks on the faithfulness pair of r's samples
// (rewriting their stored results): two claims each, the first supported
// (0.6), the second at claimScores[i] with its verdict against the calibrated pass
// mark without the model (contradicted, with a conflict, for every third
// sample), and the pair's score, score_min and claim_contradiction from
// them. hostile, if set, replaces sample s01's second claim text, evidence
// and conflict with markup and a 5,000-character word.
func MustClaims(tb testing.TB, db *graphstore.DB, r *graphstoretest.WebRun, hostile string) {
	tb.Helper()
	mark := analysis.PassMark(metricreg.MetricClaimScore, false)
	var results []kgeval.KGResult
	for i, smp := range r.Samples {
		res := r.Results[smp.ID]["faithfulness"]
		sc := claimScores[i%len(claimScores)]
		second := kgeval.ClaimCheck{Text: fmt.Sprintf("answer %d claims %d", i, i), Score: sc, Verdict: kgeval.ClaimUnsupported, EvidenceMode: "graph",
			Features: map[string]float64{kgeval.FeatureOverlap: sc, kgeval.FeatureConflict: 0},
			Evidence: []kgeval.ClaimEvidence{{Passage: 1, Text: "c2", Weight: 0.4, Why: []string{"words"}}}}
		if i%3 == 0 {
			second.Conflicts = []kgeval.ClaimConflict{{Kind: "date", Claim: "2014", Evidence: "2010", Sentence: "c2"}}
			second.Features[kgeval.FeatureConflict] = 1
		}
		switch {
		case sc >= mark:
			second.Verdict = kgeval.ClaimSupported
		case len(second.Conflicts) > 0:
			second.Verdict = kgeval.ClaimContradicted
		}
		if smp.ID == "s01" && hostile != "" {
			second.Text = hostile
			second.Evidence = []kgeval.ClaimEvidence{{Passage: 0, Text: "the evidence " + hostile, Why: []string{"entity " + hostile + " ~ x 0.90"}}}
			second.Conflicts = []kgeval.ClaimConflict{{Kind: "name", Claim: hostile, Evidence: "<b>other</b>", Sentence: hostile}}
			second.Model = &kgeval.ClaimProb{P: 0.123, Chunks: 1}
		}
		first := kgeval.ClaimCheck{Text: fmt.Sprintf("answer %d is fine", i), Score: 0.6, Verdict: kgeval.ClaimSupported, EvidenceMode: "whole",
			Features: map[string]float64{kgeval.FeatureOverlap: 1},
			Evidence: []kgeval.ClaimEvidence{{Passage: 0, Text: "c1", Weight: 1, Why: []string{"entity answer ~ answer 1.00", "path"}}}}
		res.Claims = []kgeval.ClaimCheck{first, second}
		contra := 0.0
		if len(second.Conflicts) > 0 {
			contra = 0.5
		}
		res.SetValue(metricreg.MetricClaimScore, kgeval.Float((0.6+sc)/2))
		res.SetValue(metricreg.MetricClaimScoreMin, kgeval.Float(min(0.6, sc)))
		res.SetValue(metricreg.MetricClaimContradiction, kgeval.Float(contra))
		delete(res.Reasons, metricreg.MetricClaimScore)
		r.Results[smp.ID]["faithfulness"] = res
		results = append(results, res)
	}
	if err := db.WriteKGResults(context.Background(), r.Name, kgeval.DefaultVariant, "native", kgeval.DefaultGraphParams(), results); err != nil {
		tb.Fatal(err)
	}
}

// TestServer_Triage checks GET /api/runs/:run/triage against the scores
// the test run was stored with: every cell's value and pass mark, the
// failing counts (the headline alone), worst first, the filters, the
// column sort, the why of the first failing rows (the claims that are not
// supported), configured thresholds and bad queries.
func TestServer_Triage(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	r := graphstoretest.MustWebRun(t, db, 8)
	MustClaims(t, db, r, "")
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	c := &client{tb: t, base: srv.URL, token: testToken}
	run := "/api/runs/" + url.PathEscape(r.Name) + "/triage"
	th := analysis.DefaultThresholds()
	pairOf := map[string]kgeval.Pair{}
	for _, p := range r.Settings.Pairs {
		pairOf[p.Name] = p
	}

	// failing is 1 when the headline of a stored result fails its pass mark
	// (the other scores are diagnostics).
	failing := func(res kgeval.KGResult, pair string, th map[string]float64) int {
		m := analysis.Headline(pairOf[pair])
		if !analysis.HasMark(pairOf[pair], m) {
			return 0 // no fitted mark: never fails
		}
		if v := res.Value(m); v != nil && !analysis.Passes(m, *v, th[m]) {
			return 1
		}
		return 0
	}
	head0 := func(pair string) string { return analysis.Headline(pairOf[pair]) }
	check := func(t *testing.T, v *analysis.Triage, th map[string]float64, system string) {
		t.Helper()
		if len(v.Pairs) != 2 || v.Samples != 8 || v.Tau != 0.7 || v.Delta != 0.5 {
			t.Fatalf("pairs %d samples %d tau %v delta %v", len(v.Pairs), v.Samples, v.Tau, v.Delta)
		}
		for _, p := range v.Pairs {
			markOK := p.PassMark == nil
			if analysis.HasMark(pairOf[p.Pair], p.Headline) {
				markOK = p.PassMark != nil && *p.PassMark == th[head0(p.Pair)]
			}
			if head := analysis.Headline(pairOf[p.Pair]); p.Headline != head || len(p.Columns) == 0 || p.Columns[0] != head || !markOK {
				t.Errorf("%s: headline %q pass mark %v columns %v, want %s first at %v", p.Pair, p.Headline, p.PassMark, p.Columns, head, th[head])
			}
			want, wantFailing := 0, 0
			for _, s := range r.Samples {
				if system == "" || s.System == system {
					want++
					if failing(r.Results[s.ID][p.Pair], p.Pair, th) > 0 {
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
				if row.Failing != failing(res, p.Pair, th) || i > 0 && p.Rows[i-1].Failing < row.Failing {
					t.Errorf("%s %s: failing %d, want %d, worst first", p.Pair, row.ID, row.Failing, failing(res, p.Pair, th))
				}
				if i > 0 && p.Rows[i-1].Failing == row.Failing && row.Cells[0].Value != nil && (p.Rows[i-1].Cells[0].Value == nil || *p.Rows[i-1].Cells[0].Value > *row.Cells[0].Value) {
					t.Errorf("%s %s: headline %v after %v, want the lowest first", p.Pair, row.ID, *row.Cells[0].Value, p.Rows[i-1].Cells[0].Value)
				}
				for ci, cell := range row.Cells {
					v := res.Value(cell.Metric)
					// A headline without a fitted mark shows its value, no pass.
					noMark := ci == 0 && !analysis.HasMark(pairOf[p.Pair], cell.Metric)
					switch {
					case noMark && (v == nil) != (cell.Value == nil), noMark && cell.Pass != nil:
						t.Errorf("%s %s %s: %+v, want %v and no pass (no fitted mark)", p.Pair, row.ID, cell.Metric, cell, v)
					case noMark:
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
				if len(row.Why) > 0 || len(row.Nearest) > 0 || len(row.Claims) > 0 {
					explained++
					if row.Failing == 0 {
						t.Errorf("%s %s: a passing row explained", p.Pair, row.ID)
					}
				}
				for _, cl := range row.Claims {
					if cl.Verdict == kgeval.ClaimSupported || p.Pair != "faithfulness" || cl.Evidence != "c2" {
						t.Errorf("%s %s: claim line %+v is not a failing claim with its evidence", p.Pair, row.ID, cl)
					}
				}
				if p.Pair == "faithfulness" && row.Failing > 0 && len(row.Why)+len(row.Nearest) > 0 {
					t.Errorf("%s %s: a row failing on its claims explained by facts or entities", p.Pair, row.ID)
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
		if v.Pairs[0].Pair != "faithfulness" || v.Pairs[0].Failing == 0 || v.Pairs[0].Rows[0].Failing == 0 || len(v.Pairs[0].Rows[0].Claims) == 0 {
			t.Errorf("faithfulness: want failing rows, the first with its unsupported claims: %+v", v.Pairs[0])
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
		col := slices.Index(v.Pairs[0].Columns, "multihop")
		if col < 1 || len(v.Pairs[0].Rows) == 0 {
			t.Fatalf("columns %v, %d rows", v.Pairs[0].Columns, len(v.Pairs[0].Rows))
		}
		for _, row := range v.Pairs[0].Rows {
			x := row.Cells[col].Value
			if row.Cells[col].Metric != "multihop" || x == nil || *x > prev || *x < 0.1 {
				t.Errorf("row %s: %+v not in range or not descending", row.ID, row.Cells[col])
			}
			prev = *x
		}
	})
	t.Run("Thresholds", func(t *testing.T) {
		lenient := map[string]float64{"score": 0, "multihop": 0, "community_overlap": 0, "support": 0, "contradiction": 1, "slot_coverage": 0, "recall": 0, "f1": 0}
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
		// Strict diagnostics alone fail no row: only the headline counts.
		strict := map[string]float64{"multihop": 1, "community_overlap": 1, "support": 1, "contradiction": 0, "recall": 1, "f1": 1}
		s, err = web.NewServer(web.Config{Version: "test", Auth: web.AuthConfig{Disabled: true, SessionKey: []byte(strings.Repeat("k", 64))}, Thresholds: strict}, &graphstore.Health{DB: db}, db)
		if err != nil {
			t.Fatal(err)
		}
		srv2 := httptest.NewServer(s.Handler())
		defer srv2.Close()
		if code := (&client{tb: t, base: srv2.URL}).getJSON(run+"?limit=50", &v); code != 200 {
			t.Fatal(code)
		}
		merged := analysis.DefaultThresholds()
		for k, x := range strict {
			merged[k] = x
		}
		check(t, &v, merged, "")
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
		if !strings.Contains(body, `<p class="muted" id="triage-rule">Each pair is judged by its <strong>headline</strong>`) || !strings.Contains(body, "The other columns are diagnostics") {
			t.Error("run page does not say that the headline decides failing")
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

// TestServer_RunPageLedger: the run page shows the run's model cost per
// stage and pair (issue 50), and says so when none was recorded.
func TestServer_RunPageLedger(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	r, old := graphstoretest.MustWebRun(t, db, 2), graphstoretest.MustWebRun(t, db, 2)
	l := kgeval.Ledger{}
	l.Set("claims", "faithfulness", kgeval.LedgerEntry{Requests: 6, CacheHits: 2, PromptTokens: 1920, CompletionTokens: 6, CachedPromptTokens: 640, Seconds: 130.7})
	l.Set("extract", kgeval.LedgerAll, kgeval.LedgerEntry{Requests: 3, PromptTokens: 900, CompletionTokens: 100})
	if err := db.UpdateRun(context.Background(), r.Name, kgeval.RunUpdate{Ledger: l}); err != nil {
		t.Fatal(err)
	}
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	c := &client{tb: t, base: srv.URL, token: testToken}
	if _, body := c.get("/runs/" + url.PathEscape(old.Name)); !strings.Contains(body, "No model cost recorded") {
		t.Errorf("a run without a ledger: the page does not say so")
	}
	_, body := c.get("/runs/" + url.PathEscape(r.Name))
	for _, want := range []string{`id="ledger"`, "<td>claims</td><td>faithfulness</td><td class=\"n\">6</td><td class=\"n\">2</td><td class=\"n\">1920</td>",
		"<td class=\"n\">130.7</td><td class=\"n\">2608</td>", "all pairs"} {
		if !strings.Contains(body, want) {
			i := strings.Index(body, `id="ledger"`)
			t.Errorf("run page: no %q in %s", want, body[max(i, 0):min(max(i, 0)+1500, len(body))])
		}
	}
}
