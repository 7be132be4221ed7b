package pipeline

import (
	"context"
	"fmt"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
	"github.com/kgeval/kgeval/scoring"
)

// score scores the pair graphs with the KG engine (results) and adds the
// text verdicts to them and to the skipped pairs' (atom_support needs no
// extraction).
func (v *evaluation) score(ctx context.Context) error {
	var err error
	if v.results, err = v.e.Engine.Score(ctx, v.run, v.graphs, v.e.Params); err != nil {
		return fmt.Errorf("score with %s: %w", v.e.Engine.Name(), err)
	}
	v.e.textVerdicts(v.samples, v.results)
	v.e.textVerdicts(v.samples, v.skipped)
	return nil
}

// lookups returns the pairs by name, the samples by id and a cache of
// prepared texts (a passage shared by many samples is prepared once): what
// the sentence check and the model check both start from.
func (e *Evaluator) lookups(samples []kgeval.Sample) (map[string]kgeval.Pair, map[string]*kgeval.Sample, func(string) *lexical.Text) {
	pairs := map[string]kgeval.Pair{}
	for _, p := range e.Pairs {
		pairs[p.Name] = p
	}
	byID := map[string]*kgeval.Sample{}
	for i := range samples {
		byID[samples[i].ID] = &samples[i]
	}
	texts := map[string]*lexical.Text{}
	return pairs, byID, func(s string) *lexical.Text {
		t, ok := texts[s]
		if !ok {
			t = lexical.NewText(s)
			texts[s] = t
		}
		return t
	}
}

// textVerdicts computes the sentence-evidence metrics of every result
// (scoring.TextVerdicts).
func (e *Evaluator) textVerdicts(samples []kgeval.Sample, results []kgeval.KGResult) {
	pairs, byID, prepared := e.lookups(samples)
	for i := range results {
		p, ok := pairs[results[i].Pair]
		s := byID[results[i].Sample]
		if ok && s != nil {
			scoring.TextVerdicts(&results[i], s, p, prepared)
		}
	}
}
