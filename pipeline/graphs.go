package pipeline

import (
	"context"
	"fmt"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/scoring"
)

// The graph stages: embed the label keys of every triplet, then build
// the pair graphs from the triplets and their vectors.

// embed embeds every entity and relation key of the samples' triplets
// (vec), 256 at a time.
func (v *evaluation) embed(ctx context.Context) error {
	keys := v.labelKeys()
	v.vec = scoring.Vectors{}
	for lo := 0; lo < len(keys); lo += 256 {
		part := keys[lo:min(lo+256, len(keys))]
		vs, err := v.e.Embedder.Embed(ctx, part)
		if err != nil {
			return fmt.Errorf("embed entity labels: %w", err)
		}
		for i, k := range part {
			v.vec[k] = vs[i]
		}
		v.progress("embed")(min(lo+256, len(keys)), len(keys))
	}
	v.rep.EmbedTexts = len(keys)
	return nil
}

// labelKeys are the distinct label keys of the samples' triplets, in the
// order they come. An answer that a question's asked facts are checked
// against also needs its triplets' phrases (scoring.PhraseKeys; only
// answers: the contexts' phrases would multiply the labels to embed by
// five).
func (v *evaluation) labelKeys() []string {
	var keys []string
	seen := map[string]bool{}
	phrases := map[kgeval.Text]bool{}
	for _, p := range v.e.Pairs {
		if scoring.UsesPhrases(p) {
			phrases[p.Context] = true
		}
	}
	for si := range v.samples {
		for _, t := range []kgeval.Text{kgeval.TextQuestion, kgeval.TextAnswer, kgeval.TextReference, kgeval.TextContexts} {
			ts, _ := v.tri[si].Triplets(t)
			ks := scoring.LabelKeys(ts)
			if phrases[t] {
				ks = append(ks, scoring.AnswerPhraseKeys(ts)...)
			}
			for _, k := range ks {
				if !seen[k] {
					seen[k] = true
					keys = append(keys, k)
				}
			}
		}
	}
	return keys
}

// build builds the pair graph of each sample and pair not scored yet
// (graphs); a pair whose text could not be extracted gets a null result
// with the reason instead (skipped).
func (v *evaluation) build() error {
	for si, s := range v.samples {
		for _, p := range v.e.Pairs {
			if v.done(s.ID, p.Name) {
				v.rep.Resumed++
				continue
			}
			if msg, bad := v.failed[si][p.Input]; bad {
				v.skipped = append(v.skipped, kgeval.KGResult{Sample: s.ID, Pair: p.Name, Reason: kgeval.ReasonExtractionFailed + string(p.Input) + " failed: " + msg})
				continue
			}
			if msg, bad := v.failed[si][p.Context]; bad {
				v.skipped = append(v.skipped, kgeval.KGResult{Sample: s.ID, Pair: p.Name, Reason: kgeval.ReasonExtractionFailed + string(p.Context) + " failed: " + msg})
				continue
			}
			in, _ := v.tri[si].Triplets(p.Input)
			cx, _ := v.tri[si].Triplets(p.Context)
			g, err := scoring.Build(s.ID, p, scoring.Side{Text: p.Input, Triplets: in}, scoring.Side{Text: p.Context, Triplets: cx}, v.vec, v.e.Params)
			if err != nil {
				return err
			}
			v.graphs = append(v.graphs, g)
		}
	}
	return nil
}
