package kgeval_test

import (
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
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

func TestJoinKey(t *testing.T) {
	if got := kgeval.GraphID("r", "s", "p"); got != "r\x1fs\x1fp" {
		t.Errorf("GraphID: %q", got)
	}
}

// TestKGResult_SetValueUnknown checks that an unknown metric name is an
// error (a panic naming it), not a value silently dropped.
func TestKGResult_SetValueUnknown(t *testing.T) {
	var r kgeval.KGResult
	r.SetValue(metricreg.MetricMultihop, kgeval.Float(0.5))
	if v := r.Value(metricreg.MetricMultihop); v == nil || *v != 0.5 {
		t.Fatalf("multihop %v, want 0.5", v)
	}
	defer func() {
		msg, _ := recover().(string)
		if !strings.Contains(msg, `unknown KG metric "multihopp"`) {
			t.Fatalf("recovered %q, want a panic naming the unknown metric", msg)
		}
	}()
	r.SetValue("multihopp", kgeval.Float(1))
	t.Fatal("SetValue with an unknown metric returned")
}
