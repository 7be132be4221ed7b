package kgeval_test

import (
	"testing"

	"github.com/kgeval/kgeval"
)

func TestKey(t *testing.T) {
	for in, want := range map[string]string{
		"Erica vagans":        "erica vagans",
		"  Erica\tVAGANS. ":   "erica vagans",
		"\"Cornish heath\"":   "cornish heath",
		"ﬁsh":                 "fish", // NFKC ligature
		"Zürich":              "zürich",
		"C++":                 "c++",
		"U.S.A.":              "u.s.a",
		"...":                 "",
		"30 July 2023, 06:30": "30 july 2023, 06:30",
	} {
		if got := kgeval.Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCleanTriplets(t *testing.T) {
	in := []kgeval.Triplet{
		{Subject: " Paris ", Relation: "is capital of", Object: "France"},
		{Subject: "paris", Relation: "Is capital of", Object: "france."}, // same keys
		{Subject: "", Relation: "r", Object: "o"},
		{Subject: "a", Relation: "r", Object: "?"}, // an asked fact keeps its slot (SPEC §4c)
		{Subject: "?", Relation: "r", Object: "?"}, // but not two
		{Subject: "abcdefghij", Relation: "r", Object: "o"},
	}
	out, dropped := kgeval.CleanTriplets(in, 5)
	if dropped != 3 || len(out) != 3 || out[0].Subject != "Paris" || out[1].Object != "?" || out[2].Subject != "abcde" {
		t.Errorf("out %+v dropped %d", out, dropped)
	}
}

func TestAssemble_Empty(t *testing.T) {
	g := &kgeval.PairGraph{Sample: "s", Pair: "p", EmptyReason: "no triplets extracted from answer"}
	r := kgeval.Assemble(g, nil, nil, nil, kgeval.DefaultGraphParams())
	if r.Multihop != nil || r.Reason != "no triplets extracted from answer" {
		t.Errorf("%+v", r)
	}
	for _, s := range r.Scores() {
		if s.Value != nil || s.Reason == "" {
			t.Errorf("score %+v: want null with a reason", s)
		}
	}
	p := kgeval.DefaultGraphParams()
	p.EmptyAsZero = true
	if r := kgeval.Assemble(g, nil, nil, nil, p); r.Multihop == nil || *r.Multihop != 0 {
		t.Errorf("empty_as_zero: %+v", r)
	}
}

func TestCanonicalCommunities(t *testing.T) {
	got := kgeval.CanonicalCommunities([]int{7, 7, 3, 9, 3})
	want := []int{0, 0, 1, 2, 1}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v want %v", got, want)
		}
	}
}
