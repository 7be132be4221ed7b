package pipeline

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
)

// tableExtractor answers each text with the triplets its table gives, and
// fails the texts it does not know: the extraction stage's input without a
// model.
type tableExtractor map[string][]kgeval.Triplet

func (x tableExtractor) Extract(_ context.Context, reqs []kgeval.ExtractRequest, _ func(int, int)) ([]kgeval.Extraction, error) {
	out := make([]kgeval.Extraction, len(reqs))
	for i, r := range reqs {
		ts, ok := x[r.Text]
		if !ok {
			out[i].Err = errors.New("no answer")
			continue
		}
		out[i].Triplets = ts
	}
	return out, nil
}

func stageSample() kgeval.Sample {
	return kgeval.Sample{ID: "s1", Record: 1, Question: "Where does Erica vagans grow?",
		Answer:    "Erica vagans grows in Cornwall.",
		Reference: "It grows in Cornwall and Brittany.",
		Contexts:  []string{"Erica vagans, the Cornish heath, grows in Cornwall.", "The Cornish heath Erica vagans grows in Cornwall.", "Erica vagans, the Cornish heath, grows in Cornwall."}}
}

// TestEvaluation_ExtractGround runs the extract and ground stages on one
// sample: the passage given twice goes to the extractor once, the
// question is asked as such, an answer triplet whose object is not in the
// answer is dropped and reported, and the reference whose extraction
// failed is recorded for the build stage.
func TestEvaluation_ExtractGround(t *testing.T) {
	s := stageSample()
	x := tableExtractor{
		s.Question:    {{Subject: "Erica vagans", Relation: "grows in", Object: "?"}},
		s.Answer:      {{Subject: "Erica vagans", Relation: "grows in", Object: "Cornwall"}, {Subject: "Erica vagans", Relation: "grows in", Object: "Devon"}},
		s.Contexts[0]: {{Subject: "Erica vagans", Relation: "grows in", Object: "Cornwall"}},
		s.Contexts[1]: {{Subject: "Erica vagans", Relation: "grows in", Object: "Cornwall"}},
	}
	e := &Evaluator{Extractor: x, Pairs: kgeval.DefaultPairs()}
	v := e.newEvaluation("r", []kgeval.Sample{s})
	v.load()
	if err := v.extract(context.Background()); err != nil {
		t.Fatal(err)
	}
	if v.rep.Texts != 5 || len(v.refs) != 6 || v.rep.Extracted != 4 {
		t.Fatalf("texts %d, refs %d, extracted %d; want 5 distinct texts, 6 refs, 4 extracted", v.rep.Texts, len(v.refs), v.rep.Extracted)
	}
	if !v.texts[0].Asked || v.texts[0].Text != s.Question {
		t.Errorf("first text %+v: want the question, asked", v.texts[0])
	}
	if msg := v.failed[0][kgeval.TextReference]; msg != "no answer" || len(v.rep.Errors) != 1 {
		t.Errorf("failed %v, errors %+v: want the reference's failure", v.failed[0], v.rep.Errors)
	}
	v.ground()
	if got := v.tri[0].Answer; len(got) != 1 || got[0].Object != "Cornwall" {
		t.Errorf("answer after grounding %+v: want the Cornwall triplet only", got)
	}
	if v.rep.Dropped[kgeval.TextAnswer] != 1 || v.rep.Kept[kgeval.TextAnswer] != 1 || v.rep.Kept[kgeval.TextContexts] != 3 {
		t.Errorf("kept %v, dropped %v", v.rep.Kept, v.rep.Dropped)
	}
}

// TestEvaluation_Build builds the pair graphs of one sample from given
// triplets and hand-made vectors: a pair already scored (a resume) is not
// built, a pair whose text failed extraction gets a null result naming
// the failure, the others get graphs.
func TestEvaluation_Build(t *testing.T) {
	s := stageSample()
	fact := []kgeval.Triplet{{Subject: "Erica vagans", Relation: "grows in", Object: "Cornwall"}}
	e := &Evaluator{Pairs: kgeval.DefaultPairs(), Params: kgeval.DefaultGraphParams(),
		Done: func(sample, pair string) bool { return pair == "context_relevancy" }}
	v := e.newEvaluation("r", []kgeval.Sample{s})
	v.tri = []kgeval.SampleTriplets{{Question: []kgeval.Triplet{{Subject: "Erica vagans", Relation: "grows in", Object: "?"}},
		Answer: fact, Contexts: [][]kgeval.Triplet{fact, {}, fact}}}
	v.failed = []map[kgeval.Text]string{{kgeval.TextReference: "no answer"}}
	keys := v.labelKeys()
	if len(keys) == 0 {
		t.Fatal("no label keys")
	}
	v.vec = map[string][]float32{}
	for i, k := range keys {
		vec := make([]float32, len(keys))
		vec[i] = 1
		v.vec[k] = vec
	}
	if err := v.build(); err != nil {
		t.Fatal(err)
	}
	if v.rep.Resumed != 1 {
		t.Errorf("resumed %d, want 1 (context_relevancy)", v.rep.Resumed)
	}
	if len(v.skipped) != 1 || v.skipped[0].Pair != "factual_correctness" || !strings.HasPrefix(v.skipped[0].Reason, kgeval.ReasonExtractionFailed+"reference failed: no answer") {
		t.Errorf("skipped %+v: want factual_correctness with the reference's failure", v.skipped)
	}
	var pairs []string
	for _, g := range v.graphs {
		pairs = append(pairs, g.Pair)
		if len(g.Nodes) == 0 {
			t.Errorf("graph %s has no node", g.Pair)
		}
	}
	if strings.Join(pairs, ",") != "faithfulness,answer_relevancy" {
		t.Errorf("graphs %v, want faithfulness and answer_relevancy", pairs)
	}
}
