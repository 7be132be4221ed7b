package pipeline

import (
	"context"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/scoring/lexical"
)

// RuleExtractor is the extractor of `extraction.method: rules`: triplets
// read by rule (lexical.Chain), with no model call and no cache. Each
// triplet keeps the span of its sentence as its window. A question is read
// like any text: its triplets are full facts, not asked ones with a slot.
type RuleExtractor struct{}

// Extract implements kgeval.Extractor.
func (RuleExtractor) Extract(ctx context.Context, reqs []kgeval.ExtractRequest, progress func(done, total int)) ([]kgeval.Extraction, error) {
	out := make([]kgeval.Extraction, len(reqs))
	for i, r := range reqs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ts := []kgeval.Triplet{}
		for _, f := range lexical.Chain(r.Text) {
			ts = append(ts, kgeval.Triplet{Subject: f.Subject.Text, Relation: f.Relation.Text, Object: f.Object.Text,
				Start: f.Sentence.Start, End: f.Sentence.End})
		}
		out[i] = kgeval.Extraction{Triplets: ts}
		if progress != nil {
			progress(i+1, len(reqs))
		}
	}
	return out, nil
}
