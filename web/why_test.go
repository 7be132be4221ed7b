package web_test

import (
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// TestServer_Why reads the why of samples with triplet verdicts through the
// API and the sample page: every input triplet's verdict with its evidence
// sentence, contradictions first, and the triplets the grounding check
// dropped; hostile text stays text and stays in its place.
func TestServer_Why(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	r := graphstoretest.MustVerdictRun(t, db)
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	api := &client{tb: t, base: srv.URL, token: testToken}
	browser := &client{tb: t, base: srv.URL}
	browser.signIn()
	sample := func(id string) string { return "/runs/" + url.PathEscape(r.Name) + "/samples/" + url.PathEscape(id) }
	textsOf := func(id string) analysis.SampleTexts {
		for _, s := range r.Samples {
			if s.ID == id {
				return analysis.SampleTexts{Question: s.Question, Answer: s.Answer, Reference: s.Reference, Contexts: s.Contexts}
			}
		}
		t.Fatalf("no sample %s", id)
		return analysis.SampleTexts{}
	}
	// section returns the why section of a sample page, and its rows'
	// verdict classes in order.
	section := func(t *testing.T, id string) (string, []string) {
		t.Helper()
		resp, body := browser.get(sample(id))
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", id, resp.StatusCode)
		}
		if strings.Contains(body, "<script>alert(1)") || strings.Contains(body, "<b>the Moon") {
			t.Errorf("%s: sample text rendered as HTML", id)
		}
		start, texts := strings.Index(body, `<section id="why"`), strings.Index(body, `<section class="texts">`)
		if start < 0 || texts < start {
			t.Fatalf("%s: no why section above the texts", id)
		}
		why := body[start : start+strings.Index(body[start:], "</section>")]
		var classes []string
		for _, m := range regexp.MustCompile(`<tr class="why-line" data-verdict="([a-z_]+)"`).FindAllStringSubmatch(why, -1) {
			classes = append(classes, m[1])
		}
		return why, classes
	}

	t.Run("API", func(t *testing.T) {
		const id = "v07-mixed"
		var v analysis.SampleView
		if code := api.getJSON("/api"+sample(id), &v); code != 200 || v.SampleDetail == nil || v.ID != id {
			t.Fatalf("%d %+v", code, v)
		}
		want := analysis.WhyLines(textsOf(id), r.Settings.Pairs, r.Results[id])
		if !reflect.DeepEqual(v.Why, want) {
			t.Errorf("why:\n got %+v\nwant %+v", v.Why, want)
		}
		first := v.Why[0]
		if first.Verdict != kgeval.VerdictContradicted || first.Triplet != "(a; s; 2010)" || first.Evidence != "(a; s; 2011)" ||
			first.Source != "passage 2" || first.Sentence != "a s 2011." {
			t.Errorf("first line: %+v", first)
		}
		if len(v.Pairs) != 2 || v.Pairs[0].Score == nil || !reflect.DeepEqual(v.Pairs[0].Score.Verdicts, r.Results[id]["faithfulness"].Verdicts) {
			t.Errorf("stored verdicts: %+v", v.Pairs)
		}
		if len(v.Grounding) != 2 || len(v.Grounding[0].Dropped) != 1 || v.Grounding[0].Dropped[0].Object != "the Moon" ||
			!strings.Contains(v.Grounding[0].Dropped[0].Reason, `"the Moon"`) {
			t.Errorf("grounding: %+v", v.Grounding)
		}
		// Without a grounding check, an empty list.
		w := graphstoretest.MustWebRun(t, db, 1)
		var raw map[string]any
		if code := api.getJSON("/api/runs/"+url.PathEscape(w.Name)+"/samples/s00", &raw); code != 200 || raw["why"] == nil || !reflect.DeepEqual(raw["grounding"], []any{}) {
			t.Errorf("a sample without a grounding check: %d why %v grounding %v", code, raw["why"], raw["grounding"])
		}
	})

	t.Run("Page", func(t *testing.T) {
		why, classes := section(t, "v07-mixed")
		// faithfulness: the contradiction, the two not found, the supported
		// one; then answer_relevancy's answered asked fact.
		if want := []string{"contradicted", "not_found", "not_found", "supported", "answered"}; !slices.Equal(classes, want) {
			t.Errorf("rows %v, want %v", classes, want)
		}
		for _, s := range []string{
			`<span class="badge contradicted">contradicted</span>`,
			`<td class="why-triplet"><bdi>(a; s; 2010)</bdi></td>`,
			`<mark><bdi>a s 2011.</bdi></mark>`,
			`<span class="why-score" data-metric="contradiction">contradiction <span class="muted" title="lower is better">↓</span> <b>0.250</b></span>`,
			`<span class="why-score" data-metric="slot_coverage">slot_coverage <b>1.000</b></span>`,
			`<td class="why-triplet"><del><bdi>(a; is sold on; the Moon)</bdi></del></td>`,
			`object &#34;the Moon&#34; does not occur`,
		} {
			if !strings.Contains(why, s) {
				t.Errorf("why section lacks %s", s)
			}
		}
		// recall and F1 apply only against the reference: left out.
		if strings.Contains(why, `data-metric="recall"`) {
			t.Error("recall shown for a pair against the contexts")
		}
	})

	t.Run("SentenceEvidence", func(t *testing.T) {
		why, classes := section(t, "v03-relationmismatch")
		if !slices.Equal(classes, []string{"supported", "answered"}) {
			t.Errorf("rows %v", classes)
		}
		for _, s := range []string{`<span class="badge supported">supported (sentence)</span>`, `<span class="muted">a sentence</span>`,
			`<mark><bdi>Ada died in London.</bdi></mark>`, `data-metric="support_text">support_text <b>1.000</b>`} {
			if !strings.Contains(why, s) {
				t.Errorf("why section lacks %s", s)
			}
		}
	})

	t.Run("Conflict", func(t *testing.T) {
		why, classes := section(t, "v05-supportedandcontradicted")
		if len(classes) == 0 || classes[0] != "conflict" || !strings.Contains(why, `<span class="badge conflict">supported · conflict</span>`) {
			t.Errorf("rows %v", classes)
		}
	})

	t.Run("NoVerdicts", func(t *testing.T) {
		why, classes := section(t, "v09-emptycontext")
		if !slices.Equal(classes, []string{"answered"}) || !strings.Contains(why, "No triplet verdict: <bdi>no triplets extracted from context</bdi>.") {
			t.Errorf("rows %v in %s", classes, why)
		}
	})

	t.Run("HostileText", func(t *testing.T) {
		why, classes := section(t, graphstoretest.HostileSample)
		if len(classes) == 0 || classes[0] != "contradicted" {
			t.Fatalf("rows %v", classes)
		}
		markup := strings.ReplaceAll(strings.ReplaceAll(graphstoretest.HostileMarkup, "<", "&lt;"), ">", "&gt;")
		// The right-to-left override is shown as a marker, never applied.
		const rlo = `<span class="invis" title="invisible character U+202E RIGHT-TO-LEFT OVERRIDE">⟨U+202E⟩</span>`
		made := strings.ReplaceAll(graphstoretest.HostileRLO, "\u202e", rlo)
		for _, s := range []string{
			"<bdi>(" + markup + "; " + made + "; 2014)</bdi>",
			"<mark><bdi>" + markup + " " + made + " 2010 " + graphstoretest.HostileWord + ".</bdi></mark>",
			"<del><bdi>(" + markup + "; is sold " + rlo + "on; &lt;b&gt;the Moon&lt;/b&gt;)</bdi></del>",
		} {
			if !strings.Contains(why, s) {
				t.Errorf("why section lacks %.200q", s)
			}
		}
		if k := strings.Index(why, "\u202e"); k >= 0 {
			t.Errorf("a raw U+202E at %.80q", why[max(0, k-60):k])
		}
	})

	t.Run("SortByContradiction", func(t *testing.T) {
		var p readmodel.SamplePage
		if code := api.getJSON("/api/runs/"+url.PathEscape(r.Name)+"/samples?pair=faithfulness&metric=contradiction&sort=score&order=desc", &p); code != 200 || p.Total != len(r.Samples) {
			t.Fatalf("%d %+v", code, p)
		}
		var got []float64
		for _, row := range p.Samples {
			x := row.Scores["faithfulness"]
			if x == nil {
				t.Fatalf("%s: no faithfulness score", row.ID)
			}
			if x.Value(metricreg.MetricContradiction) != nil {
				got = append(got, *x.Value(metricreg.MetricContradiction))
			} else if row.ID != "v09-emptycontext" {
				t.Errorf("%s: contradiction null (%s)", row.ID, x.ReasonFor(metricreg.MetricContradiction))
			}
		}
		if len(got) != len(r.Samples)-1 || got[0] != 1 || !slices.IsSortedFunc(got, func(a, b float64) int { return int(b*100) - int(a*100) }) ||
			p.Samples[len(p.Samples)-1].ID != "v09-emptycontext" {
			t.Errorf("not most contradicted first, null last: %v (last %s)", got, p.Samples[len(p.Samples)-1].ID)
		}
		// The run page offers the sort and knows which metrics are per pair
		// and lower-is-better.
		_, body := browser.get("/runs/" + url.PathEscape(r.Name))
		for _, s := range []string{`id="sort-contradiction"`, `<option>contradiction</option>`, `"lower":["claim_contradiction","contradiction","contradiction_text","contradiction_verified"]`} {
			if !strings.Contains(body, s) {
				t.Errorf("run page lacks %s", s)
			}
		}
	})

	t.Run("ENOTFOUND", func(t *testing.T) {
		if resp, body := browser.get(sample("nope")); resp.StatusCode != 404 || !strings.Contains(body, "no sample") {
			t.Errorf("%d", resp.StatusCode)
		}
	})
}
