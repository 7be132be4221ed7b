package pipeline

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// ScoreRows are the score rows of a run (as readmodel.ScoreReader.RunScores
// returns them, in record order) made from what an evaluation of every
// one of samples holds: its KG results and metric values, in the form
// the store keeps them (no explanation, verdicts or claims). The CLI
// prints a run's table from them without reading the run back.
func ScoreRows(samples []kgeval.Sample, results []kgeval.KGResult, metrics []kgeval.MetricScore) []readmodel.SampleScores {
	out := make([]readmodel.SampleScores, 0, len(samples))
	for _, s := range samples {
		human, _ := json.Marshal(s.Human)
		out = append(out, readmodel.SampleScores{ID: s.ID, Record: s.Record, System: s.System, Question: s.Question, Human: string(human),
			Scores: map[string]kgeval.KGResult{}, Metrics: map[string]kgeval.MetricScore{}})
	}
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].Record != out[b].Record {
			return out[a].Record < out[b].Record
		}
		return out[a].ID < out[b].ID
	})
	index := make(map[string]int, len(out))
	for i, r := range out {
		index[r.ID] = i
	}
	for _, r := range results {
		if i, ok := index[r.Sample]; ok {
			stored := kgeval.KGResult{Sample: r.Sample, Pair: r.Pair, Reason: r.Reason, Reasons: r.Reasons}
			for _, name := range metricreg.KGMetricNames {
				stored.SetValue(name, r.Value(name))
			}
			out[i].Scores[r.Pair] = stored
		}
	}
	for _, m := range metrics {
		if i, ok := index[m.Sample]; ok {
			out[i].Metrics[m.Metric] = kgeval.MetricScore{Sample: m.Sample, Metric: m.Metric, Family: m.Family, Value: m.Value, Reason: m.Reason}
		}
	}
	return out
}

// scoreRows are the run's score rows (EvaluateOptions.Scores): made from
// what the evaluation rep holds when it evaluated every sample (a new or
// replaced run), read back from the store on a resume, whose earlier
// attempts' scores are only there.
func scoreRows(ctx context.Context, store readmodel.Services, o EvaluateOptions, rep *Report) ([]readmodel.SampleScores, error) {
	if o.Resume {
		return store.RunScores(ctx, o.Run, kgeval.DefaultVariant)
	}
	return ScoreRows(o.Samples, rep.Results, rep.Metrics), nil
}
