package analysis

import (
	"slices"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

func f(v float64) *float64 { return &v }

func triageRows() []readmodel.SampleScores {
	mk := func(id string, rec int, sys string, score, mh, sup, con *float64, reason string) readmodel.SampleScores {
		return readmodel.SampleScores{ID: id, Record: rec, System: sys, Scores: map[string]kgeval.KGResult{
			"faithfulness": kgeval.KGResult{Reason: reason}.With(metricreg.MetricClaimScore, score).With(metricreg.MetricMultihop, mh).With(metricreg.MetricSupport, sup).With(metricreg.MetricContradiction, con),
		}}
	}
	// The headline (score) decides failing and rank; multihop, support and
	// contradiction are diagnostics.
	return []readmodel.SampleScores{
		mk("a", 0, "x", f(0.9), f(0.9), f(0.8), f(0), ""),         // passes all
		mk("b", 1, "x", f(0.3), f(0.2), f(0.6), f(0.5), ""),       // fails; multihop and contradiction fail too
		mk("c", 2, "y", f(0.7), f(0.4), f(0.7), f(0), ""),         // passes; multihop fails (a diagnostic)
		mk("d", 3, "y", nil, nil, nil, nil, "no answer triplets"), // null
		mk("e", 4, "y", f(0.1), f(0.3), f(0.1), f(0.2), ""),       // all fail
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
		{name: "worst first, nulls last", want: []string{"e", "b", "c", "a", "d"}, total: 5, failing: 2},
		{name: "limit", q: TriageQuery{Limit: 2}, want: []string{"e", "b"}, total: 5, failing: 2},
		{name: "system", q: TriageQuery{System: &y}, want: []string{"e", "c", "d"}, total: 3, failing: 1},
		{name: "metric range", q: TriageQuery{Metric: "multihop", Min: f(0.25), Max: f(0.5)}, want: []string{"e", "c"}, total: 2, failing: 1},
		{name: "null reason", q: TriageQuery{Reason: &reason}, want: []string{"d"}, total: 1},
		{name: "sort asc, nulls last", q: TriageQuery{Sort: "support"}, want: []string{"e", "b", "c", "a", "d"}, total: 5, failing: 2},
		{name: "sort desc, nulls last", q: TriageQuery{Sort: "multihop", Desc: true}, want: []string{"a", "c", "e", "b", "d"}, total: 5, failing: 2},
		{name: "configured score threshold", thresholds: map[string]float64{"score": 0.75},
			want: []string{"e", "b", "c", "a", "d"}, total: 5, failing: 3},
		{name: "diagnostic thresholds neither fail nor rank", thresholds: map[string]float64{"multihop": 1, "support": 1, "contradiction": 0},
			want: []string{"e", "b", "c", "a", "d"}, total: 5, failing: 2},
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
			if !slices.Equal(p.Columns, []string{"score", "multihop", "support", "contradiction"}) || p.Headline != "score" {
				t.Errorf("columns %v headline %q", p.Columns, p.Headline)
			}
			if want := PassMark("score", false); tc.thresholds["score"] == 0 && (p.PassMark == nil || *p.PassMark != want) {
				t.Errorf("pass mark %v, want the calibrated %v", p.PassMark, want)
			}
			// A calibrated mark says how sure it is; a configured one does not.
			if lo, hi, _ := MarkSpread(false); (tc.thresholds["score"] == 0) != (p.MarkSpread != nil) || p.MarkSpread != nil && *p.MarkSpread != [2]float64{lo, hi} {
				t.Errorf("mark spread %v with thresholds %v", p.MarkSpread, tc.thresholds)
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
		pass    []string // "pass", "fail", "null" per column: score, multihop, support, contradiction
		failing int
	}{
		{"a", []string{"pass", "pass", "pass", "pass"}, 0},
		{"b", []string{"fail", "fail", "pass", "fail"}, 1},
		{"c", []string{"pass", "fail", "pass", "pass"}, 0}, // a failing diagnostic does not count
		{"d", []string{"null", "null", "null", "null"}, 0},
		{"e", []string{"fail", "fail", "fail", "fail"}, 1},
	}
	for _, tc := range tests {
		i := slices.IndexFunc(got.Pairs[0].Rows, func(r TriageRow) bool { return r.ID == tc.id })
		r := got.Pairs[0].Rows[i]
		if !slices.Equal(marks(r), tc.pass) || r.Failing != tc.failing {
			t.Errorf("%s: %v failing %d, want %v %d", tc.id, marks(r), r.Failing, tc.pass, tc.failing)
		}
	}
	if !slices.Equal(got.Reasons, []string{"no answer triplets"}) || !slices.Equal(got.Systems, []string{"x", "y"}) {
		t.Errorf("reasons %v systems %v", got.Reasons, got.Systems)
	}
	if !slices.Equal(got.WhyTargets(), []WhyTarget{{"e", "faithfulness"}, {"b", "faithfulness"}}) {
		t.Errorf("why targets %v", got.WhyTargets())
	}
	// The why: the claims that are not supported, lowest score first;
	// without claims, the failing verdicts, contradicted first.
	de := &readmodel.SampleDetail{ID: "e", Pairs: []readmodel.PairDetail{{Pair: pairs[0],
		Score: &readmodel.StoredScore{KGResult: kgeval.KGResult{Claims: []kgeval.ClaimCheck{
			{Text: "fine", Score: 0.8, Verdict: kgeval.ClaimSupported},
			{Text: "weak", Score: 0.3, Verdict: kgeval.ClaimUnsupported, Model: &kgeval.ClaimProb{P: 0.2},
				Evidence: []kgeval.ClaimEvidence{{Text: "best sentence.", Why: []string{"path"}}, {Text: "second."}}},
			{Text: "founded in 2014", Score: 0.1, Verdict: kgeval.ClaimContradicted,
				Conflicts: []kgeval.ClaimConflict{{Kind: "date", Claim: "2014", Evidence: "2010", Sentence: "founded in 2010."}}},
		}, Verdicts: []kgeval.TripletVerdict{{Subject: "s", Relation: "r", Object: "bad", Verdict: kgeval.VerdictContradicted}}}}}}}
	db := &readmodel.SampleDetail{ID: "b", Pairs: []readmodel.PairDetail{{Pair: pairs[0],
		Score: &readmodel.StoredScore{KGResult: kgeval.KGResult{Verdicts: []kgeval.TripletVerdict{
			{Subject: "s", Relation: "r", Object: "ok", Verdict: kgeval.VerdictSupported},
			{Subject: "s", Relation: "r", Object: "nf", Verdict: kgeval.VerdictNotFound},
			{Subject: "s", Relation: "r", Object: "bad", Verdict: kgeval.VerdictContradicted},
		}}}}}}
	details := map[string]*readmodel.SampleDetail{"e": de, "b": db}
	got.AttachWhy(func(id, pair string) (RowWhy, bool) {
		if details[id] == nil {
			return RowWhy{}, false
		}
		return WhyOfRow(details[id], pair), true
	})
	rows := got.Pairs[0].Rows
	e := rows[0]
	if e.ID != "e" || len(e.Claims) != 2 || len(e.Why) != 0 || e.WhyMore != 0 {
		t.Fatalf("why of e: claims %+v why %+v", e.Claims, e.Why)
	}
	if c := e.Claims[0]; c.Text != "founded in 2014" || c.Verdict != kgeval.ClaimContradicted || c.Conflict != `date "2014", the evidence says "2010"` || c.P != nil {
		t.Errorf("first claim of e: %+v", c)
	}
	if c := e.Claims[1]; c.Text != "weak" || c.P == nil || *c.P != 0.2 || c.Evidence != "best sentence." || !slices.Equal(c.Why, []string{"path"}) {
		t.Errorf("second claim of e: %+v", c)
	}
	if b := rows[1]; len(b.Why) != 2 || b.Why[0].Verdict != kgeval.VerdictContradicted || b.Why[1].Verdict != kgeval.VerdictNotFound || len(b.Claims) != 0 {
		t.Errorf("why of b: %+v", b.Why)
	}
}

// marks are a row's cells as "pass", "fail" or "null".
func marks(r TriageRow) []string {
	var out []string
	for _, c := range r.Cells {
		switch {
		case c.Pass == nil:
			out = append(out, "null")
		case *c.Pass:
			out = append(out, "pass")
		default:
			out = append(out, "fail")
		}
	}
	return out
}

// TestTriage_QuestionPair: a question pair's headline is slot_coverage,
// shown first even where the run has another score first in
// TriageMetrics; it has no fitted pass mark (HasMark), so no row passes or
// fails on it, its diagnostics are still marked; a row without verdicts
// explains its failed entities with their nearest match.
func TestTriage_QuestionPair(t *testing.T) {
	pairs := []kgeval.Pair{{Name: "context_relevancy", Input: kgeval.TextQuestion, Context: kgeval.TextContexts}}
	mk := func(id string, rec int, slot, overlap *float64) readmodel.SampleScores {
		return readmodel.SampleScores{ID: id, Record: rec, Scores: map[string]kgeval.KGResult{
			"context_relevancy": kgeval.KGResult{}.With(metricreg.MetricSlotCoverage, slot).With(metricreg.MetricCommunityOverlap, overlap).With(metricreg.MetricMultihop, f(1))}}
	}
	rows := []readmodel.SampleScores{
		mk("grounded", 0, f(1), f(0.2)), // answered; community_overlap fails as a diagnostic
		mk("unasked", 1, nil, f(0.1)),   // no asked fact: null headline
		mk("missing", 2, f(0), f(0.9)),  // fails
		mk("half", 3, f(0.5), f(0.3)),   // passes at 0.5
	}
	got, err := BuildTriageIndex(rows, pairs, map[string]float64{"community_overlap": 0.5}).Query(TriageQuery{})
	if err != nil {
		t.Fatal(err)
	}
	p := got.Pairs[0]
	if p.Headline != "slot_coverage" || p.PassMark != nil || !slices.Equal(p.Columns, []string{"slot_coverage", "multihop", "community_overlap"}) {
		t.Errorf("headline %q pass mark %v columns %v", p.Headline, p.PassMark, p.Columns)
	}
	if !slices.Equal(ids(p.Rows), []string{"missing", "half", "grounded", "unasked"}) || p.Failing != 0 {
		t.Errorf("rows %v failing %d, want lowest first and none failing", ids(p.Rows), p.Failing)
	}
	if m := marks(p.Rows[2]); !slices.Equal(m, []string{"null", "pass", "fail"}) || p.Rows[2].Failing != 0 {
		t.Errorf("grounded: %v failing %d", m, p.Rows[2].Failing)
	}
	d := &readmodel.SampleDetail{ID: "missing", Pairs: []readmodel.PairDetail{{Pair: pairs[0], Score: &readmodel.StoredScore{},
		Paths: []kgeval.EntityPath{{Label: "far", Cost: f(0.8), Path: []string{"far", "near"}}, {Label: "ok", Cost: f(0.1), Passed: true}}}}}
	c := WhyOfRow(d, pairs[0].Name)
	if len(c.Nearest) != 1 || c.Nearest[0].Match != "near" || c.Nearest[0].Cosine == nil || *c.Nearest[0].Cosine < 0.19 || *c.Nearest[0].Cosine > 0.21 {
		t.Errorf("nearest of missing: %+v", c.Nearest)
	}
}
