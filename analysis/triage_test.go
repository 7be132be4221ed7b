package analysis

import (
	"slices"
	"testing"

	"github.com/kgeval/kgeval"
)

func f(v float64) *float64 { return &v }

func triageRows() []kgeval.SampleScores {
	mk := func(id string, rec int, sys string, mh, sup, con *float64, reason string) kgeval.SampleScores {
		return kgeval.SampleScores{ID: id, Record: rec, System: sys, Scores: map[string]kgeval.KGResult{
			"faithfulness": {Multihop: mh, Support: sup, Contradiction: con, Reason: reason},
		}}
	}
	return []kgeval.SampleScores{
		mk("a", 0, "x", f(0.9), f(0.8), f(0), ""),            // passes all
		mk("b", 1, "x", f(0.2), f(0.6), f(0.5), ""),          // multihop and contradiction fail
		mk("c", 2, "y", f(0.4), f(0.7), f(0), ""),            // multihop fails
		mk("d", 3, "y", nil, nil, nil, "no answer triplets"), // null
		mk("e", 4, "y", f(0.3), f(0.1), f(0.2), ""),          // all three fail
	}
}

func ids(rows []TriageRow) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.ID)
	}
	return out
}

func TestTriageQuery(t *testing.T) {
	pairs := []kgeval.Pair{{Name: "faithfulness", Input: kgeval.TextAnswer, Context: kgeval.TextContexts}}
	y, reason := "y", "no answer triplets"
	tests := []struct {
		name       string
		thresholds map[string]float64
		q          TriageQuery
		want       []string
		total      int
		failing    int
		err        bool
	}{
		{name: "worst first, nulls last", want: []string{"e", "b", "c", "a", "d"}, total: 5, failing: 3},
		{name: "limit", q: TriageQuery{Limit: 2}, want: []string{"e", "b"}, total: 5, failing: 3},
		{name: "system", q: TriageQuery{System: &y}, want: []string{"e", "c", "d"}, total: 3, failing: 2},
		{name: "metric range", q: TriageQuery{Metric: "multihop", Min: f(0.25), Max: f(0.5)}, want: []string{"e", "c"}, total: 2, failing: 2},
		{name: "null reason", q: TriageQuery{Reason: &reason}, want: []string{"d"}, total: 1},
		{name: "sort asc, nulls last", q: TriageQuery{Sort: "support"}, want: []string{"e", "b", "c", "a", "d"}, total: 5, failing: 3},
		{name: "sort desc, nulls last", q: TriageQuery{Sort: "multihop", Desc: true}, want: []string{"a", "c", "e", "b", "d"}, total: 5, failing: 3},
		{name: "configured thresholds", thresholds: map[string]float64{"multihop": 0.1, "contradiction": 0.3},
			want: []string{"b", "e", "c", "a", "d"}, total: 5, failing: 2},
		{name: "bad sort", q: TriageQuery{Sort: "ts_groundedness_avg"}, err: true},
		{name: "bad pair", q: TriageQuery{Pair: "nope"}, err: true},
		{name: "range without metric", q: TriageQuery{Min: f(0.1)}, err: true},
		{name: "bad limit", q: TriageQuery{Limit: MaxTriageLimit + 1}, err: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ix := BuildTriageIndex(triageRows(), pairs, tc.thresholds)
			got, err := ix.Query(tc.q)
			if tc.err {
				if err == nil || kgeval.ErrorCode(err) != kgeval.EINVALID {
					t.Fatalf("err = %v, want EINVALID", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			p := got.Pairs[0]
			if !slices.Equal(ids(p.Rows), tc.want) || p.Total != tc.total || p.Failing != tc.failing {
				t.Errorf("rows %v total %d failing %d, want %v %d %d", ids(p.Rows), p.Total, p.Failing, tc.want, tc.total, tc.failing)
			}
			if !slices.Equal(p.Columns, []string{"multihop", "support", "contradiction"}) {
				t.Errorf("columns %v", p.Columns)
			}
		})
	}
}

func TestTriageCells(t *testing.T) {
	pairs := []kgeval.Pair{{Name: "faithfulness", Input: kgeval.TextAnswer, Context: kgeval.TextContexts}}
	ix := BuildTriageIndex(triageRows(), pairs, nil)
	got, err := ix.Query(TriageQuery{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id      string
		pass    []string // "pass", "fail", "null" per column
		failing int
	}{
		{"a", []string{"pass", "pass", "pass"}, 0},
		{"b", []string{"fail", "pass", "fail"}, 2},
		{"d", []string{"null", "null", "null"}, 0},
		{"e", []string{"fail", "fail", "fail"}, 3},
	}
	for _, tc := range tests {
		i := slices.IndexFunc(got.Pairs[0].Rows, func(r TriageRow) bool { return r.ID == tc.id })
		r := got.Pairs[0].Rows[i]
		var marks []string
		for _, c := range r.Cells {
			switch {
			case c.Pass == nil:
				marks = append(marks, "null")
			case *c.Pass:
				marks = append(marks, "pass")
			default:
				marks = append(marks, "fail")
			}
		}
		if !slices.Equal(marks, tc.pass) || r.Failing != tc.failing {
			t.Errorf("%s: %v failing %d, want %v %d", tc.id, marks, r.Failing, tc.pass, tc.failing)
		}
	}
	if !slices.Equal(got.Reasons, []string{"no answer triplets"}) || !slices.Equal(got.Systems, []string{"x", "y"}) {
		t.Errorf("reasons %v systems %v", got.Reasons, got.Systems)
	}
	if !slices.Equal(got.WhyTargets(), []WhyTarget{{"e", "faithfulness"}, {"b", "faithfulness"}, {"c", "faithfulness"}}) {
		t.Errorf("why targets %v", got.WhyTargets())
	}
	// The why: failing verdicts, contradicted first; for a pair without
	// them, the failed entities with their nearest match.
	d := &kgeval.SampleDetail{ID: "e", Pairs: []kgeval.PairDetail{{Pair: pairs[0],
		Score: &kgeval.StoredScore{KGResult: kgeval.KGResult{Verdicts: []kgeval.TripletVerdict{
			{Subject: "s", Relation: "r", Object: "ok", Verdict: kgeval.VerdictSupported},
			{Subject: "s", Relation: "r", Object: "nf", Verdict: kgeval.VerdictNotFound},
			{Subject: "s", Relation: "r", Object: "bad", Verdict: kgeval.VerdictContradicted},
		}}}}}}
	dc := &kgeval.SampleDetail{ID: "c", Pairs: []kgeval.PairDetail{{Pair: pairs[0], Score: &kgeval.StoredScore{},
		Paths: []kgeval.EntityPath{{Label: "far", Cost: f(0.8), Path: []string{"far", "near"}}, {Label: "ok", Cost: f(0.1), Passed: true}}}}}
	details := map[string]*kgeval.SampleDetail{"e": d, "c": dc}
	got.AttachWhy(func(id, pair string) (RowWhy, bool) {
		if details[id] == nil {
			return RowWhy{}, false
		}
		return WhyOfRow(details[id], pair), true
	})
	rows := got.Pairs[0].Rows
	if len(rows[0].Why) != 2 || rows[0].Why[0].Verdict != kgeval.VerdictContradicted || rows[0].Why[1].Verdict != kgeval.VerdictNotFound {
		t.Errorf("why of e: %+v", rows[0].Why)
	}
	c := rows[2]
	if c.ID != "c" || len(c.Nearest) != 1 || c.Nearest[0].Match != "near" || c.Nearest[0].Cosine == nil || *c.Nearest[0].Cosine < 0.19 || *c.Nearest[0].Cosine > 0.21 {
		t.Errorf("nearest of c: %+v", c.Nearest)
	}
}
