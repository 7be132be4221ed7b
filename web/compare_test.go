package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/metricreg"
)

// mustCompareRun stores a run of the given dataset fingerprint and status
// with samples ids (question "question ID"), no scores.
func mustCompareRun(tb testing.TB, db *graphstore.DB, fingerprint, status string, ids ...string) string {
	tb.Helper()
	ctx := context.Background()
	name := fmt.Sprintf("test-compare-%s-%s-%d", strings.ReplaceAll(tb.Name(), "/", "_"), fingerprint, time.Now().UnixNano())
	pairs := []kgeval.Pair{{Name: "faithfulness", Input: kgeval.TextAnswer, Context: kgeval.TextContexts}}
	cfg, _ := json.Marshal(map[string]any{"Scoring": map[string]any{"Pairs": pairs, "Delta": 0.5, "Tau": 0.7, "Metrics": []string{"kg"}}})
	if err := db.CreateRun(ctx, kgeval.Run{Name: name, Dataset: fingerprint + ".jsonl", Fingerprint: fingerprint, Config: string(cfg), Engine: "native",
		Status: status, Samples: len(ids), Started: time.Now().UTC()}); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.DeleteRun(context.Background(), name) })
	var samples []kgeval.Sample
	for i, id := range ids {
		samples = append(samples, kgeval.Sample{ID: id, Record: i + 1, Question: "question " + id, Answer: "answer " + id, Reference: "ref", Contexts: []string{"c"}})
	}
	if err := db.WriteSamples(ctx, name, samples); err != nil {
		tb.Fatal(err)
	}
	return name
}

// TestServer_CompareRuns: the run comparison refuses A = A (API 400, page
// a refusal instead of a table) and warns, on the API and prominently on
// the page, when the runs come from different datasets or one is not
// finished; runs that share no sample still show the warnings and say why
// nothing is paired.
func TestServer_CompareRuns(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	c := &client{tb: t, base: srv.URL}
	c.signIn()
	a := mustCompareRun(t, db, "aaaaaaaaaaaaaaaa", kgeval.RunDone, "s1", "s2")
	b := mustCompareRun(t, db, "bbbbbbbbbbbbbbbb", kgeval.RunRunning, "s1", "s2")
	other := mustCompareRun(t, db, "cccccccccccccccc", kgeval.RunDone, "x1")
	q := func(a, b string) string { return "?a=" + url.QueryEscape(a) + "&b=" + url.QueryEscape(b) }

	t.Run("SameRunRefused", func(t *testing.T) {
		resp, body := c.get("/api/compare" + q(a, a))
		if resp.StatusCode != 400 || !strings.Contains(body, "compare two different runs") {
			t.Errorf("API: %d %s", resp.StatusCode, body)
		}
		resp, body = c.get("/compare" + q(a, a))
		if resp.StatusCode != 200 || !strings.Contains(body, `id="compare-refused"`) || !strings.Contains(body, "a run compared with itself shows no change") ||
			strings.Contains(body, `id="compare-samples"`) || strings.Contains(body, `id="compare-metrics"`) {
			t.Errorf("page: %d %.2000s", resp.StatusCode, body)
		}
	})
	t.Run("Warnings", func(t *testing.T) {
		var v analysis.CompareView
		if code := c.getJSON("/api/compare"+q(a, b), &v); code != 200 || v.Paired == nil || v.Paired.Pairs != 2 {
			t.Fatalf("%d %+v", code, v)
		}
		kinds := map[string]string{}
		for _, w := range v.Warnings {
			kinds[w.Kind] = w.Message
		}
		if !strings.Contains(kinds["dataset"], "different datasets") || !strings.Contains(kinds["status"], "not finished") {
			t.Errorf("warnings: %+v", v.Warnings)
		}
		resp, body := c.get("/compare" + q(a, b))
		if resp.StatusCode != 200 || !strings.Contains(body, `id="compare-warnings"`) || !strings.Contains(body, `<li data-kind="dataset">`) ||
			!strings.Contains(body, `<li data-kind="status">`) || !strings.Contains(body, "is not finished (status running)") {
			t.Errorf("page: %d %.3000s", resp.StatusCode, body)
		}
	})
	t.Run("NothingPaired", func(t *testing.T) {
		var v analysis.CompareView
		if code := c.getJSON("/api/compare"+q(a, other), &v); code != 200 || v.Paired != nil || !strings.Contains(v.Unpaired, "share no sample id") {
			t.Fatalf("%d %+v", code, v)
		}
		if len(v.Warnings) == 0 || v.Warnings[0].Kind != "dataset" {
			t.Errorf("warnings: %+v", v.Warnings)
		}
		_, body := c.get("/compare" + q(a, other))
		if !strings.Contains(body, `id="compare-unpaired"`) || !strings.Contains(body, `id="compare-warnings"`) {
			t.Errorf("page: %.3000s", body)
		}
	})
	t.Run("RegressedMost", func(t *testing.T) {
		// Two runs of the same samples; in B one sample's faithfulness
		// multihop is lowered: it is the one regression, with both values
		// and answers, links to both sample pages, and no dataset warning.
		ra, rb := graphstoretest.MustWebRun(t, db, 4), graphstoretest.MustWebRun(t, db, 4)
		var id string
		var res kgeval.KGResult
		for _, s := range rb.Samples {
			if x := rb.Results[s.ID]["faithfulness"]; x.Value(metricreg.MetricMultihop) != nil && *x.Value(metricreg.MetricMultihop) > 0 {
				id, res = s.ID, x
				break
			}
		}
		if id == "" {
			t.Fatal("no sample with a faithfulness multihop above 0")
		}
		was := *res.Value(metricreg.MetricMultihop)
		res.SetValue(metricreg.MetricMultihop, kgeval.Float(0))
		if err := db.WriteKGResults(context.Background(), rb.Name, kgeval.DefaultVariant, "native", kgeval.DefaultGraphParams(), []kgeval.KGResult{res}); err != nil {
			t.Fatal(err)
		}
		var v analysis.CompareView
		if code := c.getJSON("/api/compare"+q(ra.Name, rb.Name)+"&pair=faithfulness&metric=multihop", &v); code != 200 || v.Chosen == nil {
			t.Fatalf("%d %+v", code, v)
		}
		if v.Chosen.Regressed != 1 || len(v.Regressed) != 1 || len(v.Warnings) != 0 {
			t.Fatalf("chosen %+v, regressed %+v, warnings %+v", v.Chosen, v.Regressed, v.Warnings)
		}
		r := v.Regressed[0]
		if r.ID != id || r.AID != id || r.Baseline != was || r.Run != 0 || r.Diff != -was || r.AnswerA == "" || r.AnswerA != r.AnswerB {
			t.Errorf("regressed: %+v (want %s from %v)", r, id, was)
		}
		_, body := c.get("/compare" + q(ra.Name, rb.Name) + "&pair=faithfulness&metric=multihop")
		for _, want := range []string{`id="compare-regressed"`, `href="/runs/` + url.PathEscape(ra.Name) + `/samples/` + id + `"`,
			`href="/runs/` + url.PathEscape(rb.Name) + `/samples/` + id + `"`, `<td class="answer">` + r.AnswerA + `</td>`, `<tr data-metric="faithfulness.multihop" class="chosen">`} {
			if !strings.Contains(body, want) {
				t.Errorf("page lacks %s", want)
			}
		}
		if strings.Contains(body, `id="compare-warnings"`) {
			t.Error("warnings for two runs of the same settings")
		}
	})
	t.Run("UnknownRun", func(t *testing.T) {
		if resp, body := c.get("/api/compare" + q(a, "no-such-run")); resp.StatusCode != 404 {
			t.Errorf("%d %s", resp.StatusCode, body)
		}
	})
}
