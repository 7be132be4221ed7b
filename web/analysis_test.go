package web_test

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/stats"
)

// MustScoredRun stores a finished run of samples with the metric values
// scores and no pair graph, under a name made from tb's and suffix; it
// deletes the run when the test ends.
func MustScoredRun(tb testing.TB, db *graphstore.DB, name string, samples []kgeval.Sample, scores []kgeval.MetricScore) string {
	tb.Helper()
	ctx := context.Background()
	if err := db.CreateRun(ctx, kgeval.Run{Name: name, Engine: "native", Status: kgeval.RunDone, Samples: len(samples), Started: time.Now().UTC()}); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := db.DeleteRun(context.Background(), name); err != nil {
			tb.Errorf("cleanup %s: %v", name, err)
		}
	})
	if err := db.WriteSamples(ctx, name, samples); err != nil {
		tb.Fatal(err)
	}
	if err := db.WriteMetricScores(ctx, name, scores); err != nil {
		tb.Fatal(err)
	}
	return name
}

func testRunName(tb testing.TB) string {
	return fmt.Sprintf("test-web-%s-%d", strings.ReplaceAll(tb.Name(), "/", "_"), time.Now().UnixNano())
}

// judged is one sample's values for the systems test: semantic_similarity,
// factual_accuracy (with its explanation's grade, if any) and answer_class
// (with its explanation's class, if any).
type judged struct {
	system, question string
	sem              float64
	fa               *float64
	grade, class     string
}

func judgedScores(id string, j judged) []kgeval.MetricScore {
	sem := kgeval.MetricScore{Sample: id, Metric: "semantic_similarity", Family: metricreg.FamilyRAGAS, Value: kgeval.Float(j.sem)}
	fa := kgeval.MetricScore{Sample: id, Metric: "factual_accuracy", Family: metricreg.FamilyRAGAS, Value: j.fa}
	if j.fa == nil {
		fa.Reason = "no reference"
	}
	if j.grade != "" {
		fa.Explanation = []byte(fmt.Sprintf(`{"correctness":5,"completeness":5,"consistency":5,"score":50,"grade":%q,"reasoning":"r"}`, j.grade))
	}
	out := []kgeval.MetricScore{sem, fa}
	if j.class != "" {
		v := 0.0
		if j.class == "CORRECT" {
			v = 1
		}
		out = append(out, kgeval.MetricScore{Sample: id, Metric: "answer_class", Family: metricreg.FamilyRAGAS, Value: &v,
			Explanation: []byte(fmt.Sprintf(`{"class":%q,"by":"model"}`, j.class))})
	}
	return out
}

// TestServer_Systems compares the systems of a run whose systems good and
// poor answered the same three questions and solo two others, against
// numbers worked out here: means, best and worst, grades (the explanation's
// grade before the score's), classes, paired and Welch tests, win rates.
func TestServer_Systems(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	f := kgeval.Float
	data := map[string]judged{
		"good-0": {"good", "q0", 90, f(90), "A", "CORRECT"},
		"good-1": {"good", "q1", 80, f(85), "", "CORRECT"},  // grade A from the score
		"good-2": {"good", "q2", 70, f(50), "B", "CORRECT"}, // the explanation's B, not C from the score
		"poor-0": {"poor", "q0", 40, f(30), "D", "DONT_KNOW"},
		"poor-1": {"poor", "q1", 85, nil, "", "WRONG"},
		"poor-2": {"poor", "q2", 10, f(10), "", "WRONG"},
		"solo-0": {"solo", "q8", 50, nil, "", ""},
		"solo-1": {"solo", "q9", 60, nil, "", ""},
	}
	var samples []kgeval.Sample
	var scores []kgeval.MetricScore
	for i, id := range []string{"good-0", "good-1", "good-2", "poor-0", "poor-1", "poor-2", "solo-0", "solo-1"} {
		j := data[id]
		samples = append(samples, kgeval.Sample{ID: id, Record: i + 1, Question: j.question, Answer: "a " + id, Contexts: []string{"c"}, System: j.system})
		scores = append(scores, judgedScores(id, j)...)
	}
	name := MustScoredRun(t, db, testRunName(t), samples, scores)
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	c := &client{tb: t, base: srv.URL, token: testToken}
	path := "/api/runs/" + url.PathEscape(name) + "/systems"

	t.Run("OK", func(t *testing.T) {
		var v analysis.SystemsView
		if code := c.getJSON(path, &v); code != 200 || v.Samples != 8 || len(v.Systems) != 3 {
			t.Fatalf("%d %+v", code, v)
		}
		good, poor, solo := v.Systems[0], v.Systems[1], v.Systems[2]
		if good.System != "good" || poor.System != "poor" || solo.System != "solo" {
			t.Fatalf("systems %s %s %s", good.System, poor.System, solo.System)
		}
		if fmt.Sprint(good.Grades) != "map[A:2 B:1]" || fmt.Sprint(poor.Grades) != "map[D:1 E:1]" || solo.Grades != nil {
			t.Errorf("grades: %v / %v / %v", good.Grades, poor.Grades, solo.Grades)
		}
		if fmt.Sprint(good.Classes) != "map[CORRECT:3]" || fmt.Sprint(poor.Classes) != "map[DONT_KNOW:1 WRONG:2]" || solo.Classes != nil {
			t.Errorf("classes: %v / %v / %v", good.Classes, poor.Classes, solo.Classes)
		}
		var sem int = -1
		for k, m := range good.Metrics {
			if m.Metric == "semantic_similarity" {
				sem = k
			}
		}
		if sem < 0 {
			t.Fatalf("no semantic_similarity in %+v", good.Metrics)
		}
		if m := good.Metrics[sem]; m.N != 3 || *m.Mean != 80 || m.Best.Sample != "good-0" || m.Best.Value != 90 || m.Worst.Sample != "good-2" || m.Worst.Value != 70 {
			t.Errorf("good semantic_similarity: %+v", m)
		}
		for _, m := range poor.Metrics {
			if m.Metric == "factual_accuracy" && (m.N != 2 || m.Null != 1 || *m.Mean != 20) {
				t.Errorf("poor factual_accuracy: %+v", m)
			}
		}
		for _, d := range v.Differences {
			if d.Metric != "semantic_similarity" {
				continue
			}
			a, b := []float64{90, 80, 70}, map[string][]float64{"poor": {40, 85, 10}, "solo": {50, 60}}[d.B]
			switch d.A + " " + d.B {
			case "good poor":
				w, _ := stats.WilcoxonSignedRank(a, b)
				pt, _ := stats.PairedT(a, b)
				if !d.Paired || d.N != 3 || d.Wins != 2 || d.Losses != 1 || d.Ties != 0 || d.WinRate == nil || math.Abs(*d.WinRate-2.0/3) > 1e-12 ||
					d.Wilcoxon == nil || d.Wilcoxon.P != w.P || d.PairedT == nil || d.PairedT.P != pt.P {
					t.Errorf("good vs poor: %+v (want Wilcoxon p %v, paired t p %v)", d, w.P, pt.P)
				}
			case "good solo":
				wt, _ := stats.WelchT(a, b)
				if d.Paired || d.N != 5 || d.Welch == nil || d.Welch.P != wt.P || d.WinRate != nil || d.Reasons["win_rate"] == "" {
					t.Errorf("good vs solo: %+v (want Welch p %v, no win rate)", d, wt.P)
				}
			}
		}
		if code := c.getJSON(path+"?select=semantic_similarity", &v); code != 200 || len(v.Systems[0].Metrics) != 1 || len(v.Differences) != 3 {
			t.Errorf("select: %d %+v", code, v)
		}
	})
	t.Run("EINVALID", func(t *testing.T) {
		var e map[string]string
		if code := c.getJSON(path+"?select=semantic_similarity,nope", &e); code != 400 || e["code"] != kgeval.EINVALID ||
			!strings.HasPrefix(e["error"], `select="semantic_similarity,nope": no variable of this run matches "nope"`) || !strings.Contains(e["error"], "answer_class") {
			t.Errorf("%d %v", code, e)
		}
	})
	t.Run("ENOTFOUND", func(t *testing.T) {
		var e map[string]string
		if code := c.getJSON("/api/runs/no-such-run/systems", &e); code != 404 || e["code"] != kgeval.ENOTFOUND {
			t.Errorf("%d %v", code, e)
		}
	})
	t.Run("Page", func(t *testing.T) {
		c := &client{tb: t, base: srv.URL}
		c.signIn()
		if resp, body := c.get("/runs/" + url.PathEscape(name)); resp.StatusCode != 200 || !strings.Contains(body, `id="systems-section"`) || !strings.Contains(body, `id="grade-chart"`) {
			t.Errorf("run page: %d", resp.StatusCode)
		}
	})
}

// TestServer_Sensitivity reads back a sensitivity experiment (three runs)
// and checks means, std, histograms, AUROC and Cohen's d against numbers
// computed here from the stored values; a metric whose name holds HTML is
// shown as text; an experiment with a run missing is 404.
func TestServer_Sensitivity(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	prefix := testRunName(t)
	odd := "<i>odd</i>"
	values := map[string]map[string][]*float64{ // variant -> metric -> per sample
		"original":            {"semantic_similarity": {kgeval.Float(80), kgeval.Float(70), kgeval.Float(60), nil}, odd: {kgeval.Float(0.5), nil, nil, nil}},
		"reference_as_answer": {"semantic_similarity": {kgeval.Float(100), kgeval.Float(95), kgeval.Float(90), kgeval.Float(85)}, odd: {kgeval.Float(0.9), kgeval.Float(0.2), nil, nil}},
		"wrong_answer":        {"semantic_similarity": {kgeval.Float(10), kgeval.Float(92), kgeval.Float(5), kgeval.Float(0)}, odd: {kgeval.Float(0.1), nil, nil, nil}},
	}
	for _, variant := range analysis.SensitivityVariants {
		run := prefix
		if variant != "original" {
			run += "-" + variant
		}
		var samples []kgeval.Sample
		var scores []kgeval.MetricScore
		for i := range 4 {
			id := fmt.Sprintf("s%d", i)
			samples = append(samples, kgeval.Sample{ID: id, Record: i + 1, Question: "q" + id, Answer: "a", Reference: "r", Contexts: []string{"c"}, System: variant})
			for metric, xs := range values[variant] {
				m := kgeval.MetricScore{Sample: id, Metric: metric, Family: metricreg.FamilyRAGAS, Value: xs[i]}
				if xs[i] == nil {
					m.Reason = "no value"
				}
				scores = append(scores, m)
			}
		}
		MustScoredRun(t, db, run, samples, scores)
	}
	srv, _ := MustServer(t, db, &graphstore.Health{DB: db})
	c := &client{tb: t, base: srv.URL, token: testToken}
	path := "/api/runs/" + url.PathEscape(prefix) + "/sensitivity"

	t.Run("OK", func(t *testing.T) {
		var v analysis.SensitivityView
		if code := c.getJSON(path, &v); code != 200 || v.Run != prefix || v.Bins != 10 || len(v.Runs) != 3 || v.Runs[2].Run != prefix+"-wrong_answer" || v.Runs[2].Samples != 4 || len(v.Metrics) != 2 {
			t.Fatalf("%d %+v", code, v)
		}
		for _, s := range v.Metrics {
			present := func(variant string) []float64 {
				var out []float64
				for _, x := range values[variant][s.Metric] {
					if x != nil {
						out = append(out, *x)
					}
				}
				return out
			}
			pos, neg := present("reference_as_answer"), present("wrong_answer")
			auc, _ := stats.AUROC(pos, neg)
			d, okD := stats.CohensD(pos, neg)
			if s.AUROC == nil || *s.AUROC != auc || okD != (s.CohensD != nil) || okD && *s.CohensD != d {
				t.Errorf("%s: AUROC %v d %v, want %v %v (%v)", s.Metric, s.AUROC, s.CohensD, auc, d, okD)
			}
			for k, variant := range analysis.SensitivityVariants {
				vs, xs := s.Variants[k], present(variant)
				m, sd := stats.MeanStd(xs)
				if vs.Variant != variant || vs.N != len(xs) || vs.Null != 4-len(xs) || *vs.Mean != m || *vs.Std != sd {
					t.Errorf("%s %s: %+v, want n %d mean %v std %v", s.Metric, variant, vs, len(xs), m, sd)
				}
			}
		}
		sem := v.Metrics[0]
		if sem.Metric != "semantic_similarity" {
			sem = v.Metrics[1]
		}
		// 0–100 in ten bins: 100, 95 and 90 in the last, 85 in the one before.
		if h := sem.Variants[1].Hist; h.Lo != 0 || h.Hi != 100 || h.Counts[9] != 3 || h.Counts[8] != 1 {
			t.Errorf("reference_as_answer histogram: %+v", h)
		}
		if code := c.getJSON(path+"?bins=4", &v); code != 200 || len(v.Metrics[0].Variants[0].Hist.Counts) != 4 {
			t.Errorf("bins=4: %d", code)
		}
	})
	t.Run("EINVALID", func(t *testing.T) {
		var e map[string]string
		for _, q := range []string{"bins=0", "bins=x", "bins=1000"} {
			if code := c.getJSON(path+"?"+q, &e); code != 400 || e["code"] != kgeval.EINVALID {
				t.Errorf("%s: %d %v", q, code, e)
			}
		}
	})
	t.Run("ENOTFOUND", func(t *testing.T) {
		var e map[string]string
		if code := c.getJSON("/api/runs/"+url.PathEscape(prefix+"-reference_as_answer")+"/sensitivity", &e); code != 404 || e["code"] != kgeval.ENOTFOUND ||
			!strings.Contains(e["error"], "-reference_as_answer-reference_as_answer") {
			t.Errorf("%d %v", code, e)
		}
	})
	t.Run("Pages", func(t *testing.T) {
		c := &client{tb: t, base: srv.URL}
		c.signIn()
		link := `href="/runs/` + url.PathEscape(prefix) + `/sensitivity"`
		for _, p := range []string{"/", "/runs/" + url.PathEscape(prefix+"-wrong_answer")} {
			if resp, body := c.get(p); resp.StatusCode != 200 || !strings.Contains(body, link) {
				t.Errorf("%s: %d, no link to the experiment", p, resp.StatusCode)
			}
		}
		resp, body := c.get("/runs/" + url.PathEscape(prefix) + "/sensitivity")
		if resp.StatusCode != 200 || !strings.Contains(body, `id="sensitivity-table"`) || !strings.Contains(body, "&lt;i&gt;odd&lt;/i&gt;") || strings.Contains(body, "<i>odd") {
			t.Errorf("page: %d, metric name not shown as text", resp.StatusCode)
		}
		if resp, _ := c.get("/runs/no-such-run/sensitivity"); resp.StatusCode != 404 {
			t.Errorf("unknown experiment: %d", resp.StatusCode)
		}
	})
}
