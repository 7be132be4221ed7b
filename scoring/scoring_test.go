package scoring_test

import (
	"context"
	"math"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/scoring"
	"github.com/kgeval/kgeval/scoring/scoringtest"
)

// CheckCase compares r with the hand-worked expectation of c.
func CheckCase(tb testing.TB, c scoringtest.Case, r kgeval.KGResult) {
	tb.Helper()
	eq := func(name string, got, want *float64) {
		tb.Helper()
		switch {
		case want == nil && got != nil:
			tb.Errorf("%s = %v, want null", name, *got)
		case want != nil && math.IsNaN(*want):
		case want != nil && got == nil:
			tb.Errorf("%s = null (%s), want %v", name, r.Reason, *want)
		case want != nil && math.Abs(*got-*want) > 1e-12:
			tb.Errorf("%s = %v, want %v", name, *got, *want)
		}
	}
	eq("multihop", r.Multihop, c.Want.Multihop)
	eq("community_overlap", r.CommunityOverlap, c.Want.Overlap)
	eq("community_coverage", r.CommunityCoverage, c.Want.Coverage)
	for _, p := range r.Paths {
		if want, ok := c.Passed[p.Label]; ok && want != p.Passed {
			tb.Errorf("entity %s passed = %v (cost %v, path %v), want %v", p.Label, p.Passed, p.Cost, p.Path, want)
		}
	}
	if c.Want.Multihop == nil && r.Reason == "" {
		tb.Errorf("null score without a reason")
	}
}

func TestNative_Cases(t *testing.T) {
	e := &scoring.Native{Seed: 42}
	for _, c := range scoringtest.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			r, err := e.Score(context.Background(), "t", []*kgeval.PairGraph{c.Graph}, c.Params)
			if err != nil {
				t.Fatal(err)
			}
			CheckCase(t, c, r[0])
		})
	}
}

func TestNative_PathExplanation(t *testing.T) {
	c := scoringtest.Cases()[3] // TwoHopAtBoundary
	r := (&scoring.Native{}).ScoreOne(c.Graph, c.Params)
	a := r.Paths[0]
	if a.Label != "a" || a.Cost == nil || math.Abs(*a.Cost-0.5) > 1e-12 {
		t.Fatalf("a: %+v", a)
	}
	want := []string{"a", "r1", "b", "r2", "e", "c"}
	if len(a.Path) != len(want) {
		t.Fatalf("path = %v, want %v", a.Path, want)
	}
	for i := range want {
		if a.Path[i] != want[i] {
			t.Fatalf("path = %v, want %v", a.Path, want)
		}
	}
}

func TestBuild(t *testing.T) {
	p := kgeval.DefaultGraphParams()
	in := scoring.Side{Text: kgeval.TextAnswer, Triplets: []kgeval.Triplet{
		{Subject: "Erica vagans", Relation: "is also called", Object: "Cornish heath"},
		{Subject: "erica  VAGANS", Relation: "is", Object: "a plant"},                   // same entity key
		{Subject: "Cornish heath", Relation: "is", Object: "a plant"},                   // repeated relation label
		{Subject: "Erica vagans", Relation: "is also called", Object: "Cornish heath."}, // duplicate triplet
	}}
	ctx := scoring.Side{Text: kgeval.TextContexts, Triplets: []kgeval.Triplet{
		{Subject: "Erica vagans", Relation: "grows in", Object: "Cornwall", Passage: 1},
	}}
	vec := scoring.Vectors{
		"erica vagans":  {1, 0, 0},
		"cornish heath": {0.8, 0.6, 0},
		"a plant":       {0, 0, 1},
		"cornwall":      {0.6, 0.8, 0},
	}
	g, err := scoring.Build("s1", kgeval.Pair{Name: "faithfulness", Input: kgeval.TextAnswer, Context: kgeval.TextContexts}, in, ctx, vec, p)
	if err != nil {
		t.Fatal(err)
	}
	var ents, rels, sims int
	for _, n := range g.Nodes {
		if n.Kind == kgeval.KindEntity {
			ents++
		} else {
			rels++
			if n.Side == kgeval.SideContext && n.Passage != 1 {
				t.Errorf("context relation passage = %d, want 1", n.Passage)
			}
		}
	}
	if ents != 5 || rels != 4 {
		t.Errorf("entities %d relations %d, want 5 and 4 (3 input + 2 context; one per distinct triplet)", ents, rels)
	}
	for _, e := range g.Edges {
		if e.Type == kgeval.EdgeSimilar {
			sims++
			from, to := g.Nodes[e.From], g.Nodes[e.To]
			switch {
			case from.Key == "erica vagans" && to.Key == "erica vagans":
				if e.Weight != 1 || e.Cost != 0 {
					t.Errorf("identical keys: weight %v cost %v, want 1 and 0", e.Weight, e.Cost)
				}
			case from.Key == "cornish heath" && to.Key == "erica vagans":
				if math.Abs(e.Weight-0.8) > 1e-6 {
					t.Errorf("cos = %v, want 0.8", e.Weight)
				}
			case from.Key == "cornish heath" && to.Key == "cornwall": // cos 0.96
			case from.Key == "erica vagans" && to.Key == "cornwall":
				t.Errorf("cos 0.6 < tau made an edge")
			}
		}
	}
	if sims != 3 {
		t.Errorf("SIMILAR edges = %d, want 3", sims)
	}
	if _, err := scoring.Build("s", kgeval.Pair{}, in, ctx, scoring.Vectors{}, p); kgeval.ErrorCode(err) != kgeval.EINVALID {
		t.Errorf("missing vectors: err = %v", err)
	}
	empty, _ := scoring.Build("s", kgeval.Pair{}, scoring.Side{Text: kgeval.TextAnswer}, ctx, vec, p)
	if empty.EmptyReason != "no triplets extracted from answer" {
		t.Errorf("EmptyReason = %q", empty.EmptyReason)
	}
}

func TestNative_Reproducible(t *testing.T) {
	graphs := scoringtest.Random(50, 7)
	e := &scoring.Native{Seed: 1}
	a, _ := e.Score(context.Background(), "t", graphs, kgeval.DefaultGraphParams())
	b, _ := e.Score(context.Background(), "t", graphs, kgeval.DefaultGraphParams())
	for i := range a {
		if *a[i].CommunityOverlap != *b[i].CommunityOverlap || *a[i].Multihop != *b[i].Multihop {
			t.Fatalf("graph %d: run 1 %v/%v, run 2 %v/%v", i, *a[i].Multihop, *a[i].CommunityOverlap, *b[i].Multihop, *b[i].CommunityOverlap)
		}
	}
}
