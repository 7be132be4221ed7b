package pipeline_test

import (
	"context"
	"fmt"
	"github.com/kgeval/kgeval/configs/configstest"
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

// TestEvaluate_RuleExtraction runs the whole evaluation with
// extraction.method rules (no model) on two WikiEval questions, with the
// real encoder, Neo4j and both engines: nothing the rules read is dropped
// by the grounding check, every verdict's evidence is a sentence of the
// passage, the engines agree, and the grounded answer is supported by the
// passage more than the ungrounded one (wikieval-00: 30 July vs 30 August).
func TestEvaluate_RuleExtraction(t *testing.T) {
	res, err := dataset.Load(filepath.Join("..", "testdata", "wikieval50.jsonl"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var samples []kgeval.Sample
	for _, s := range res.Samples {
		if strings.HasPrefix(s.ID, "wikieval-00-") || strings.HasPrefix(s.ID, "wikieval-21-") {
			samples = append(samples, s)
		}
	}
	if len(samples) != 6 {
		t.Fatalf("%d samples, want 6", len(samples))
	}
	m, err := minilm.Load(configstest.EncoderDir(t))
	if err != nil {
		t.Fatal(err)
	}
	db := graphstoretest.MustOpenDB(t)
	ctx := context.Background()
	byEngine := map[string]map[string]kgeval.KGResult{}
	for _, engine := range []kgeval.KGEngine{&scoring.Native{Seed: 42}, &graphstore.GDS{DB: db}} {
		run := fmt.Sprintf("test-rules-%s-%d", engine.Name(), time.Now().UnixNano())
		t.Cleanup(func() { db.DeleteRunGraphs(context.Background(), run) })
		ev := &pipeline.Evaluator{Extractor: scoring.RuleExtractor{}, Embedder: m, Store: db, Engine: engine,
			Params: kgeval.DefaultGraphParams(), Pairs: kgeval.DefaultPairs()}
		rep, err := ev.Evaluate(ctx, run, samples)
		if err != nil {
			t.Fatal(err)
		}
		// 2 questions, 6 answers, 2 passages (WikiEval's reference is its
		// grounded answer: one text).
		if rep.Texts != 10 || len(rep.Errors) != 0 {
			t.Fatalf("%s: %d texts, errors %v", engine.Name(), rep.Texts, rep.Errors)
		}
		for _, g := range rep.Grounding {
			for _, d := range g.Dropped {
				t.Errorf("%s: %s %s: the grounding check dropped a triplet the rules read: %+v", engine.Name(), g.Sample, g.Text, d)
			}
		}
		got := map[string]kgeval.KGResult{}
		for _, r := range rep.Results {
			got[r.Sample+"/"+r.Pair] = r
			for _, v := range r.Verdicts {
				if v.Evidence == nil || r.Pair != "faithfulness" {
					continue
				}
				s := samples[0]
				for _, x := range samples {
					if x.ID == r.Sample {
						s = x
					}
				}
				p := s.Contexts[v.Evidence.Passage]
				if v.Evidence.Start >= v.Evidence.End || v.Evidence.End > len(p) ||
					!strings.Contains(strings.ToLower(p[v.Evidence.Start:v.Evidence.End]), strings.ToLower(v.Evidence.Subject)) {
					t.Errorf("%s: %s: evidence %+v is not the sentence of its triplet", engine.Name(), r.Sample, v.Evidence)
				}
			}
		}
		byEngine[engine.Name()] = got
		for _, q := range []string{"wikieval-00", "wikieval-21"} {
			g, u := got[q+"-grounded/faithfulness"], got[q+"-ungrounded/faithfulness"]
			if g.Value(metricreg.MetricSupport) == nil || u.Value(metricreg.MetricSupport) == nil || *g.Value(metricreg.MetricSupport) <= *u.Value(metricreg.MetricSupport) {
				t.Errorf("%s: %s faithfulness support grounded %v, ungrounded %v: grounded must be higher", engine.Name(), q, g.Value(metricreg.MetricSupport), u.Value(metricreg.MetricSupport))
			}
			t.Logf("%s: %s support grounded %.3f ungrounded %.3f, multihop %.3f vs %.3f", engine.Name(), q, *g.Value(metricreg.MetricSupport), *u.Value(metricreg.MetricSupport), *g.Value(metricreg.MetricMultihop), *u.Value(metricreg.MetricMultihop))
		}
	}
	enginesAgree(t, byEngine)
}

// TestEvaluate_RuleFacts: with extraction.method both the rule-read
// triplets join the model's after the grounding check, so the check counts
// the model's inventions alone, and the graphs hold both.
func TestEvaluate_RuleFacts(t *testing.T) {
	m, err := minilm.Load(configstest.EncoderDir(t))
	if err != nil {
		t.Fatal(err)
	}
	db := graphstoretest.MustOpenDB(t)
	ctx := context.Background()
	samples := []kgeval.Sample{{ID: "r1", Record: 1, Question: "What is another name for Erica vagans?",
		Answer: "Erica vagans is also called Cornish heath.", Contexts: []string{"Erica vagans, the Cornish heath, is a species of flowering plant."}}}
	run := fmt.Sprintf("test-rulefacts-%d", time.Now().UnixNano())
	if err := db.WriteSamples(ctx, run, samples); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.DeleteRun(context.Background(), run) })
	ev := &pipeline.Evaluator{Extractor: inventingExtractor{}, Embedder: m, Store: db, Engine: &scoring.Native{Seed: 1},
		Params: kgeval.DefaultGraphParams(), Pairs: kgeval.DefaultPairs(), RuleFacts: true}
	rep, err := ev.Evaluate(ctx, run, samples)
	if err != nil {
		t.Fatal(err)
	}
	for k, n := range map[kgeval.Text]int{kgeval.TextQuestion: 1, kgeval.TextAnswer: 1, kgeval.TextContexts: 1} {
		if rep.Dropped[k] != n || rep.Kept[k] != 1 {
			t.Errorf("%s: kept %d dropped %d, want the model's 1 and 1", k, rep.Kept[k], rep.Dropped[k])
		}
	}
	g, err := db.ReadPairGraph(ctx, run, "r1", "faithfulness")
	if err != nil {
		t.Fatal(err)
	}
	in, cx := scoring.GraphTriplets(g)
	key := func(ts []kgeval.Triplet) string {
		var s []string
		for _, x := range ts {
			s = append(s, x.Subject+" | "+x.Relation+" | "+x.Object+" ("+x.Source+")")
		}
		return strings.Join(s, "\n")
	}
	// The model's grounded triplet, then the rules' (marked so, stored and
	// read back): one answer sentence of two phrases, one passage sentence
	// of four.
	wantIn := "Erica vagans | is also called | Cornish heath ()\nErica vagans | is also | called Cornish heath (rules)"
	wantCx := "Erica vagans | is also called | Cornish heath ()\nErica vagans | the | Cornish heath (rules)\nCornish heath | is a | species (rules)\nspecies | of | flowering plant (rules)"
	if key(in) != wantIn || key(cx) != wantCx {
		t.Errorf("faithfulness graph:\nanswer\n%s\ncontexts\n%s", key(in), key(cx))
	}
}
