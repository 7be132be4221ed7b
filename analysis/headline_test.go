package analysis

import (
	"math"
	"slices"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/kgeval/kgeval/scoring/claims"
)

// TestHeadline: the headline follows the pair's text kinds, not its name.
func TestHeadline(t *testing.T) {
	for _, tc := range []struct {
		pair kgeval.Pair
		want string
	}{
		{kgeval.Pair{Name: "faithfulness", Input: kgeval.TextAnswer, Context: kgeval.TextContexts}, "score"},
		{kgeval.Pair{Name: "factual_correctness", Input: kgeval.TextAnswer, Context: kgeval.TextReference}, "score"},
		{kgeval.Pair{Name: "answer_relevancy", Input: kgeval.TextQuestion, Context: kgeval.TextAnswer}, "slot_coverage"},
		{kgeval.Pair{Name: "context_relevancy", Input: kgeval.TextQuestion, Context: kgeval.TextContexts}, "slot_coverage"},
		{kgeval.Pair{Name: "my_pair", Input: kgeval.TextReference, Context: kgeval.TextContexts}, "score"},
		{kgeval.Pair{Name: "faithfulness", Input: kgeval.TextQuestion, Context: kgeval.TextContexts}, "slot_coverage"},
	} {
		if got := Headline(tc.pair); got != tc.want {
			t.Errorf("%+v: %s, want %s", tc.pair, got, tc.want)
		}
	}
	var names []string
	for _, p := range HeadlinePairs(kgeval.DefaultPairs()) {
		names = append(names, p.Name)
	}
	if want := []string{"faithfulness", "factual_correctness", "answer_relevancy", "context_relevancy"}; !slices.Equal(names, want) {
		t.Errorf("order %v, want %v", names, want)
	}
}

// TestPassMark: score passes at the committed calibration's mark, with
// the model the cascade's (ModelPassMark), without it the zero-call fit's;
// slot_coverage at 0.5, a contradiction score at 0.
func TestPassMark(t *testing.T) {
	c, err := claims.DefaultCalibration()
	if err != nil {
		t.Fatal(err)
	}
	if got := PassMark("score", true); got != c.ModelPassMark() || c.Cascade == nil || got != c.Cascade.PassMark {
		t.Errorf("score with the model: %v, want the cascade's %v", got, c.ModelPassMark())
	}
	if got := PassMark("score", false); got != c.WithoutModel.PassMark {
		t.Errorf("score without the model: %v, want %v", got, c.WithoutModel.PassMark)
	}
	if PassMark("slot_coverage", true) != 0.5 || PassMark("contradiction", false) != 0 || DefaultThresholds()["score"] != c.WithoutModel.PassMark {
		t.Error("default marks")
	}
}

func TestHeadlines(t *testing.T) {
	c, _ := claims.DefaultCalibration()
	pairs := []kgeval.Pair{
		{Name: "context_relevancy", Input: kgeval.TextQuestion, Context: kgeval.TextContexts},
		{Name: "faithfulness", Input: kgeval.TextAnswer, Context: kgeval.TextContexts},
		{Name: "answer_relevancy", Input: kgeval.TextQuestion, Context: kgeval.TextAnswer},
		{Name: "factual_correctness", Input: kgeval.TextAnswer, Context: kgeval.TextReference}, // no result: left out
	}
	mk := func(id, sys string, score, p, slot *float64, reason string) readmodel.SampleScores {
		return readmodel.SampleScores{ID: id, System: sys, Scores: map[string]kgeval.KGResult{
			"faithfulness":      kgeval.KGResult{Reasons: map[string]string{"score": reason}}.With(metricreg.MetricClaimScore, score).With(metricreg.MetricPSupported, p),
			"context_relevancy": kgeval.KGResult{}.With(metricreg.MetricSlotCoverage, slot).With(metricreg.MetricMultihop, f(0.1)),
			"answer_relevancy":  {Reason: "no asked fact"},
		}}
	}
	hi, lo := c.ModelPassMark()+0.01, c.ModelPassMark()-0.01
	rows := []readmodel.SampleScores{
		mk("1", "a", f(hi), f(0.9), f(1), ""),
		mk("2", "a", f(lo), f(0.1), f(0.4), ""),
		mk("3", "b", f(0.99), nil, f(0.5), ""),
		mk("4", "b", nil, nil, nil, "the input states no claim"),
	}
	t.Run("Systems", func(t *testing.T) {
		got := Headlines(rows, pairs, nil)
		type row struct {
			pair, metric, system string
			n, passing           int
			mean                 float64
			nulls                int
		}
		// faithfulness per system, answer_relevancy (null everywhere) in one
		// row over all samples, context_relevancy per system.
		if n := len(got); n != 5 || !got[2].All || got[2].Pair.Name != "answer_relevancy" || got[2].N != 0 || !math.IsNaN(got[2].Mean) || got[2].Nulls["no asked fact"] != 4 {
			t.Fatalf("a pair null everywhere: got %d rows, the third %+v", n, got[min(2, n-1)])
		}
		got = slices.Delete(got, 2, 3)
		var rs []row
		for _, h := range got {
			nulls := 0
			for _, n := range h.Nulls {
				nulls += n
			}
			rs = append(rs, row{h.Pair.Name, h.Metric, h.System, h.N, h.Passing, math.Round(h.Mean*1000) / 1000, nulls})
			if h.All {
				t.Errorf("%+v: All with two systems", h)
			}
			if h.Metric == "score" && (!h.WithModel || h.PassMark != c.ModelPassMark()) {
				t.Errorf("%s: pass mark %v with model %v, want the calibrated mark with the model", h.Pair.Name, h.PassMark, h.WithModel)
			}
		}
		// context_relevancy has no fitted mark: nothing passes.
		want := []row{
			{"faithfulness", "score", "a", 2, 1, math.Round(c.ModelPassMark()*1000) / 1000, 0},
			{"faithfulness", "score", "b", 1, 1, 0.99, 1},
			{"context_relevancy", "slot_coverage", "a", 2, 0, 0.7, 0},
			{"context_relevancy", "slot_coverage", "b", 1, 0, 0.5, 1},
		}
		if !slices.Equal(rs, want) {
			t.Errorf("headlines\n got %+v\nwant %+v", rs, want)
		}
		if got[1].Nulls["the input states no claim"] != 1 {
			t.Errorf("null reasons %v", got[1].Nulls)
		}
	})
	t.Run("OneSystem", func(t *testing.T) {
		one := slices.Clone(rows)
		for i := range one {
			one[i].System = ""
			one[i].Scores = map[string]kgeval.KGResult{"faithfulness": kgeval.KGResult{}.With(metricreg.MetricClaimScore, rows[i].Scores["faithfulness"].Value(metricreg.MetricClaimScore))}
		}
		got := Headlines(one, pairs, map[string]float64{"score": 0.995})
		if len(got) != 1 || !got[0].All || got[0].N != 3 || got[0].Passing != 0 || got[0].PassMark != 0.995 || got[0].WithModel {
			t.Errorf("%+v", got)
		}
		if got := Headlines(one, pairs, nil); got[0].PassMark != c.WithoutModel.PassMark || got[0].WithModel || math.Abs(got[0].Share()-float64(got[0].Passing)/3) > 1e-12 {
			t.Errorf("without p_supported: %+v", got[0])
		}
	})
}
