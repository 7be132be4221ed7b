package web_test

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/scoring/claims"
)

// TestServer_SampleClaims reads the claims of stored samples through the
// API and the sample page: each claim of the faithfulness pair with its
// calibrated score and verdict, the model's P(supported), conflicts and
// evidence sentences with the graph's why, lowest score first; a claim
// holding markup and a 5,000-character word stays text and stays in its
// table cell, where it wraps.
func TestServer_SampleClaims(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	r := graphstoretest.MustWebRun(t, db, 3)
	word := strings.Repeat("W", 5000)
	hostile := "<script>window.__claim = 1</script><img src=x onerror=alert(2)> " + word + " \u202Eexe.png"
	MustClaims(t, db, r, hostile)
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	api := &client{tb: t, base: srv.URL, token: testToken}
	browser := &client{tb: t, base: srv.URL}
	browser.signIn()
	sample := func(id string) string { return "/runs/" + url.PathEscape(r.Name) + "/samples/" + url.PathEscape(id) }

	t.Run("API", func(t *testing.T) {
		var v analysis.SampleView
		if code := api.getJSON("/api"+sample("s01"), &v); code != 200 {
			t.Fatal(code)
		}
		var claims []kgeval.ClaimCheck
		for _, p := range v.Pairs {
			if p.Pair.Name == "faithfulness" && p.Score != nil {
				claims = p.Score.Claims
			}
		}
		if len(claims) != 2 || claims[1].Text != hostile || claims[1].Model == nil || claims[1].Model.P != 0.123 || claims[1].Evidence[0].Text != "the evidence "+hostile {
			t.Errorf("stored claims: %+v", claims)
		}
	})

	// claimsSection returns the claims section of a sample page and its rows'
	// verdicts in order.
	claimsSection := func(t *testing.T, id string) (string, []string) {
		t.Helper()
		resp, body := browser.get(sample(id))
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", id, resp.StatusCode)
		}
		start, why := strings.Index(body, `<section id="claims"`), strings.Index(body, `<section id="why"`)
		if start < 0 || why < start {
			t.Fatalf("%s: no claims section above the why", id)
		}
		sec := body[start:why]
		var verdicts []string
		for _, m := range regexp.MustCompile(`<tr class="claim-line" data-verdict="([a-z]+)"`).FindAllStringSubmatch(sec, -1) {
			verdicts = append(verdicts, m[1])
		}
		return sec, verdicts
	}

	t.Run("Page", func(t *testing.T) {
		// s00: its second claim (0.92) passes, first (0.6) comes first; the
		// conflict of every third sample is shown all the same. s01: 0.15 is
		// unsupported, first.
		sec, verdicts := claimsSection(t, "s00")
		if !slices.Equal(verdicts, []string{"supported", "supported"}) {
			t.Errorf("s00 verdicts %v", verdicts)
		}
		for _, want := range []string{
			`<div class="claim-pair" id="claims-faithfulness" data-pair="faithfulness">`,
			`<span class="why-score" data-metric="score">score <b>0.760</b></span>`,
			fmt.Sprintf(`2 of 2 claims supported · pass mark ≥ %.3f (calibrated)`, noModelPassMark(t)),
			`<td class="claim-text"><bdi>answer 0 claims 0</bdi><div class="claim-conflict"><span class="badge conflict">conflict</span> date <q><bdi>2014</bdi></q>, the evidence says <q><bdi>2010</bdi></q> in <q><bdi>c2</bdi></q></div>`,
			`<li><span class="muted">passage 1:</span> <q><bdi>c1</bdi></q> <span class="muted claim-why">(<bdi>entity answer ~ answer 1.00; path</bdi>)</span></li>`,
			`<span class="muted">not asked</span>`,
			`words 1.00`,
		} {
			if !strings.Contains(sec, want) {
				t.Errorf("s00 claims lack %s", want)
			}
		}
		if strings.Contains(sec, "claims-answer_relevancy") {
			t.Error("claims shown for a question pair")
		}

		sec, verdicts = claimsSection(t, "s01")
		if !slices.Equal(verdicts, []string{"unsupported", "supported"}) {
			t.Errorf("s01 verdicts %v, want the unsupported claim first", verdicts)
		}
		if strings.Contains(sec, "<script>window.__claim") || strings.Contains(sec, "<img src=x") || strings.Contains(sec, "<b>other</b>") {
			t.Error("claim text rendered as HTML")
		}
		esc := "&lt;script&gt;window.__claim = 1&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt; " + word + " "
		for _, want := range []string{
			`<td class="claim-text"><bdi>` + esc + `<span class="invis"`,
			`<td class="claim-model"><b>0.123</b></td>`,
			`<q><bdi>the evidence ` + esc,
			`the evidence says <q><bdi>&lt;b&gt;other&lt;/b&gt;</bdi></q>`,
			`<span class="badge unsupported">unsupported</span> <b class="claim-score">0.150</b>`,
		} {
			if !strings.Contains(sec, want) {
				t.Errorf("s01 claims lack %.200s", want)
			}
		}
		// The word sits in a cell of the claims table, which wraps anywhere.
		if !regexp.MustCompile(`<table class="grid claim-table">[\s\S]*<td class="claim-text"><bdi>[^<]*` + word).MatchString(sec) {
			t.Error("the long word is not in a claim cell")
		}
		resp, css := browser.get("/assets/app.css")
		if resp.StatusCode != 200 || !strings.Contains(css, "table.claim-table, .claim-pair .why-scores { overflow-wrap: anywhere; }") {
			t.Error("app.css does not wrap the claims table anywhere")
		}
	})

	t.Run("NoClaims", func(t *testing.T) {
		// A run scored before claim checks: no claims section.
		w := graphstoretest.MustWebRun(t, db, 1)
		resp, body := browser.get("/runs/" + url.PathEscape(w.Name) + "/samples/s00")
		if resp.StatusCode != 200 || strings.Contains(body, `<section id="claims"`) {
			t.Errorf("%d: a claims section without claims", resp.StatusCode)
		}
	})
}

// noModelPassMark is the committed calibration's pass mark without the
// model (the stored claims of this test have no model answer).
func noModelPassMark(t *testing.T) float64 {
	t.Helper()
	c, err := claims.DefaultCalibration()
	if err != nil {
		t.Fatal(err)
	}
	return c.WithoutModel.PassMark
}
