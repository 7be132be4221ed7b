package scoring_test

import (
	"fmt"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/scoring"
)

func TestAssemble_Empty(t *testing.T) {
	g := &kgeval.PairGraph{Sample: "s", Pair: "p", EmptyReason: "no triplets extracted from answer"}
	r := scoring.Assemble(g, nil, nil, nil, kgeval.DefaultGraphParams())
	if r.Value(metricreg.MetricMultihop) != nil || r.Reason != "no triplets extracted from answer" {
		t.Errorf("%+v", r)
	}
	for _, s := range r.Scores() {
		if s.Value != nil || s.Reason == "" {
			t.Errorf("score %+v: want null with a reason", s)
		}
	}
	p := kgeval.DefaultGraphParams()
	p.EmptyAsZero = true
	if r := scoring.Assemble(g, nil, nil, nil, p); r.Value(metricreg.MetricMultihop) == nil || *r.Value(metricreg.MetricMultihop) != 0 {
		t.Errorf("empty_as_zero: %+v", r)
	}
}

func TestCanonicalCommunities(t *testing.T) {
	got := scoring.CanonicalCommunities([]int{7, 7, 3, 9, 3})
	want := []int{0, 0, 1, 2, 1}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v want %v", got, want)
		}
	}
}

// TestApplyModelVerdicts: the model decides only the open triplets
// (not_found, conflicts) that the model extracted (a rule-read one is not
// asked about and keeps the graph's verdict); the graph's verdicts stay;
// the verified scores combine both.
func TestApplyModelVerdicts(t *testing.T) {
	r := kgeval.KGResult{Verdicts: []kgeval.TripletVerdict{
		{Verdict: kgeval.VerdictSupported},
		{Verdict: kgeval.VerdictContradicted},
		{Verdict: kgeval.VerdictNotFound},
		{Verdict: kgeval.VerdictNotFound},
		{Verdict: kgeval.VerdictSupported, Conflict: true},
		{Verdict: kgeval.VerdictAnswered, Asked: true},
		{Verdict: kgeval.VerdictNotFound, Source: kgeval.SourceRules},
	}, Reasons: map[string]string{metricreg.MetricSupportVerified: "n/a: scoring.verify is off"}}
	open := scoring.OpenVerdicts(&r)
	if fmt.Sprint(open) != "[2 3 4]" {
		t.Fatalf("open %v, want [2 3 4]", open)
	}
	scoring.ApplyModelVerdicts(&r, open, []kgeval.ModelVerdict{
		{Verdict: kgeval.VerdictSupported, Reason: "r1"}, {Verdict: kgeval.VerdictNotFound}, {Verdict: kgeval.VerdictContradicted}})
	// supported: 0 and 2; contradicted: 1 and 4; of 6 full triplets (the
	// rule-read one stays not_found).
	if r.Value(metricreg.MetricSupportVerified) == nil || *r.Value(metricreg.MetricSupportVerified) != 2.0/6 || r.Value(metricreg.MetricContradictionVerified) == nil || *r.Value(metricreg.MetricContradictionVerified) != 2.0/6 {
		t.Errorf("verified %v / %v, want 1/3 / 1/3", r.Value(metricreg.MetricSupportVerified), r.Value(metricreg.MetricContradictionVerified))
	}
	if r.Verdicts[2].Verdict != kgeval.VerdictNotFound || r.Verdicts[2].Model != kgeval.VerdictSupported || r.Verdicts[2].ModelReason != "r1" {
		t.Errorf("the graph's verdict must stay beside the model's: %+v", r.Verdicts[2])
	}
	if _, ok := r.Reasons[metricreg.MetricSupportVerified]; ok {
		t.Errorf("the n/a reason stayed: %v", r.Reasons)
	}
}
