package pipeline_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/pipeline"
)

// TestDerangement: no fixed point, no conflict, a permutation, the same for
// the same seed, different for another seed; impossible cases are EINVALID.
func TestDerangement(t *testing.T) {
	check := func(p []int, n int, conflict func(i, j int) bool) {
		t.Helper()
		seen := make([]bool, n)
		for i, j := range p {
			if j == i || seen[j] || conflict != nil && conflict(i, j) {
				t.Fatalf("p = %v: bad at %d", p, i)
			}
			seen[j] = true
		}
	}
	for n := 2; n <= 40; n++ {
		for seed := uint64(0); seed < 20; seed++ {
			p, err := pipeline.Derangement(n, nil, seed)
			if err != nil {
				t.Fatal(err)
			}
			check(p, n, nil)
			q, _ := pipeline.Derangement(n, nil, seed)
			if !slices.Equal(p, q) {
				t.Fatalf("n %d seed %d: %v then %v", n, seed, p, q)
			}
		}
	}
	a, _ := pipeline.Derangement(30, nil, 1)
	b, _ := pipeline.Derangement(30, nil, 2)
	if slices.Equal(a, b) {
		t.Error("seeds 1 and 2 gave the same permutation of 30")
	}
	// WikiEval's shape: 10 questions x 3 answers; no answer to the same question.
	sameQ := func(i, j int) bool { return i/3 == j/3 }
	for seed := uint64(0); seed < 50; seed++ {
		p, err := pipeline.Derangement(30, sameQ, seed)
		if err != nil {
			t.Fatal(err)
		}
		check(p, 30, sameQ)
	}
	// 10 questions x 10 systems: a random permutation almost never fits; the repair must.
	tight := func(i, j int) bool { return i/10 == j/10 }
	p, err := pipeline.Derangement(100, tight, 7)
	if err != nil {
		t.Fatal(err)
	}
	check(p, 100, tight)
	if _, err := pipeline.Derangement(1, nil, 1); kgeval.ErrorCode(err) != kgeval.EINVALID {
		t.Errorf("n = 1: %v", err)
	}
	if _, err := pipeline.Derangement(5, func(i, j int) bool { return true }, 1); kgeval.ErrorCode(err) != kgeval.EINVALID {
		t.Errorf("all conflicting: %v", err)
	}
}

func tr(s, r, o string) kgeval.Triplet { return kgeval.Triplet{Subject: s, Relation: r, Object: o} }

func TestVariants(t *testing.T) {
	samples := []kgeval.Sample{
		{ID: "1", Question: "q1", Answer: "a1", Reference: "r1", System: "sys", Human: map[string]any{"x": 1.0},
			Triplets: &kgeval.SampleTriplets{Answer: []kgeval.Triplet{tr("a", "1", "x")}, Reference: []kgeval.Triplet{tr("r", "1", "x")}}},
		{ID: "2", Question: "q2", Answer: "a2", Reference: "r2",
			Triplets: &kgeval.SampleTriplets{Answer: []kgeval.Triplet{}, Reference: nil, Question: []kgeval.Triplet{tr("q", "2", "x")}}},
		{ID: "3", Question: "q3", Answer: "a3", Reference: "r3"},
		{ID: "4", Question: "q4", Answer: "a4", Reference: "  "},
	}
	kept, dropped := pipeline.WithReference(samples)
	if len(kept) != 3 || dropped != 1 {
		t.Fatalf("kept %d dropped %d", len(kept), dropped)
	}
	ra := pipeline.ReferenceAsAnswer(kept)
	if ra[0].Answer != "r1" || ra[0].System != "reference_as_answer" || ra[0].Human != nil || !reflect.DeepEqual(ra[0].Triplets.Answer, []kgeval.Triplet{tr("r", "1", "x")}) {
		t.Errorf("reference_as_answer[0] %+v %+v", ra[0], ra[0].Triplets)
	}
	// No reference triplets: the answer's must not stay (they are of the old answer).
	if ra[1].Answer != "r2" || ra[1].Triplets.Answer != nil || len(ra[1].Triplets.Question) != 1 {
		t.Errorf("reference_as_answer[1] %+v", ra[1].Triplets)
	}
	if ra[2].Triplets != nil {
		t.Errorf("reference_as_answer[2] got triplets %+v", ra[2].Triplets)
	}
	if samples[0].Answer != "a1" || samples[0].System != "sys" || len(samples[0].Triplets.Answer) != 1 || samples[0].Triplets.Answer[0].Subject != "a" {
		t.Errorf("the input was modified: %+v", samples[0])
	}
	wa, p, err := pipeline.WrongAnswer(kept, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range wa {
		donor := kept[p[i]]
		if p[i] == i || s.Answer != donor.Answer || s.Question != kept[i].Question || s.Reference != kept[i].Reference || s.System != "wrong_answer" || s.Human != nil {
			t.Errorf("wrong_answer[%d] = %+v (donor %d)", i, s, p[i])
		}
		var got, want []kgeval.Triplet
		if s.Triplets != nil {
			got = s.Triplets.Answer
		}
		if donor.Triplets != nil {
			want = donor.Triplets.Answer
		}
		if (got == nil) != (want == nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("wrong_answer[%d]: answer triplets %#v, donor's %#v", i, got, want)
		}
	}
	wa2, p2, _ := pipeline.WrongAnswer(kept, 3)
	if !slices.Equal(p, p2) || !reflect.DeepEqual(wa, wa2) {
		t.Error("same seed, different wrong_answer")
	}
	if _, _, err := pipeline.WrongAnswer([]kgeval.Sample{{Question: "q", Answer: "a"}, {Question: "q", Answer: "b"}}, 1); kgeval.ErrorCode(err) != kgeval.EINVALID {
		t.Errorf("one question only: %v", err)
	}
}
