package metrics_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metrics"
)

func TestParseClass(t *testing.T) {
	for in, want := range map[string]metrics.Class{
		"CORRECT":    metrics.ClassCorrect,
		" correct\n": metrics.ClassCorrect,
		"Wrong":      metrics.ClassWrong,
		"DONT_KNOW":  metrics.ClassDontKnow,
		"dont know":  metrics.ClassDontKnow,
		"DONT-KNOW":  metrics.ClassDontKnow,
	} {
		if got, err := metrics.ParseClass(in); err != nil || got != want {
			t.Errorf("ParseClass(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "RIGHT", "DON'T KNOW", "correct!"} {
		_, err := metrics.ParseClass(in)
		MustCode(t, err, kgeval.EINVALID)
	}
}

func TestClassTally_Add(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		var tally metrics.ClassTally
		for _, a := range []struct {
			system string
			class  metrics.Class
		}{
			{"rag-b", metrics.ClassCorrect},
			{"rag-a", metrics.ClassCorrect},
			{"rag-a", metrics.ClassWrong},
			{"rag-a", metrics.ClassDontKnow},
			{"rag-b", metrics.ClassCorrect},
			{"", metrics.ClassWrong},
		} {
			if err := tally.Add(a.system, a.class); err != nil {
				t.Fatal(err)
			}
		}
		if want := (metrics.ClassCounts{Correct: 3, Wrong: 2, DontKnow: 1}); tally.Overall != want {
			t.Errorf("overall %+v, want %+v", tally.Overall, want)
		}
		if want := (metrics.ClassCounts{Correct: 1, Wrong: 1, DontKnow: 1}); tally.BySystem["rag-a"] != want {
			t.Errorf("rag-a %+v, want %+v", tally.BySystem["rag-a"], want)
		}
		if want := (metrics.ClassCounts{Correct: 2}); tally.BySystem["rag-b"] != want {
			t.Errorf("rag-b %+v, want %+v", tally.BySystem["rag-b"], want)
		}
		if got := tally.Systems(); !slices.Equal(got, []string{"rag-a", "rag-b"}) {
			t.Errorf("systems %v", got)
		}
		if tally.Overall.Total() != 6 || tally.Overall.Count(metrics.ClassWrong) != 2 || tally.Overall.Count("MAYBE") != 0 {
			t.Errorf("Total/Count: %+v", tally.Overall)
		}
		b, err := json.Marshal(tally)
		if err != nil {
			t.Fatal(err)
		}
		const want = `{"overall":{"CORRECT":3,"WRONG":2,"DONT_KNOW":1},"by_system":{"rag-a":{"CORRECT":1,"WRONG":1,"DONT_KNOW":1},"rag-b":{"CORRECT":2,"WRONG":0,"DONT_KNOW":0}}}`
		if string(b) != want {
			t.Errorf("JSON %s\nwant %s", b, want)
		}
	})
	t.Run("EINVALID", func(t *testing.T) {
		var tally metrics.ClassTally
		MustCode(t, tally.Add("rag-a", "MAYBE"), kgeval.EINVALID)
		if tally.Overall.Total() != 0 || tally.BySystem != nil {
			t.Errorf("an invalid class was counted: %+v", tally)
		}
	})
}
