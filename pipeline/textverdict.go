package pipeline

import (
	"context"
	"fmt"

	"github.com/kgeval/kgeval"
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
	textVerdicts(v.idx, v.results, v.skipped)
	return nil
}

// textVerdicts computes the sentence-evidence metrics of every result of
// each set (scoring.TextVerdicts).
func textVerdicts(idx *sampleIndex, sets ...[]kgeval.KGResult) {
	for _, results := range sets {
		for i := range results {
			if p, s, ok := idx.of(&results[i]); ok {
				scoring.TextVerdicts(&results[i], s, p, idx.prepared)
			}
		}
	}
}
