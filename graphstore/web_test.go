package graphstore_test

import (
	"context"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cypher"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
)

func TestDB_ListSamples(t *testing.T) {
	db := MustOpenDB(t)
	ctx := context.Background()
	r := graphstoretest.MustWebRun(t, db, 12)
	list := func(t *testing.T, q graphstore.SampleQuery) *graphstore.SamplePage {
		t.Helper()
		q.Run = r.Name
		p, err := db.ListSamples(ctx, q, r.Settings.Pairs)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ids := func(p *graphstore.SamplePage) []string {
		var out []string
		for _, s := range p.Samples {
			out = append(out, s.ID)
		}
		return out
	}
	mh := func(id string) *float64 { return r.Results[id]["faithfulness"].Multihop }

	t.Run("OK", func(t *testing.T) {
		p := list(t, graphstore.SampleQuery{Limit: 5})
		if p.Total != 12 || len(p.Samples) != 5 || p.Samples[0].ID != "s00" || p.Samples[4].ID != "s04" {
			t.Fatalf("first page: total %d, %v", p.Total, ids(p))
		}
		got := p.Samples[1].Scores["faithfulness"]
		want := r.Results["s01"]["faithfulness"]
		if got == nil || !sameFloat(got.Multihop, want.Multihop) || !sameFloat(got.CommunityOverlap, want.CommunityOverlap) || got.Reason != want.Reason {
			t.Errorf("s01 faithfulness: got %+v, want %+v", got, want)
		}
		if p.Samples[1].Scores["answer_relevancy"] == nil {
			t.Error("s01: no answer_relevancy score")
		}
		if p := list(t, graphstore.SampleQuery{Offset: 10, Limit: 5}); p.Total != 12 || !slices.Equal(ids(p), []string{"s10", "s11"}) {
			t.Errorf("last page: %d %v", p.Total, ids(p))
		}
		if p := list(t, graphstore.SampleQuery{Offset: 50, Limit: 5}); p.Total != 12 || len(p.Samples) != 0 {
			t.Errorf("past the end: %d %v", p.Total, ids(p))
		}
	})
	t.Run("SortByScore", func(t *testing.T) {
		for _, desc := range []bool{false, true} {
			p := list(t, graphstore.SampleQuery{Pair: "faithfulness", Metric: kgeval.MetricMultihop, Sort: "score", Desc: desc, Limit: 100})
			var want []string
			for _, s := range r.Samples {
				want = append(want, s.ID)
			}
			sort.SliceStable(want, func(i, j int) bool {
				a, b := mh(want[i]), mh(want[j])
				if (a == nil) != (b == nil) {
					return b == nil // nulls last
				}
				if a == nil || *a == *b {
					return false
				}
				return (*a < *b) != desc
			})
			if !slices.Equal(ids(p), want) {
				t.Errorf("desc=%v: got %v, want %v", desc, ids(p), want)
			}
		}
		p := list(t, graphstore.SampleQuery{Sort: "id", Desc: true, Limit: 3})
		if !slices.Equal(ids(p), []string{"s11", "s10", "s09"}) {
			t.Errorf("id desc: %v", ids(p))
		}
	})
	t.Run("Filters", func(t *testing.T) {
		lo, hi := 0.4, 1.0
		p := list(t, graphstore.SampleQuery{Pair: "faithfulness", Metric: kgeval.MetricMultihop, Min: &lo, Max: &hi, Limit: 100})
		var want []string
		for _, s := range r.Samples {
			if v := mh(s.ID); v != nil && *v >= lo && *v <= hi {
				want = append(want, s.ID)
			}
		}
		if len(want) == 0 || len(want) == len(r.Samples) || !slices.Equal(ids(p), want) || p.Total != len(want) {
			t.Errorf("range [%v, %v]: got %v (total %d), want %v", lo, hi, ids(p), p.Total, want)
		}
		yes := true
		p = list(t, graphstore.SampleQuery{Pair: "faithfulness", Metric: kgeval.MetricMultihop, Null: &yes, Limit: 100})
		want = nil
		reason := ""
		for _, s := range r.Samples {
			if mh(s.ID) == nil {
				want = append(want, s.ID)
				reason = r.Results[s.ID]["faithfulness"].Reason
			}
		}
		if len(want) == 0 || !slices.Equal(ids(p), want) {
			t.Errorf("null: got %v, want %v", ids(p), want)
		}
		p = list(t, graphstore.SampleQuery{Pair: "faithfulness", Metric: kgeval.MetricMultihop, Reason: &reason, Limit: 100})
		if reason == "" || !slices.Equal(ids(p), want) {
			t.Errorf("reason %q: got %v, want %v", reason, ids(p), want)
		}
		sys := "b"
		p = list(t, graphstore.SampleQuery{System: &sys, Limit: 100})
		if p.Total != 6 || p.Samples[0].ID != "s01" || p.Samples[0].System != "b" {
			t.Errorf("system b: %d %v", p.Total, ids(p))
		}
	})
	t.Run("EINVALID", func(t *testing.T) {
		for _, q := range []graphstore.SampleQuery{
			{Sort: "question"}, {Sort: "score"}, {Metric: "n.x"}, {Limit: graphstore.MaxPageSize + 1}, {Offset: -1},
			{Min: kgeval.Float(0.5)},
		} {
			q.Run = r.Name
			if _, err := db.ListSamples(ctx, q, r.Settings.Pairs); kgeval.ErrorCode(err) != kgeval.EINVALID {
				t.Errorf("%+v: err %v, want EINVALID", q, err)
			}
		}
	})
}

func TestDB_GetSample(t *testing.T) {
	db := MustOpenDB(t)
	ctx := context.Background()
	r := graphstoretest.MustWebRun(t, db, 3)
	t.Run("OK", func(t *testing.T) {
		d, err := db.GetSample(ctx, r.Name, "s01", "", r.Settings)
		if err != nil {
			t.Fatal(err)
		}
		s := r.Samples[1]
		if d.Question != s.Question || d.Answer != s.Answer || !slices.Equal(d.Contexts, s.Contexts) || d.System != "b" || d.Delta != 0.5 {
			t.Errorf("texts: %+v", d)
		}
		if len(d.Pairs) != 2 {
			t.Fatalf("%d pairs", len(d.Pairs))
		}
		for _, pd := range d.Pairs {
			g, err := db.ReadPairGraph(ctx, r.Name, "s01", pd.Pair.Name)
			if err != nil {
				t.Fatal(err)
			}
			rels := 0
			for _, n := range g.Nodes {
				if n.Kind == kgeval.KindRelation {
					rels++
				}
			}
			want := r.Results["s01"][pd.Pair.Name]
			if !pd.Stored || pd.Nodes != len(g.Nodes) || len(pd.Input)+len(pd.Context) != rels {
				t.Errorf("%s: stored %v, %d nodes, %d+%d triplets, want %d nodes and %d triplets", pd.Pair.Name, pd.Stored, pd.Nodes, len(pd.Input), len(pd.Context), len(g.Nodes), rels)
			}
			if pd.Score == nil || !sameFloat(pd.Score.Multihop, want.Multihop) || pd.Score.Engine != "native" {
				t.Errorf("%s score: %+v, want %+v", pd.Pair.Name, pd.Score, want)
			}
			if len(pd.Paths) != len(g.InputEntities()) {
				t.Errorf("%s: %d paths for %d input entities", pd.Pair.Name, len(pd.Paths), len(g.InputEntities()))
			}
			for i, ep := range pd.Paths {
				if i >= len(want.Paths) {
					break
				}
				w := want.Paths[i]
				if ep.Node != w.Node || ep.Passed != w.Passed || !sameFloat(ep.Cost, w.Cost) || !slices.Equal(ep.Path, w.Path) {
					t.Errorf("%s path %d: got %+v, want %+v", pd.Pair.Name, i, ep, w)
				}
			}
		}
	})
	t.Run("ENOTFOUND", func(t *testing.T) {
		if _, err := db.GetSample(ctx, r.Name, "nope", "", r.Settings); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
			t.Errorf("err %v, want ENOTFOUND", err)
		}
	})
}

func TestDB_RunStats(t *testing.T) {
	db := MustOpenDB(t)
	ctx := context.Background()
	r := graphstoretest.MustWebRun(t, db, 10)
	st, err := db.RunStats(ctx, r.Name, "", r.Settings)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Histograms) != len(r.Settings.Pairs)*3 {
		t.Fatalf("%d histograms", len(st.Histograms))
	}
	for _, h := range st.Histograms {
		n, nulls, sum := 0, 0, 0.0
		counts := make([]int, graphstore.HistogramBins)
		for _, s := range r.Samples {
			res := r.Results[s.ID][h.Pair]
			v := map[string]*float64{kgeval.MetricMultihop: res.Multihop, kgeval.MetricCommunityOverlap: res.CommunityOverlap, kgeval.MetricCommunityCoverage: res.CommunityCoverage}[h.Metric]
			if v == nil {
				nulls++
				continue
			}
			n++
			sum += *v
			counts[min(int(*v*graphstore.HistogramBins), graphstore.HistogramBins-1)]++
		}
		if !slices.Equal(h.Counts, counts) || h.Nulls != nulls || (n > 0 && (h.Mean == nil || math.Abs(*h.Mean-sum/float64(n)) > 1e-12)) {
			t.Errorf("%s.%s: got %v nulls %d mean %v, want %v nulls %d mean %v", h.Pair, h.Metric, h.Counts, h.Nulls, h.Mean, counts, nulls, sum/float64(n))
		}
	}
	if len(st.Systems) != 2 || st.Systems[0].System != "a" || st.Systems[0].Graphs != 10 {
		t.Errorf("systems: %+v", st.Systems)
	}
	systems, err := db.RunSystems(ctx, r.Name)
	if err != nil || len(systems) != 2 || systems[1] != (graphstore.SystemCount{System: "b", Samples: 5}) {
		t.Errorf("RunSystems: %+v %v", systems, err)
	}
}

// TestWebQueries_Parameters guards the dashboard's queries against values
// spliced into query text: no string literal, and at least one parameter
// (the console's one query is user text, guarded by CheckReadOnly instead).
func TestWebQueries_Parameters(t *testing.T) {
	lit := regexp.MustCompile(`'[^']*'|"[^"]*"`)
	for _, name := range append(graphstore.WebQueries, "web_test_sentinel_create", "web_test_sentinel_state", "web_test_sentinel_delete") {
		var code []string
		for _, line := range strings.Split(cypher.MustGet(name), "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "//") {
				code = append(code, line)
			}
		}
		q := strings.Join(code, "\n")
		if l := lit.FindString(q); l != "" {
			t.Errorf("%s: literal %s in query text", name, l)
		}
		if !strings.Contains(q, "$") {
			t.Errorf("%s takes no parameter", name)
		}
	}
}

func sameFloat(a, b *float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return math.Abs(*a-*b) < 1e-12
}
