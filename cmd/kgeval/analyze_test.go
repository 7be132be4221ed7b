package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/render"
	"github.com/kgeval/kgeval/stats"
)

// noLLM points the model client at a closed port: the analysis tests use
// pre-extracted triplets only, and any model call would fail the run.
func noLLM(t *testing.T) {
	t.Setenv("KGEVAL_LLM_BASE_URL", "http://127.0.0.1:1/v1")
}

// copiesOfTriplets writes testdata/triplets.jsonl (one question, systems
// grounded / ungrounded / poor) n times, each copy with its own question
// text and ids, so that the three systems answer the same n questions.
// human, when set, gives each record's human labels.
func copiesOfTriplets(t *testing.T, n int, human func(system string, copy int) map[string]any) string {
	t.Helper()
	src, err := os.ReadFile("../../testdata/triplets.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for k := 1; k <= n; k++ {
		for _, line := range strings.Split(strings.TrimSpace(string(src)), "\n") {
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatal(err)
			}
			m["id"] = fmt.Sprintf("%s-%d", m["id"], k)
			m["question"] = fmt.Sprintf("%s (copy %d)", m["question"], k)
			if human != nil {
				m["human"] = human(m["system"].(string), k)
			}
			b, _ := json.Marshal(m)
			out.Write(b)
			out.WriteByte('\n')
		}
	}
	path := filepath.Join(t.TempDir(), "copies.jsonl")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func mustEvaluate(t *testing.T, path, run string, args []string) {
	t.Helper()
	if out, err := runMain(t, append([]string{"evaluate", "--dataset", path, "--run", run}, args...)...); err != nil {
		t.Fatalf("evaluate: %v\n%s", err, out)
	}
}

// exported returns one variable of a stored run per sample id, read from
// the store without package analysis.
func exported(t *testing.T, db *graphstore.DB, run, variant, pair, metric string) map[string]*float64 {
	t.Helper()
	rows := graphstoretest.ExportScores(t, run, variant)
	out := map[string]*float64{}
	for _, r := range rows {
		if pair == "" {
			out[r.ID] = r.Metrics[metric].Value
			continue
		}
		s := r.Scores[pair]
		out[r.ID] = map[string]*float64{"multihop": s.Value(metricreg.MetricMultihop), "community_overlap": s.Value(metricreg.MetricCommunityOverlap), "community_coverage": s.Value(metricreg.MetricCommunityCoverage)}[metric]
	}
	return out
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func mustPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() < 200 || b.Dy() < 200 {
		t.Errorf("%s: %dx%d image", path, b.Dx(), b.Dy())
	}
}

// sameAsExport checks that the analysis commands' reader (three scans joined
// in Go) returns exactly the rows of ExportScores.
func sameAsExport(t *testing.T, db *graphstore.DB, run, variant string) {
	t.Helper()
	want := graphstoretest.ExportScores(t, run, variant)
	got, err := db.RunScores(context.Background(), run, variant)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("RunScores(%s, %s) differs from ExportScores:\n got %+v\nwant %+v", run, variant, got, want)
	}
}

func closeTo(a, b float64) bool { return math.Abs(a-b) <= 1e-9 }

// TestCorrelate evaluates two copies of the bundled pre-extracted samples
// with human labels, then correlates: every pair's numbers match Pearson and
// Spearman computed here from the exported scores and the labels written
// into the dataset; a constant label gives null with its reason; JSON, CSV
// and PNG are written.
func TestCorrelate(t *testing.T) {
	noLLM(t)
	// No claim check: with the default scoring.verify prob a store whose
	// model cache already holds P(supported) for these claims (another
	// run asked the model) added faithfulness.p_supported to the variables.
	t.Setenv("KGEVAL_SCORING_VERIFY", "off")
	db := graphstoretest.MustOpenDB(t)
	args := dbArgs(t)
	usefulness := map[string]string{"grounded": "Useful", "ungrounded": "Not useful at all", "poor": "Partially useful"}
	path := copiesOfTriplets(t, 2, func(system string, k int) map[string]any {
		return map[string]any{"usefulness": usefulness[system], "score": float64(k) + map[string]float64{"grounded": 0.5, "ungrounded": 0.1, "poor": 0.3}[system],
			"derived": map[string]any{"n_claims": 2}, "note": "free text"}
	})
	run := mustRunName(t, db, "corr")
	mustEvaluate(t, path, run, args)
	sameAsExport(t, db, run, kgeval.DefaultVariant)

	dir := t.TempDir()
	jsonPath, csvPath, pngPath := filepath.Join(dir, "c.json"), filepath.Join(dir, "c.csv"), filepath.Join(dir, "c.png")
	out, err := runMain(t, append([]string{"correlate", "--run", run, "--metrics", "faithfulness,semantic_similarity", "--human",
		"--json", jsonPath, "--csv", csvPath, "--plot", pngPath}, args...)...)
	if err != nil {
		t.Fatalf("correlate: %v\n%s", err, out)
	}
	for _, want := range []string{"6 samples, 15 variables", "against human labels:", "between metrics:"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var rep render.CorrelationReport
	readJSON(t, jsonPath, &rep)
	wantVars := []string{"faithfulness.atom_support", "faithfulness.claim_contradiction", "faithfulness.community_coverage", "faithfulness.community_overlap", "faithfulness.contradiction", "faithfulness.contradiction_text",
		"faithfulness.multihop", "faithfulness.score", "faithfulness.score_min", "faithfulness.support", "faithfulness.support_text", "semantic_similarity", "human.derived.n_claims", "human.score", "human.usefulness"}
	if strings.Join(rep.Variables, ",") != strings.Join(wantVars, ",") || len(rep.Pairs) != 105 || rep.Samples != 6 {
		t.Fatalf("variables %v, %d pairs, %d samples", rep.Variables, len(rep.Pairs), rep.Samples)
	}
	// The expected values, from the store and the labels written above.
	ids := []string{"erica-grounded-1", "erica-ungrounded-1", "erica-empty-1", "erica-grounded-2", "erica-ungrounded-2", "erica-empty-2"}
	system := []string{"grounded", "ungrounded", "poor", "grounded", "ungrounded", "poor"}
	vec := map[string][]*float64{}
	for _, name := range []string{"multihop", "community_overlap"} {
		m := exported(t, db, run, kgeval.DefaultVariant, "faithfulness", name)
		for _, id := range ids {
			vec["faithfulness."+name] = append(vec["faithfulness."+name], m[id])
		}
	}
	sem := exported(t, db, run, kgeval.DefaultVariant, "", "semantic_similarity")
	for i, id := range ids {
		vec["semantic_similarity"] = append(vec["semantic_similarity"], sem[id])
		u := map[string]float64{"Useful": 1, "Partially useful": 0.5, "Not useful at all": 0}[usefulness[system[i]]]
		vec["human.usefulness"] = append(vec["human.usefulness"], &u)
		score := float64(1+i/3) + map[string]float64{"grounded": 0.5, "ungrounded": 0.1, "poor": 0.3}[system[i]]
		vec["human.score"] = append(vec["human.score"], &score)
	}
	checked := 0
	for _, c := range rep.Pairs {
		x, y := vec[c.X], vec[c.Y]
		if x == nil || y == nil {
			continue
		}
		xs, ys := stats.Pairwise(x, y)
		p, okP := stats.Pearson(xs, ys)
		s, _ := stats.Spearman(xs, ys)
		if c.N != len(xs) || okP != (c.Pearson != nil) || okP && (!closeTo(*c.Pearson, p.R) || !closeTo(*c.PearsonP, p.P) || !closeTo(*c.Spearman, s.R) || !closeTo(*c.SpearmanP, s.P)) {
			t.Errorf("%s ~ %s: got %+v, want n %d r %v rho %v (ok %v)", c.X, c.Y, c, len(xs), p, s, okP)
		}
		checked++
	}
	if checked != 10 {
		t.Errorf("checked %d pairs, want 10", checked)
	}
	mh, _ := rep.Matrix.Get("faithfulness.multihop", "human.usefulness")
	if mh.N != 4 || mh.Pearson == nil { // the poor answers have no triplets: multihop null
		t.Errorf("multihop ~ usefulness: %+v", mh)
	}
	nc, _ := rep.Matrix.Get("semantic_similarity", "human.derived.n_claims")
	if nc.N != 6 || nc.Pearson != nil || nc.Reason != "human.derived.n_claims is constant over the 6 pairwise-complete samples" {
		t.Errorf("constant label: %+v", nc)
	}

	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil || len(recs) != 106 || strings.Join(recs[0], ",") != "x,y,n,pearson_r,pearson_p,spearman_rho,spearman_p,reason" {
		t.Fatalf("csv: %v, %d rows, header %v", err, len(recs), recs[0])
	}
	mustPNG(t, pngPath)

	for _, tc := range []struct {
		name string
		args []string
		code string
	}{
		{"NoRun", []string{"correlate"}, kgeval.EINVALID},
		{"UnknownRun", []string{"correlate", "--run", run + "-missing"}, kgeval.ENOTFOUND},
		{"UnknownMetric", []string{"correlate", "--run", run, "--metrics", "bogus"}, kgeval.EINVALID},
		{"UnknownVariant", []string{"correlate", "--run", run, "--variant", "tau=0.1,delta=0.1"}, kgeval.ENOTFOUND},
		{"OneVariable", []string{"correlate", "--run", run, "--metrics", "semantic_similarity"}, kgeval.EINVALID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := runMain(t, append(tc.args, args...)...); kgeval.ErrorCode(err) != tc.code {
				t.Errorf("err = %v, want %s", err, tc.code)
			}
		})
	}
	t.Run("NoHumanLabels", func(t *testing.T) {
		plain := mustRunName(t, db, "corr-plain")
		mustEvaluate(t, "../../testdata/triplets.jsonl", plain, args)
		_, err := runMain(t, append([]string{"correlate", "--run", plain, "--human"}, args...)...)
		if kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.Contains(err.Error(), "no sample has a numeric or mapped human label") {
			t.Errorf("err = %v", err)
		}
	})
}

// TestCompare evaluates three copies of the bundled samples (three systems
// answering the same three questions), stores factual_accuracy and
// answer_class values with explanations as the judge does, and compares:
// per-system numbers, distributions, paired tests and win rates.
func TestCompare(t *testing.T) {
	noLLM(t)
	db := graphstoretest.MustOpenDB(t)
	ctx := context.Background()
	args := dbArgs(t)
	run := mustRunName(t, db, "compare")
	mustEvaluate(t, copiesOfTriplets(t, 3, nil), run, args)
	var judged []kgeval.MetricScore
	for k := 1; k <= 3; k++ {
		score := float64(70 + 5*k) // B, A, A
		judged = append(judged,
			kgeval.MetricScore{Sample: fmt.Sprintf("erica-grounded-%d", k), Metric: "factual_accuracy", Family: metricreg.FamilyRAGAS, Value: &score,
				Explanation: []byte(fmt.Sprintf(`{"correctness": 8, "completeness": 7, "consistency": 7, "score": %g, "grade": "%s", "reasoning": "r"}`, score, map[bool]string{true: "A", false: "B"}[score >= 80]))},
			kgeval.MetricScore{Sample: fmt.Sprintf("erica-grounded-%d", k), Metric: "answer_class", Family: metricreg.FamilyRAGAS, Value: ptrTo(1), Explanation: []byte(`{"class": "CORRECT", "by": "model"}`)},
			kgeval.MetricScore{Sample: fmt.Sprintf("erica-ungrounded-%d", k), Metric: "answer_class", Family: metricreg.FamilyRAGAS, Value: ptrTo(0), Explanation: []byte(`{"class": "WRONG", "by": "model"}`)},
			kgeval.MetricScore{Sample: fmt.Sprintf("erica-empty-%d", k), Metric: "answer_class", Family: metricreg.FamilyRAGAS, Value: ptrTo(0), Explanation: []byte(`{"class": "DONT_KNOW", "by": "phrase"}`)},
		)
	}
	if err := db.WriteMetricScores(ctx, run, judged); err != nil {
		t.Fatal(err)
	}
	sameAsExport(t, db, run, kgeval.DefaultVariant)
	dir := t.TempDir()
	out, err := runMain(t, append([]string{"compare", "--run", run, "--metrics", "faithfulness.multihop,semantic_similarity,factual_accuracy",
		"--json", filepath.Join(dir, "c.json"), "--plot", filepath.Join(dir, "c.png")}, args...)...)
	if err != nil {
		t.Fatalf("compare: %v\n%s", err, out)
	}
	for _, want := range []string{"9 samples from 3 systems: grounded (3), poor (3), ungrounded (3)", "factual_accuracy grades:", "  grounded: A 2, B 1",
		"answer_class classes:", "  poor: DONT_KNOW 3", "  ungrounded: WRONG 3"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var rep render.ComparisonReport
	readJSON(t, filepath.Join(dir, "c.json"), &rep)
	if len(rep.Systems) != 3 || rep.Systems[0].System != "grounded" || len(rep.Differences) != 9 {
		t.Fatalf("%d systems, %d differences", len(rep.Systems), len(rep.Differences))
	}
	mh := exported(t, db, run, kgeval.DefaultVariant, "faithfulness", "multihop")
	g := rep.Systems[0].Metrics[0] // KG scores come first
	if g.Metric != "faithfulness.multihop" || g.N != 3 || !closeTo(*g.Mean, *mh["erica-grounded-1"]) || g.Best.Sample != "erica-grounded-1" {
		t.Errorf("grounded multihop %+v (stored %v)", g, *mh["erica-grounded-1"])
	}
	var gu, gp *analysis.Difference
	for i, d := range rep.Differences {
		if d.Metric == "faithfulness.multihop" && d.A == "grounded" && d.B == "ungrounded" {
			gu = &rep.Differences[i]
		}
		if d.Metric == "semantic_similarity" && d.A == "grounded" && d.B == "poor" {
			gp = &rep.Differences[i]
		}
	}
	if gu == nil || gp == nil {
		t.Fatal("differences missing")
	}
	// Three equal differences: paired t undefined; Wilcoxon on three tied
	// positive ranks: T = 0, z = −3/√3, p = erfc(√3/√2).
	if !gu.Paired || gu.N != 3 || gu.Wins != 3 || *gu.WinRate != 1 || gu.PairedT != nil || !strings.Contains(gu.Reasons["paired_t"], "differences are all") ||
		gu.Wilcoxon == nil || !closeTo(gu.Wilcoxon.P, math.Erfc(math.Sqrt(3)/math.Sqrt2)) {
		t.Errorf("grounded vs ungrounded multihop: %+v", gu)
	}
	if *mh["erica-grounded-1"] <= *mh["erica-ungrounded-1"] {
		t.Errorf("fixture: grounded multihop %v not above ungrounded %v", *mh["erica-grounded-1"], *mh["erica-ungrounded-1"])
	}
	if !gp.Paired || *gp.WinRate != 1 || gp.Shared != 3 {
		t.Errorf("grounded vs poor semantic_similarity: %+v", gp)
	}
	if rep.Systems[0].Grades["A"] != 2 || rep.Systems[0].Grades["B"] != 1 || rep.Systems[1].Grades != nil || rep.Systems[2].Classes["WRONG"] != 3 {
		t.Errorf("grades %v %v classes %v", rep.Systems[0].Grades, rep.Systems[1].Grades, rep.Systems[2].Classes)
	}
	mustPNG(t, filepath.Join(dir, "c.png"))
}

func ptrTo(x float64) *float64 { return &x }

// TestSensitivity runs the experiment on testdata/sensitivity.jsonl (8
// samples with pre-extracted triplets for every text, one without a
// reference): the derived datasets, the three runs, the report against
// numbers computed here from the stored scores, the kept runs of a rerun,
// and the conflict of a rerun with another seed.
func TestSensitivity(t *testing.T) {
	noLLM(t)
	db := graphstoretest.MustOpenDB(t)
	ctx := context.Background()
	args := dbArgs(t)
	prefix := mustRunName(t, db, "sens")
	for _, v := range []string{"reference_as_answer", "wrong_answer"} {
		name := prefix + "-" + v
		t.Cleanup(func() {
			if err := db.DeleteRun(context.Background(), name); err != nil && kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
				t.Error(err)
			}
		})
	}
	dir := t.TempDir()
	cmd := append([]string{"sensitivity", "--dataset", "../../testdata/sensitivity.jsonl", "--run", prefix, "--dir", dir, "--seed", "3"}, args...)
	out, err := runMain(t, cmd...)
	if err != nil {
		t.Fatalf("sensitivity: %v\n%s", err, out)
	}
	if !strings.Contains(out, "8 records, 8 loaded, 0 rejected; 1 without reference dropped; 7 samples used (seed 3)") {
		t.Errorf("output:\n%s", out)
	}

	// The derived datasets.
	load := func(path string) []kgeval.Sample {
		res, err := dataset.Load(path, dataset.Options{})
		if err != nil || len(res.Rejected) > 0 {
			t.Fatalf("%s: %v %+v", path, err, res.Rejected)
		}
		return res.Samples
	}
	orig := load(filepath.Join(dir, "original.jsonl"))
	ref := load(filepath.Join(dir, "reference_as_answer.jsonl"))
	wrong := load(filepath.Join(dir, "wrong_answer.jsonl"))
	if len(orig) != 7 || len(ref) != 7 || len(wrong) != 7 {
		t.Fatalf("%d / %d / %d samples", len(orig), len(ref), len(wrong))
	}
	byID := map[string]kgeval.Sample{}
	for _, s := range orig {
		byID[s.ID] = s
	}
	for i, s := range ref {
		if s.Answer != orig[i].Reference || fmt.Sprint(s.Triplets.Answer) != fmt.Sprint(orig[i].Triplets.Reference) || s.System != "reference_as_answer" {
			t.Errorf("reference_as_answer %s: answer %q triplets %v", s.ID, s.Answer, s.Triplets.Answer)
		}
	}
	for i, s := range wrong {
		donor, ok := byID[s.Metadata["answer_from"].(string)]
		if !ok || donor.ID == s.ID || s.Answer == orig[i].Answer || s.Answer != donor.Answer || fmt.Sprint(s.Triplets.Answer) != fmt.Sprint(donor.Triplets.Answer) ||
			s.Question != orig[i].Question || s.Reference != orig[i].Reference {
			t.Errorf("wrong_answer %s: answer %q from %q", s.ID, s.Answer, s.Metadata["answer_from"])
		}
	}

	// The runs and the report.
	for _, run := range []string{prefix, prefix + "-reference_as_answer", prefix + "-wrong_answer"} {
		rec, err := db.GetRun(ctx, run)
		if err != nil || rec.Status != kgeval.RunDone || rec.Samples != 7 {
			t.Fatalf("run %s: %+v %v", run, rec, err)
		}
	}
	var rep pipeline.SensitivityReport
	readJSON(t, filepath.Join(dir, "sensitivity.json"), &rep)
	if rep.Samples != 7 || rep.DroppedNoReference != 1 || rep.Seed != 3 || rep.Runs["wrong_answer"] != prefix+"-wrong_answer" {
		t.Fatalf("report %+v", rep)
	}
	get := func(metric string) analysis.Separation {
		for _, s := range rep.Metrics {
			if s.Metric == metric {
				return s
			}
		}
		t.Fatalf("no %s in the report", metric)
		return analysis.Separation{}
	}
	vals := func(run, pair, metric string) []float64 {
		var out []float64
		for _, v := range exported(t, db, run, kgeval.DefaultVariant, pair, metric) {
			if v != nil {
				out = append(out, *v)
			}
		}
		return out
	}
	for _, c := range []struct{ pair, metric string }{{"faithfulness", "multihop"}, {"faithfulness", "community_overlap"}, {"answer_relevancy", "multihop"}, {"", "ts_groundedness_avg"}, {"", "semantic_similarity"}} {
		name := c.metric
		if c.pair != "" {
			name = c.pair + "." + c.metric
		}
		s := get(name)
		pos, neg := vals(prefix+"-reference_as_answer", c.pair, c.metric), vals(prefix+"-wrong_answer", c.pair, c.metric)
		auc, _ := stats.AUROC(pos, neg)
		d, okD := stats.CohensD(pos, neg)
		m, sd := stats.MeanStd(pos)
		if s.AUROC == nil || !closeTo(*s.AUROC, auc) || okD != (s.CohensD != nil) || okD && !closeTo(*s.CohensD, d) ||
			s.Variants[1].N != len(pos) || !closeTo(*s.Variants[1].Mean, m) || !closeTo(*s.Variants[1].Std, sd) {
			t.Errorf("%s: report %+v, want AUROC %v d %v mean %v std %v", name, s, auc, d, m, sd)
		}
		if *s.AUROC <= 0.5 {
			t.Errorf("%s: AUROC %v: the references do not score above the wrong answers", name, *s.AUROC)
		}
	}
	// The context relevancy pair does not involve the answer: no separation.
	if s := get("context_relevancy.multihop"); *s.AUROC != 0.5 || s.Variants[0].Mean == nil || *s.Variants[0].Mean != *s.Variants[2].Mean {
		t.Errorf("context_relevancy.multihop: %+v", s)
	}
	if s := get("factual_correctness.multihop"); *s.Variants[1].Mean != 1 || s.Variants[1].Hist.Counts[9] != 7 {
		t.Errorf("factual_correctness.multihop of the references themselves: %+v", s.Variants[1])
	}
	mustPNG(t, filepath.Join(dir, "sensitivity.png"))

	// A rerun keeps the finished runs; another seed conflicts and writes nothing.
	out, err = runMain(t, cmd...)
	if err != nil || strings.Count(out, "is done; kept") != 3 || strings.Contains(out, "evaluate: run") {
		t.Errorf("rerun: %v\n%s", err, out)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "wrong_answer.jsonl"))
	_, err = runMain(t, append([]string{"sensitivity", "--dataset", "../../testdata/sensitivity.jsonl", "--run", prefix, "--dir", dir, "--seed", "4"}, args...)...)
	if kgeval.ErrorCode(err) != kgeval.ECONFLICT {
		t.Errorf("another seed: %v, want ECONFLICT", err)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "wrong_answer.jsonl")); !bytes.Equal(before, after) {
		t.Error("a refused rerun rewrote the derived dataset")
	}
	if _, err := runMain(t, append([]string{"sensitivity", "--dataset", "../../testdata/triplets.jsonl", "--run", prefix + "-x", "--dir", t.TempDir()}, args...)...); kgeval.ErrorCode(err) != kgeval.EINVALID {
		t.Errorf("one question only: %v, want EINVALID", err)
	}
}

// TestSweepReport sweeps a 2 x 2 grid of three copies of the bundled
// samples and checks the report's means and separations against the stored
// variants.
func TestSweepReport(t *testing.T) {
	noLLM(t)
	t.Setenv("KGEVAL_SCORING_VERIFY", "off") // as TestCorrelate: no cached P(supported) in the metrics
	db := graphstoretest.MustOpenDB(t)
	args := dbArgs(t)
	run := mustRunName(t, db, "sweeprep")
	mustEvaluate(t, copiesOfTriplets(t, 3, nil), run, args)
	if out, err := runMain(t, append([]string{"sweep", "--run", run, "--tau", "0.7,0", "--delta", "0.5,1"}, args...)...); err != nil {
		t.Fatalf("sweep: %v\n%s", err, out)
	}
	sameAsExport(t, db, run, pipeline.SweepVariant(0, 1))
	dir := t.TempDir()
	out, err := runMain(t, append([]string{"sweep-report", "--run", run, "--systems", "grounded,ungrounded",
		"--json", filepath.Join(dir, "s.json"), "--plot", filepath.Join(dir, "s.png")}, args...)...)
	if err != nil {
		t.Fatalf("sweep-report: %v\n%s", err, out)
	}
	if !strings.Contains(out, "5 variants; separation of grounded (A) from ungrounded (B)") {
		t.Errorf("output:\n%s", out)
	}
	var rep analysis.SweepReport
	readJSON(t, filepath.Join(dir, "s.json"), &rep)
	if len(rep.Points) != 5 || rep.Points[0].Variant != kgeval.DefaultVariant || len(rep.Metrics) != 34 {
		t.Fatalf("%d points (first %q), metrics %v", len(rep.Points), rep.Points[0].Variant, rep.Metrics)
	}
	k := -1
	for i, n := range rep.Metrics {
		if n == "faithfulness.multihop" {
			k = i
		}
	}
	for _, pt := range rep.Points {
		st := exported(t, db, run, pt.Variant, "faithfulness", "multihop")
		var all, a, b []float64
		for id, v := range st {
			if v == nil {
				continue
			}
			all = append(all, *v)
			switch {
			case strings.HasPrefix(id, "erica-grounded"):
				a = append(a, *v)
			case strings.HasPrefix(id, "erica-ungrounded"):
				b = append(b, *v)
			}
		}
		auc, _ := stats.AUROC(a, b)
		sm := pt.Metrics[k]
		if sm.N != len(all) || !closeTo(*sm.Mean, stats.Mean(all)) || !closeTo(*sm.MeanA, stats.Mean(a)) || !closeTo(*sm.AUROC, auc) {
			t.Errorf("%s: %+v, want n %d mean %v mean A %v AUROC %v", pt.Variant, sm, len(all), stats.Mean(all), stats.Mean(a), auc)
		}
	}
	mustPNG(t, filepath.Join(dir, "s.png"))

	// Against itself: no separation anywhere.
	out, err = runMain(t, append([]string{"sweep-report", "--run", run, "--against", run, "--metrics", "multihop"}, args...)...)
	if err != nil {
		t.Fatalf("--against: %v\n%s", err, out)
	}
	if strings.Count(out, "0.500") < 5*4 {
		t.Errorf("--against itself: AUROC not 0.5 everywhere:\n%s", out)
	}
	for _, bad := range [][]string{{"--systems", "grounded,nope"}, {"--systems", "grounded"}, {"--systems", "grounded,poor", "--against", run}} {
		if _, err := runMain(t, append(append([]string{"sweep-report", "--run", run}, bad...), args...)...); kgeval.ErrorCode(err) != kgeval.EINVALID {
			t.Errorf("%v: %v, want EINVALID", bad, err)
		}
	}
}
