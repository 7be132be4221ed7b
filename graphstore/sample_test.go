package graphstore_test

import (
	"context"
	"math"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

func TestDB_ListSamples(t *testing.T) {
	db := MustOpenDB(t)
	ctx := context.Background()
	r := graphstoretest.MustWebRun(t, db, 12)
	list := func(t *testing.T, q readmodel.SampleQuery) *readmodel.SamplePage {
		t.Helper()
		q.Run = r.Name
		p, err := db.ListSamples(ctx, q, r.Settings.Pairs)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ids := func(p *readmodel.SamplePage) []string {
		var out []string
		for _, s := range p.Samples {
			out = append(out, s.ID)
		}
		return out
	}
	mh := func(id string) *float64 { return r.Results[id]["faithfulness"].Value(metricreg.MetricMultihop) }

	t.Run("OK", func(t *testing.T) {
		p := list(t, readmodel.SampleQuery{Limit: 5})
		if p.Total != 12 || len(p.Samples) != 5 || p.Samples[0].ID != "s00" || p.Samples[4].ID != "s04" {
			t.Fatalf("first page: total %d, %v", p.Total, ids(p))
		}
		got := p.Samples[1].Scores["faithfulness"]
		want := r.Results["s01"]["faithfulness"]
		if got == nil || !sameFloat(got.Value(metricreg.MetricMultihop), want.Value(metricreg.MetricMultihop)) || !sameFloat(got.Value(metricreg.MetricCommunityOverlap), want.Value(metricreg.MetricCommunityOverlap)) || got.Reason != want.Reason {
			t.Errorf("s01 faithfulness: got %+v, want %+v", got, want)
		}
		if p.Samples[1].Scores["answer_relevancy"] == nil {
			t.Error("s01: no answer_relevancy score")
		}
		if p := list(t, readmodel.SampleQuery{Offset: 10, Limit: 5}); p.Total != 12 || !slices.Equal(ids(p), []string{"s10", "s11"}) {
			t.Errorf("last page: %d %v", p.Total, ids(p))
		}
		if p := list(t, readmodel.SampleQuery{Offset: 50, Limit: 5}); p.Total != 12 || len(p.Samples) != 0 {
			t.Errorf("past the end: %d %v", p.Total, ids(p))
		}
	})
	t.Run("SortByScore", func(t *testing.T) {
		for _, desc := range []bool{false, true} {
			p := list(t, readmodel.SampleQuery{Pair: "faithfulness", Metric: metricreg.MetricMultihop, Sort: "score", Desc: desc, Limit: 100})
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
		p := list(t, readmodel.SampleQuery{Sort: "id", Desc: true, Limit: 3})
		if !slices.Equal(ids(p), []string{"s11", "s10", "s09"}) {
			t.Errorf("id desc: %v", ids(p))
		}
	})
	t.Run("Filters", func(t *testing.T) {
		lo, hi := 0.4, 1.0
		p := list(t, readmodel.SampleQuery{Pair: "faithfulness", Metric: metricreg.MetricMultihop, Min: &lo, Max: &hi, Limit: 100})
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
		p = list(t, readmodel.SampleQuery{Pair: "faithfulness", Metric: metricreg.MetricMultihop, Null: &yes, Limit: 100})
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
		p = list(t, readmodel.SampleQuery{Pair: "faithfulness", Metric: metricreg.MetricMultihop, Reason: &reason, Limit: 100})
		if reason == "" || !slices.Equal(ids(p), want) {
			t.Errorf("reason %q: got %v, want %v", reason, ids(p), want)
		}
		sys := "b"
		p = list(t, readmodel.SampleQuery{System: &sys, Limit: 100})
		if p.Total != 6 || p.Samples[0].ID != "s01" || p.Samples[0].System != "b" {
			t.Errorf("system b: %d %v", p.Total, ids(p))
		}
	})
	t.Run("OtherMetric", func(t *testing.T) {
		const m = "ts_groundedness_avg"
		val := func(id string) *float64 { return r.Metrics[id][m].Value }
		for _, desc := range []bool{false, true} {
			// A pair is ignored for a metric other than the KG ones.
			p := list(t, readmodel.SampleQuery{Pair: "faithfulness", Metric: m, Sort: "score", Desc: desc, Limit: 100})
			var want []string
			for _, s := range r.Samples {
				want = append(want, s.ID)
			}
			sort.SliceStable(want, func(i, j int) bool {
				a, b := val(want[i]), val(want[j])
				if (a == nil) != (b == nil) {
					return b == nil
				}
				if a == nil || *a == *b {
					return false
				}
				return (*a < *b) != desc
			})
			if !slices.Equal(ids(p), want) {
				t.Errorf("sort by %s desc=%v: got %v, want %v", m, desc, ids(p), want)
			}
			for _, row := range p.Samples {
				got := row.Metrics[m]
				if got == nil || !sameFloat(got.Value, val(row.ID)) || got.Reason != r.Metrics[row.ID][m].Reason || len(got.Explanation) != 0 {
					t.Errorf("%s: row metric %+v, want %+v without explanation", row.ID, got, r.Metrics[row.ID][m])
				}
				if row.Scores["faithfulness"] == nil {
					t.Errorf("%s: no KG scores beside the metric", row.ID)
				}
			}
		}
		yes, reason := true, "no triplets extracted from answer"
		var nulls []string
		for _, s := range r.Samples {
			if val(s.ID) == nil {
				nulls = append(nulls, s.ID)
			}
		}
		if p := list(t, readmodel.SampleQuery{Metric: m, Null: &yes, Limit: 100}); len(nulls) == 0 || !slices.Equal(ids(p), nulls) {
			t.Errorf("null: got %v, want %v", ids(p), nulls)
		}
		if p := list(t, readmodel.SampleQuery{Metric: m, Reason: &reason, Limit: 100}); !slices.Equal(ids(p), nulls) {
			t.Errorf("reason: got %v, want %v", ids(p), nulls)
		}
		lo := 0.5
		var high []string
		for _, s := range r.Samples {
			if v := val(s.ID); v != nil && *v >= lo {
				high = append(high, s.ID)
			}
		}
		if p := list(t, readmodel.SampleQuery{Metric: m, Min: &lo, Limit: 100}); len(high) == 0 || !slices.Equal(ids(p), high) {
			t.Errorf("min %v: got %v, want %v", lo, ids(p), high)
		}
		if p := list(t, readmodel.SampleQuery{Metric: "bert_score_f1", Min: kgeval.Float(50), Limit: 100}); p.Total == 0 || p.Total == len(r.Samples) {
			t.Errorf("bert_score_f1 >= 50 (0-100 scale): %d samples", p.Total)
		}
		if p := list(t, readmodel.SampleQuery{Metric: "no_such_metric", Null: &yes, Limit: 100}); p.Total != len(r.Samples) {
			t.Errorf("a metric no sample has is null everywhere: %d", p.Total)
		}
	})
	t.Run("EINVALID", func(t *testing.T) {
		for _, q := range []readmodel.SampleQuery{
			{Sort: "question"}, {Sort: "score"}, {Metric: "n.x"}, {Metric: "x' OR 1=1"}, {Limit: readmodel.MaxPageSize + 1}, {Offset: -1},
			{Min: kgeval.Float(0.5)}, {Metric: metricreg.MetricMultihop, Sort: "score"},
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
		d, err := db.GetSample(ctx, r.Name, "s01", "", r.Settings.Pairs)
		if err != nil {
			t.Fatal(err)
		}
		s := r.Samples[1]
		if d.Question != s.Question || d.Answer != s.Answer || !slices.Equal(d.Contexts, s.Contexts) || d.System != "b" {
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
			if pd.Score == nil || !sameFloat(pd.Score.Value(metricreg.MetricMultihop), want.Value(metricreg.MetricMultihop)) || pd.Score.Engine != "native" {
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
	t.Run("Metrics", func(t *testing.T) {
		for _, id := range []string{"s01", "s02"} {
			d, err := db.GetSample(ctx, r.Name, id, "", r.Settings.Pairs)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, m := range d.Metrics {
				names = append(names, m.Metric)
				want := r.Metrics[id][m.Metric]
				if m.Family != want.Family || !sameFloat(m.Value, want.Value) || m.Reason != want.Reason || string(m.Explanation) != string(want.Explanation) {
					t.Errorf("%s %s: got %+v (explanation %s), want %+v (explanation %s)", id, m.Metric, m, m.Explanation, want, want.Explanation)
				}
			}
			// Family order: ts, ragas, llm.
			if !slices.Equal(names, []string{"ts_groundedness_avg", "bert_score_f1", "llm_faithfulness"}) {
				t.Errorf("%s metrics: %v", id, names)
			}
		}
	})
	t.Run("ENOTFOUND", func(t *testing.T) {
		if _, err := db.GetSample(ctx, r.Name, "nope", "", r.Settings.Pairs); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
			t.Errorf("err %v, want ENOTFOUND", err)
		}
	})
}

// TestDB_GetSample_Verdicts reads the triplet verdicts and the grounding
// check of a sample back as they were stored, and sorts a sample list by a
// verdict score.
func TestDB_GetSample_Verdicts(t *testing.T) {
	db := MustOpenDB(t)
	ctx := context.Background()
	r := graphstoretest.MustVerdictRun(t, db)
	t.Run("OK", func(t *testing.T) {
		contradicted := 0
		for _, s := range r.Samples {
			d, err := db.GetSample(ctx, r.Name, s.ID, "", r.Settings.Pairs)
			if err != nil {
				t.Fatal(err)
			}
			for _, pd := range d.Pairs {
				want := r.Results[s.ID][pd.Pair.Name]
				if pd.Score == nil || len(want.Verdicts) == 0 && pd.Pair.Name == "faithfulness" && s.ID != "v09-emptycontext" {
					t.Fatalf("%s %s: score %+v, verdicts %+v", s.ID, pd.Pair.Name, pd.Score, want.Verdicts)
				}
				if !reflect.DeepEqual(pd.Score.Verdicts, want.Verdicts) {
					t.Errorf("%s %s verdicts:\n got %+v\nwant %+v", s.ID, pd.Pair.Name, pd.Score.Verdicts, want.Verdicts)
				}
				for _, v := range pd.Score.Verdicts {
					if v.Verdict == kgeval.VerdictContradicted {
						contradicted++
					}
				}
				st, err := db.ReadKGScore(ctx, r.Name, s.ID, pd.Pair.Name, kgeval.DefaultVariant)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(st.Verdicts, want.Verdicts) {
					t.Errorf("%s %s ReadKGScore verdicts: %+v, want %+v", s.ID, pd.Pair.Name, st.Verdicts, want.Verdicts)
				}
				for _, m := range metricreg.KGMetricNames {
					if !sameFloat(st.Value(m), want.Value(m)) || !sameFloat(pd.Score.Value(m), want.Value(m)) {
						t.Errorf("%s %s %s: ReadKGScore %v, GetSample %v, want %v", s.ID, pd.Pair.Name, m, st.Value(m), pd.Score.Value(m), want.Value(m))
					}
				}
			}
			if len(d.Grounding) != 2 || d.Grounding[0].Text != kgeval.TextAnswer || len(d.Grounding[0].Dropped) != 1 ||
				d.Grounding[0].Dropped[0].Reason == "" || d.Grounding[1].Text != kgeval.TextContexts {
				t.Errorf("%s grounding: %+v", s.ID, d.Grounding)
			}
		}
		if contradicted < 3 {
			t.Errorf("%d contradicted triplets in the run", contradicted)
		}
		// The sentence check stored by evaluate is read back too.
		if st, _ := db.ReadKGScore(ctx, r.Name, "v03-relationmismatch", "faithfulness", kgeval.DefaultVariant); st.Value(metricreg.MetricSupportText) == nil || *st.Value(metricreg.MetricSupportText) != 1 ||
			st.Verdicts[0].Text != kgeval.VerdictSupported || st.Verdicts[0].TextEvidence == nil {
			t.Errorf("sentence check: support_text %v, verdicts %+v", st.Value(metricreg.MetricSupportText), st.Verdicts)
		}
	})
	t.Run("NoGrounding", func(t *testing.T) {
		w := graphstoretest.MustWebRun(t, db, 1)
		d, err := db.GetSample(ctx, w.Name, "s00", "", w.Settings.Pairs)
		if err != nil || d.Grounding == nil || len(d.Grounding) != 0 {
			t.Errorf("a sample without a grounding check: %+v %v", d, err)
		}
	})
	t.Run("SortByContradiction", func(t *testing.T) {
		val := func(id string) *float64 { return r.Results[id]["faithfulness"].Value(metricreg.MetricContradiction) }
		for _, desc := range []bool{true, false} {
			p, err := db.ListSamples(ctx, readmodel.SampleQuery{Run: r.Name, Pair: "faithfulness", Metric: metricreg.MetricContradiction, Sort: "score", Desc: desc, Limit: 100}, r.Settings.Pairs)
			if err != nil {
				t.Fatal(err)
			}
			var want, got []string
			for _, s := range r.Samples {
				want = append(want, s.ID)
			}
			sort.SliceStable(want, func(i, j int) bool {
				a, b := val(want[i]), val(want[j])
				if (a == nil) != (b == nil) {
					return b == nil // nulls last
				}
				if a == nil || *a == *b {
					return false
				}
				return (*a < *b) != desc
			})
			for _, row := range p.Samples {
				got = append(got, row.ID)
				if x := row.Scores["faithfulness"]; x == nil || !sameFloat(x.Value(metricreg.MetricContradiction), val(row.ID)) || x.Verdicts != nil {
					t.Errorf("%s row: %+v (want its contradiction, no verdicts in a list)", row.ID, x)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("desc=%v: got %v, want %v", desc, got, want)
			}
			if first := val(got[0]); desc && (first == nil || *first != 1) {
				t.Errorf("most contradicted first: %s has %v", got[0], first)
			}
			if last := val(got[len(got)-1]); last != nil {
				t.Errorf("null last: %s has %v", got[len(got)-1], *last)
			}
		}
	})
}

func TestDB_RunStats(t *testing.T) {
	db := MustOpenDB(t)
	ctx := context.Background()
	r := graphstoretest.MustWebRun(t, db, 10)
	st, err := analysis.LoadRunStats(ctx, db, r.Name, "", r.Settings)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, p := range r.Settings.Pairs {
		for _, m := range r.Settings.Metrics {
			has := metricreg.GraphMetric(m)
			for _, s := range r.Samples {
				res := r.Results[s.ID][p.Name]
				has = has || res.Value(m) != nil
			}
			if has {
				want++
			}
		}
	}
	if len(st.Histograms) != want || want <= len(r.Settings.Pairs)*3 {
		t.Fatalf("%d histograms, want %d (graph scores, and verdict scores with a value)", len(st.Histograms), want)
	}
	for _, h := range st.Histograms {
		n, nulls, sum := 0, 0, 0.0
		counts := make([]int, analysis.HistogramBins)
		for _, s := range r.Samples {
			res := r.Results[s.ID][h.Pair]
			v := res.Value(h.Metric)
			if v == nil {
				nulls++
				continue
			}
			n++
			sum += *v
			counts[min(int(*v*analysis.HistogramBins), analysis.HistogramBins-1)]++
		}
		if !slices.Equal(h.Counts, counts) || h.Nulls != nulls || (n > 0 && (h.Mean == nil || math.Abs(*h.Mean-sum/float64(n)) > 1e-12)) {
			t.Errorf("%s.%s: got %v nulls %d mean %v, want %v nulls %d mean %v", h.Pair, h.Metric, h.Counts, h.Nulls, h.Mean, counts, nulls, sum/float64(n))
		}
	}
	if len(st.Systems) != 2 || st.Systems[0].System != "a" || st.Systems[0].Graphs != 10 {
		t.Errorf("systems: %+v", st.Systems)
	}
	systems, err := db.RunSystems(ctx, r.Name)
	if err != nil || len(systems) != 2 || systems[1] != (readmodel.SystemCount{System: "b", Samples: 5}) {
		t.Errorf("RunSystems: %+v %v", systems, err)
	}

	// The other metrics: distributions over a range fitting their scale,
	// nulls with reasons, and per-system means.
	var names []string
	for _, ms := range st.Metrics {
		names = append(names, ms.Metric)
		lo, hi := 0.0, 1.0
		if ms.Metric == "bert_score_f1" {
			hi = 100
		}
		counts := make([]int, analysis.HistogramBins)
		nulls, n, sum := 0, 0, 0.0
		reasons := map[string]int{}
		sys := map[string][]float64{}
		for _, s := range r.Samples {
			m := r.Metrics[s.ID][ms.Metric]
			if m.Value == nil {
				nulls++
				reasons[m.Reason]++
				continue
			}
			n++
			sum += *m.Value
			counts[min(int((*m.Value-lo)/(hi-lo)*analysis.HistogramBins), analysis.HistogramBins-1)]++
			sys[s.System] = append(sys[s.System], *m.Value)
		}
		if ms.Lo != lo || ms.Hi != hi || !slices.Equal(ms.Counts, counts) || ms.Nulls != nulls || ms.Scored != n {
			t.Errorf("%s: range [%v, %v] counts %v nulls %d scored %d; want [%v, %v] %v %d %d", ms.Metric, ms.Lo, ms.Hi, ms.Counts, ms.Nulls, ms.Scored, lo, hi, counts, nulls, n)
		}
		if n > 0 && (ms.Mean == nil || math.Abs(*ms.Mean-sum/float64(n)) > 1e-9) || n == 0 && ms.Mean != nil {
			t.Errorf("%s: mean %v, want %v", ms.Metric, ms.Mean, sum/float64(n))
		}
		if len(ms.Reasons) != len(reasons) {
			t.Errorf("%s: reasons %+v, want %v", ms.Metric, ms.Reasons, reasons)
		}
		for _, x := range ms.Reasons {
			if reasons[x.Reason] != x.Count {
				t.Errorf("%s: reason %q counted %d, want %d", ms.Metric, x.Reason, x.Count, reasons[x.Reason])
			}
		}
		for _, ss := range st.Systems {
			vs := sys[ss.System]
			got := ss.Means[ms.Metric]
			if len(vs) == 0 {
				if got != nil || ss.Scored[ms.Metric] != 0 {
					t.Errorf("%s system %s: mean %v of nothing", ms.Metric, ss.System, *got)
				}
				continue
			}
			mean := 0.0
			for _, v := range vs {
				mean += v / float64(len(vs))
			}
			if got == nil || math.Abs(*got-mean) > 1e-9 || ss.Scored[ms.Metric] != len(vs) {
				t.Errorf("%s system %s: mean %v n %d, want %v n %d", ms.Metric, ss.System, got, ss.Scored[ms.Metric], mean, len(vs))
			}
		}
	}
	if !slices.Equal(names, []string{"ts_groundedness_avg", "bert_score_f1", "llm_faithfulness"}) {
		t.Errorf("metrics: %v", names)
	}
}

func TestDB_RunSweep(t *testing.T) {
	db := MustOpenDB(t)
	ctx := context.Background()
	r := graphstoretest.MustWebRun(t, db, 6)
	pts, err := db.RunSweep(ctx, r.Name)
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != len(graphstoretest.WebSweep)*len(r.Settings.Pairs) {
		t.Fatalf("%d points: %+v", len(pts), pts)
	}
	for i, p := range pts {
		want := graphstoretest.WebSweep[p.Variant]
		if p.Tau != want.Tau || p.Delta != want.Delta || p.Graphs != len(r.Samples) {
			t.Errorf("%+v: want tau %v delta %v, %d graphs", p, want.Tau, want.Delta, len(r.Samples))
		}
		if i > 0 && pts[i-1].Delta > p.Delta {
			t.Errorf("not in delta order: %+v after %+v", p, pts[i-1])
		}
		sum, n := 0.0, 0
		for _, x := range r.Sweep[p.Variant] {
			if x.Pair == p.Pair && x.Value(metricreg.MetricMultihop) != nil {
				sum += *x.Value(metricreg.MetricMultihop)
				n++
			}
		}
		if p.Scored != n || n > 0 && (p.Multihop == nil || math.Abs(*p.Multihop-sum/float64(n)) > 1e-9) {
			t.Errorf("%s %s: multihop %v over %d, want %v over %d", p.Variant, p.Pair, p.Multihop, p.Scored, sum/float64(n), n)
		}
	}
	if pts, err := db.RunSweep(ctx, r.Name+"-never-swept"); err != nil || len(pts) != 0 {
		t.Errorf("a run never swept: %+v %v", pts, err)
	}
}

func sameFloat(a, b *float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return math.Abs(*a-*b) < 1e-12
}

// TestDB_RunKGScores checks that RunKGScores is RunScores without the other
// metric values.
func TestDB_RunKGScores(t *testing.T) {
	db := MustOpenDB(t)
	ctx := context.Background()
	r := graphstoretest.MustWebRun(t, db, 6)
	all, err := db.RunScores(ctx, r.Name, kgeval.DefaultVariant)
	if err != nil {
		t.Fatal(err)
	}
	kg, err := db.RunKGScores(ctx, r.Name, kgeval.DefaultVariant)
	if err != nil {
		t.Fatal(err)
	}
	if len(kg) != 6 || len(all) != 6 {
		t.Fatalf("%d and %d rows, want 6", len(kg), len(all))
	}
	for i := range all {
		if len(all[i].Metrics) == 0 || len(kg[i].Metrics) != 0 {
			t.Errorf("row %d: %d and %d metric values", i, len(all[i].Metrics), len(kg[i].Metrics))
		}
		all[i].Metrics = kg[i].Metrics
		if !reflect.DeepEqual(all[i], kg[i]) {
			t.Errorf("row %d: %+v, want %+v", i, kg[i], all[i])
		}
	}
}
