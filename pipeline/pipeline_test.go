package pipeline_test

import (
	"context"
	"fmt"
	"github.com/kgeval/kgeval/configs/configstest"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/minilm"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/scoring"
)

// noExtraction fails the test if the pipeline asks for extraction of a text
// whose triplets the dataset provides.
type noExtraction struct{ t testing.TB }

func (n noExtraction) Extract(ctx context.Context, texts []kgeval.ExtractRequest, _ func(int, int)) ([]kgeval.Extraction, error) {
	n.t.Errorf("extraction asked for %d texts; the dataset provides all triplets", len(texts))
	return make([]kgeval.Extraction, len(texts)), nil
}

// TestEvaluate_PreExtracted scores the hand-written Erica vagans samples with
// the real encoder and both engines: the grounded answer must beat the
// ungrounded one on faithfulness, the empty answer must be null with a reason,
// and both engines must agree on multihop.
func TestEvaluate_PreExtracted(t *testing.T) {
	res, err := dataset.Load(filepath.Join("..", "testdata", "triplets.jsonl"), dataset.Options{})
	if err != nil || len(res.Samples) != 3 {
		t.Fatalf("load: %v %+v", err, res)
	}
	m, err := minilm.Load(configstest.EncoderDir(t))
	if err != nil {
		t.Fatal(err)
	}
	db := graphstoretest.MustOpenDB(t)
	ctx := context.Background()
	byEngine := map[string]map[string]kgeval.KGResult{}
	for _, engine := range []kgeval.KGEngine{&scoring.Native{Seed: 42}, &graphstore.GDS{DB: db}} {
		run := fmt.Sprintf("test-pipeline-%s-%d", engine.Name(), time.Now().UnixNano())
		t.Cleanup(func() { db.DeleteRunGraphs(context.Background(), run) })
		ev := &pipeline.Evaluator{Extractor: noExtraction{t}, Embedder: m, Store: db, Engine: engine,
			Params: kgeval.DefaultGraphParams(), Pairs: kgeval.DefaultPairs()}
		rep, err := ev.Evaluate(ctx, run, res.Samples)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Results) != 12 || rep.Texts != 0 || rep.GraphRows == 0 {
			t.Fatalf("%s: %d results, %d texts extracted, %d rows", engine.Name(), len(rep.Results), rep.Texts, rep.GraphRows)
		}
		got := map[string]kgeval.KGResult{}
		for _, r := range rep.Results {
			got[r.Sample+"/"+r.Pair] = r
		}
		byEngine[engine.Name()] = got
		g, u, e := got["erica-grounded/faithfulness"], got["erica-ungrounded/faithfulness"], got["erica-empty/faithfulness"]
		if g.Value(metricreg.MetricMultihop) == nil || u.Value(metricreg.MetricMultihop) == nil || *g.Value(metricreg.MetricMultihop) <= *u.Value(metricreg.MetricMultihop) {
			t.Errorf("%s: faithfulness multihop grounded %v, ungrounded %v: grounded must be higher", engine.Name(), g.Value(metricreg.MetricMultihop), u.Value(metricreg.MetricMultihop))
		}
		if *g.Value(metricreg.MetricMultihop) != 1 {
			t.Errorf("%s: grounded answer (Erica vagans, is also called, Cornish heath) is in the contexts: multihop %v, want 1", engine.Name(), *g.Value(metricreg.MetricMultihop))
		}
		if e.Value(metricreg.MetricMultihop) != nil || !strings.Contains(e.Reason, "no triplets extracted from answer") {
			t.Errorf("%s: empty answer: %+v", engine.Name(), e)
		}
		// Triplet verdicts (SPEC §4b): the grounded answer's one fact is
		// in the contexts; the ungrounded answer's two are not.
		if g.Value(metricreg.MetricSupport) == nil || *g.Value(metricreg.MetricSupport) != 1 || u.Value(metricreg.MetricSupport) == nil || *u.Value(metricreg.MetricSupport) != 0 {
			t.Errorf("%s: faithfulness support grounded %v, ungrounded %v; want 1 and 0", engine.Name(), g.Value(metricreg.MetricSupport), u.Value(metricreg.MetricSupport))
		}
		if g.Value(metricreg.MetricSupportText) == nil || *g.Value(metricreg.MetricSupportText) != 1 || u.Value(metricreg.MetricSupportText) == nil || *u.Value(metricreg.MetricSupportText) != 0 || u.Value(metricreg.MetricContradictionText) == nil || *u.Value(metricreg.MetricContradictionText) != 0 {
			t.Errorf("%s: support_text grounded %v, ungrounded %v, contradiction_text %v; want 1, 0, 0", engine.Name(), g.Value(metricreg.MetricSupportText), u.Value(metricreg.MetricSupportText), u.Value(metricreg.MetricContradictionText))
		}
		if len(g.Verdicts) != 1 || g.Verdicts[0].Evidence == nil || g.Verdicts[0].Evidence.Passage != 0 {
			t.Errorf("%s: grounded verdicts %+v: want one supported triplet with evidence in passage 0", engine.Name(), g.Verdicts)
		}
		t.Logf("%s: faithfulness multihop grounded %.3f ungrounded %.3f; community_coverage %.3f vs %.3f",
			engine.Name(), *g.Value(metricreg.MetricMultihop), *u.Value(metricreg.MetricMultihop), *g.Value(metricreg.MetricCommunityCoverage), *u.Value(metricreg.MetricCommunityCoverage))
		stored, err := db.ReadKGScore(ctx, run, "erica-grounded", "faithfulness", kgeval.DefaultVariant)
		if err != nil || stored.Value(metricreg.MetricMultihop) == nil || *stored.Value(metricreg.MetricMultihop) != *g.Value(metricreg.MetricMultihop) {
			t.Errorf("%s: stored score %+v err %v", engine.Name(), stored, err)
		}
	}
	enginesAgree(t, byEngine)
}

// enginesAgree checks that the native and GDS engines gave every pair graph
// the same multihop and the same verdict scores (SPEC §4: exactly).
func enginesAgree(t *testing.T, byEngine map[string]map[string]kgeval.KGResult) {
	t.Helper()
	for k, n := range byEngine["native"] {
		gds := byEngine["gds"][k]
		for _, m := range []string{metricreg.MetricMultihop, metricreg.MetricSupport, metricreg.MetricContradiction, metricreg.MetricSlotCoverage} {
			a, b := n.Value(m), gds.Value(m)
			if (a == nil) != (b == nil) || a != nil && *a != *b {
				t.Errorf("%s: %s native %v gds %v", k, m, a, b)
			}
		}
	}
}

// TestEvaluate_Metrics computes the triplet-similarity and encoder metrics of
// the Erica vagans samples with the real encoder and checks them against
// what the hand-written triplets imply, stored and read back.
func TestEvaluate_Metrics(t *testing.T) {
	res, err := dataset.Load(filepath.Join("..", "testdata", "triplets.jsonl"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := minilm.Load(configstest.EncoderDir(t))
	if err != nil {
		t.Fatal(err)
	}
	db := graphstoretest.MustOpenDB(t)
	ctx := context.Background()
	run := fmt.Sprintf("test-metrics-%d", time.Now().UnixNano())
	t.Cleanup(func() { db.DeleteRunGraphs(context.Background(), run) })
	names, _ := metricreg.ExpandMetrics([]string{"ts", "semantic_similarity", "bert_score_f1", "ragas_faithfulness", "baseline"})
	ev := &pipeline.Evaluator{Extractor: noExtraction{t}, Embedder: m, Store: db, Engine: &scoring.Native{Seed: 42},
		Params: kgeval.DefaultGraphParams(), Pairs: kgeval.DefaultPairs(), Metrics: names, Tokens: m}
	rep, err := ev.Evaluate(ctx, run, res.Samples)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Metrics) != 3*(12+4) {
		t.Errorf("%d metric values, want %d (3 samples x 16 metrics)", len(rep.Metrics), 3*16)
	}
	got := map[string]kgeval.MetricScore{}
	for _, s := range rep.Metrics {
		got[s.Sample+"/"+s.Metric] = s
	}
	val := func(k string) float64 {
		t.Helper()
		s, ok := got[k]
		if !ok || s.Value == nil {
			t.Fatalf("%s: %+v, want a value", k, s)
		}
		return *s.Value
	}
	// The grounded answer's one triplet is a context triplet, word for word.
	for _, a := range []string{"avg", "weighted", "minimax"} {
		if v := val("erica-grounded/ts_groundedness_" + a); math.Abs(v-1) > 1e-6 {
			t.Errorf("grounded ts_groundedness_%s = %v, want 1", a, v)
		}
	}
	if g, u := val("erica-grounded/ts_groundedness_avg"), val("erica-ungrounded/ts_groundedness_avg"); u >= g {
		t.Errorf("ts_groundedness_avg ungrounded %v >= grounded %v", u, g)
	}
	if s := got["erica-empty/ts_groundedness_avg"]; s.Value != nil || s.Reason != "no triplets extracted from answer" {
		t.Errorf("empty answer: %+v", s)
	}
	if g, u := val("erica-grounded/semantic_similarity"), val("erica-ungrounded/semantic_similarity"); g <= u || g > 100 || u < 0 {
		t.Errorf("semantic_similarity grounded %v, ungrounded %v", g, u)
	}
	if g := val("erica-grounded/bert_score_f1"); g <= 0 || g > 100 {
		t.Errorf("bert_score_f1 grounded %v", g)
	}
	// "Erica vagans is also called Cornish heath.": erica, vagans, cornish
	// and heath are in the first passage, "called" in none.
	if v := val("erica-grounded/k_precision"); math.Abs(v-0.8) > 1e-9 {
		t.Errorf("grounded k_precision %v, want 4/5", v)
	}
	if e := string(got["erica-grounded/k_precision"].Explanation); e != `{"not_in_contexts":["called"]}` {
		t.Errorf("k_precision explanation %s, want the word not found", e)
	}
	if s := got["erica-grounded/ragas_faithfulness"]; s.Value != nil || s.Reason != "no LLM judge configured" || s.Family != metricreg.FamilyRAGAS {
		t.Errorf("ragas_faithfulness without a judge: %+v", s)
	}
	stored, err := db.ReadMetricScores(ctx, run, "erica-grounded")
	if err != nil || len(stored) != 16 {
		t.Fatalf("stored metrics: %d, %v", len(stored), err)
	}
	for _, s := range stored {
		if s.Metric == "ts_groundedness_avg" && !strings.Contains(string(s.Explanation), `"best":"Erica vagans is also called Cornish heath"`) {
			t.Errorf("ts_groundedness explanation %s", s.Explanation)
		}
	}
}

// inventingExtractor stands for a model that invents facts while it
// extracts (the fault SPEC §2b guards against): for every text it returns
// one triplet the text states and one it does not.
type inventingExtractor struct{}

func (inventingExtractor) Extract(_ context.Context, texts []kgeval.ExtractRequest, _ func(int, int)) ([]kgeval.Extraction, error) {
	out := make([]kgeval.Extraction, len(texts))
	for i, x := range texts {
		switch {
		case x.Text == "":
		case x.Asked:
			out[i].Triplets = []kgeval.Triplet{{Subject: "Erica vagans", Relation: "is also called", Object: "?"},
				{Subject: "Mount Everest", Relation: "has height", Object: "?"}}
		case strings.Contains(x.Text, "Cornish heath"):
			out[i].Triplets = []kgeval.Triplet{{Subject: "Erica vagans", Relation: "is also called", Object: "Cornish heath"},
				{Subject: "Erica vagans", Relation: "was named in", Object: "1770"}}
		default:
			out[i].Triplets = []kgeval.Triplet{{Subject: "Erica vagans", Relation: "grows in", Object: "Japan"}}
		}
	}
	return out, nil
}

// TestEvaluate_Grounding: invented triplets are dropped before any graph and
// reported with their reason, per text kind and stored per sample; with
// grounding keep they are reported and used.
func TestEvaluate_Grounding(t *testing.T) {
	m, err := minilm.Load(configstest.EncoderDir(t))
	if err != nil {
		t.Fatal(err)
	}
	db := graphstoretest.MustOpenDB(t)
	ctx := context.Background()
	samples := []kgeval.Sample{{ID: "g1", Record: 1, Question: "What is another name for Erica vagans?",
		Answer: "Erica vagans is also called Cornish heath.", Contexts: []string{"Erica vagans, the Cornish heath, is a species of flowering plant."}}}
	for _, mode := range []string{kgeval.GroundingDrop, kgeval.GroundingKeep} {
		run := fmt.Sprintf("test-grounding-%s-%d", mode, time.Now().UnixNano())
		if err := db.WriteSamples(ctx, run, samples); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.DeleteRun(context.Background(), run) })
		ev := &pipeline.Evaluator{Extractor: inventingExtractor{}, Embedder: m, Store: db, Engine: &scoring.Native{Seed: 1},
			Params: kgeval.DefaultGraphParams(), Pairs: kgeval.DefaultPairs(), Grounding: mode}
		rep, err := ev.Evaluate(ctx, run, samples)
		if err != nil {
			t.Fatal(err)
		}
		// question: "Mount Everest" invented; answer and passage: "1770".
		wantDropped := map[kgeval.Text]int{kgeval.TextQuestion: 1, kgeval.TextAnswer: 1, kgeval.TextContexts: 1, kgeval.TextReference: 0}
		for k, n := range wantDropped {
			if rep.Dropped[k] != n {
				t.Errorf("%s: %s dropped %d, want %d (kept %v dropped %v)", mode, k, rep.Dropped[k], n, rep.Kept, rep.Dropped)
			}
		}
		stored, err := db.SampleGrounding(ctx, run, "g1")
		if err != nil {
			t.Fatal(err)
		}
		var reasons []string
		for _, g := range stored {
			for _, d := range g.Dropped {
				reasons = append(reasons, string(g.Text)+": "+d.Reason)
			}
		}
		if len(reasons) != 3 || !strings.Contains(strings.Join(reasons, "\n"), `object "1770" does not occur in any of the 2 texts (date 1770 not stated)`) {
			t.Errorf("%s: stored reasons:\n%s", mode, strings.Join(reasons, "\n"))
		}
		g, err := db.ReadPairGraph(ctx, run, "g1", "faithfulness")
		if err != nil {
			t.Fatal(err)
		}
		in, cx := scoring.GraphTriplets(g)
		wantIn, wantCx := 1, 1
		if mode == kgeval.GroundingKeep {
			wantIn, wantCx = 2, 2
		}
		if len(in) != wantIn || len(cx) != wantCx {
			t.Errorf("%s: faithfulness graph holds %d answer and %d context triplets, want %d and %d", mode, len(in), len(cx), wantIn, wantCx)
		}
	}
}

// TestTextVerdicts: with no context triplets at all (the extractor found
// nothing), the sentence check still supports what a passage states and
// contradicts a year the passage states otherwise; an asked fact is
// answered by a sentence that states its known end and its relation.
func TestTextVerdicts(t *testing.T) {
	m, err := minilm.Load(configstest.EncoderDir(t))
	if err != nil {
		t.Fatal(err)
	}
	db := graphstoretest.MustOpenDB(t)
	ctx := context.Background()
	passage := "PharmaCann is a cannabis company based in Oak Brook. PharmaCann was founded in 2010 by Theodore Wolf."
	samples := []kgeval.Sample{{ID: "t1", Record: 1, Question: "When was PharmaCann founded and by whom?",
		Answer: "PharmaCann was founded in 2014 by Theodore Wolf.", Contexts: []string{passage},
		Triplets: &kgeval.SampleTriplets{
			Question: []kgeval.Triplet{{Subject: "PharmaCann", Relation: "was founded in", Object: "?"}, {Subject: "PharmaCann", Relation: "was founded by", Object: "?"}},
			Answer: []kgeval.Triplet{{Subject: "PharmaCann", Relation: "was founded in", Object: "2014"},
				{Subject: "PharmaCann", Relation: "was founded by", Object: "Theodore Wolf"},
				{Subject: "PharmaCann", Relation: "sells", Object: "flowers"}},
			Reference: []kgeval.Triplet{},
			// One unrelated context triplet: the graph finds nothing.
			Contexts: [][]kgeval.Triplet{{{Subject: "Oak Brook", Relation: "is in", Object: "Illinois"}}},
		}}}
	run := fmt.Sprintf("test-textverdicts-%d", time.Now().UnixNano())
	t.Cleanup(func() { db.DeleteRunGraphs(context.Background(), run) })
	ev := &pipeline.Evaluator{Extractor: noExtraction{t}, Embedder: m, Store: db, Engine: &scoring.Native{Seed: 1},
		Params: kgeval.DefaultGraphParams(), Pairs: kgeval.DefaultPairs()}
	rep, err := ev.Evaluate(ctx, run, samples)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]kgeval.KGResult{}
	for _, r := range rep.Results {
		got[r.Pair] = r
	}
	f := got["faithfulness"]
	if f.Value(metricreg.MetricSupport) == nil || *f.Value(metricreg.MetricSupport) != 0 || f.Value(metricreg.MetricSupportText) == nil || math.Abs(*f.Value(metricreg.MetricSupportText)-1.0/3) > 1e-9 || f.Value(metricreg.MetricContradictionText) == nil || math.Abs(*f.Value(metricreg.MetricContradictionText)-1.0/3) > 1e-9 {
		t.Fatalf("faithfulness support %v, support_text %v, contradiction_text %v; want 0, 1/3, 1/3", f.Value(metricreg.MetricSupport), f.Value(metricreg.MetricSupportText), f.Value(metricreg.MetricContradictionText))
	}
	for _, v := range f.Verdicts {
		want := map[string]string{"2014": kgeval.VerdictContradicted, "Theodore Wolf": kgeval.VerdictSupported, "flowers": ""}[v.Object]
		if v.Text != want {
			t.Errorf("(%s, %s, %s): sentence verdict %q, want %q", v.Subject, v.Relation, v.Object, v.Text, want)
		}
		if want != "" && (v.TextEvidence == nil || passage[v.TextEvidence.Start:v.TextEvidence.End] != "PharmaCann was founded in 2010 by Theodore Wolf.") {
			t.Errorf("(%s, %s, %s): evidence %+v is not the founding sentence", v.Subject, v.Relation, v.Object, v.TextEvidence)
		}
	}
	// Atoms of the answer: "PharmaCann" and "Theodore Wolf" are stated,
	// "2014" is not; stored with the scores and read back.
	if f.Value(metricreg.MetricAtomSupport) == nil || math.Abs(*f.Value(metricreg.MetricAtomSupport)-2.0/3) > 1e-9 || len(f.Atoms) != 3 || f.Atoms[1].Text != "2014" || f.Atoms[1].Stated ||
		f.Atoms[2].Text != "Theodore Wolf" || !f.Atoms[2].Stated || f.Atoms[2].Evidence == nil ||
		passage[f.Atoms[2].Evidence.Start:f.Atoms[2].Evidence.End] != "PharmaCann was founded in 2010 by Theodore Wolf." {
		t.Errorf("faithfulness atom_support %v, atoms %+v; want 2/3: 2014 not stated, Theodore Wolf stated in the founding sentence", f.Value(metricreg.MetricAtomSupport), f.Atoms)
	}
	stored, err := db.ReadKGScore(ctx, run, "t1", "faithfulness", kgeval.DefaultVariant)
	if err != nil || stored.Value(metricreg.MetricAtomSupport) == nil || *stored.Value(metricreg.MetricAtomSupport) != *f.Value(metricreg.MetricAtomSupport) || len(stored.Atoms) != 3 {
		t.Errorf("stored atom_support %v, atoms %+v (err %v); want 2/3 and 3 atoms", stored.Value(metricreg.MetricAtomSupport), stored.Atoms, err)
	}
	// No reference: nothing to check the atoms against.
	if fc := got["factual_correctness"]; fc.Value(metricreg.MetricAtomSupport) != nil || fc.ReasonFor(metricreg.MetricAtomSupport) != "the context side has no text" {
		t.Errorf("factual_correctness without a reference: atom_support %v, reason %q; want null with a reason", fc.Value(metricreg.MetricAtomSupport), fc.ReasonFor(metricreg.MetricAtomSupport))
	}
	// The question's one typed clause ("When ... and by whom?", a date) is
	// answered by the answer's 2014.
	if a := got["answer_relevancy"]; a.Value(metricreg.MetricTypedSlotCoverage) == nil || *a.Value(metricreg.MetricTypedSlotCoverage) != 1 || len(a.TypedSlots) != 1 || a.TypedSlots[0].Value != "2014" || a.TypedSlots[0].Want != "date" {
		t.Errorf("answer_relevancy typed_slot_coverage %v, slots %+v; want 1, answered by 2014", a.Value(metricreg.MetricTypedSlotCoverage), a.TypedSlots)
	}
	if f.Value(metricreg.MetricTypedSlotCoverage) != nil || !kgeval.NotApplicable(f.ReasonFor(metricreg.MetricTypedSlotCoverage)) {
		t.Errorf("faithfulness typed_slot_coverage %v (%q); want null, not applicable", f.Value(metricreg.MetricTypedSlotCoverage), f.ReasonFor(metricreg.MetricTypedSlotCoverage))
	}
	// The answer states when (a year) and by whom: both asked facts answered.
	a := got["answer_relevancy"]
	if a.Value(metricreg.MetricSlotCoverageText) == nil || *a.Value(metricreg.MetricSlotCoverageText) != 1 {
		t.Errorf("answer_relevancy slot_coverage_text %v (verdicts %+v), want 1", a.Value(metricreg.MetricSlotCoverageText), a.Verdicts)
	}
}
