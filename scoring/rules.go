package scoring

import (
	"context"
	"slices"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
)

// RuleTriplets reads text's triplets by rule (lexical.Chain), each with the
// span of its sentence.
func RuleTriplets(text string) []kgeval.Triplet {
	ts := []kgeval.Triplet{}
	for _, f := range lexical.Chain(text) {
		ts = append(ts, kgeval.Triplet{Subject: f.Subject.Text, Relation: f.Relation.Text, Object: f.Object.Text,
			Start: f.Sentence.Start, End: f.Sentence.End, Source: kgeval.SourceRules})
	}
	return ts
}

// RuleFacts returns the triplets RuleTriplets reads from text, with check
// only those whose subject and object the text states as they are: the
// rules copy their ends from the text, and the rare one whose value the
// text states otherwise (a sentence split between "Rs." and its amount) is
// left out. prepared prepares text for that check (the caller's cache).
func RuleFacts(text string, check bool, prepared func(string) *lexical.Text) []kgeval.Triplet {
	ts := RuleTriplets(text)
	if check {
		own := prepared(text)
		ts = slices.DeleteFunc(ts, func(t kgeval.Triplet) bool {
			ok, _ := lexical.GroundText(t.Subject, t.Object, own)
			return !ok
		})
	}
	return ts
}

// RuleExtractor is the extractor of `extraction.method: rules`: triplets
// read by rule (RuleTriplets), with no model call and no cache. Each
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
		out[i] = kgeval.Extraction{Triplets: RuleTriplets(r.Text)}
		if progress != nil {
			progress(i+1, len(reqs))
		}
	}
	return out, nil
}
