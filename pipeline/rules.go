package pipeline

import (
	"context"
	"slices"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
	"github.com/kgeval/kgeval/scoring"
)

// RuleExtractor is the extractor of `extraction.method: rules`: triplets
// read by rule (scoring.RuleTriplets), with no model call and no cache. Each
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
		out[i] = kgeval.Extraction{Triplets: scoring.RuleTriplets(r.Text)}
		if progress != nil {
			progress(i+1, len(reqs))
		}
	}
	return out, nil
}

// addRuleFacts adds the rule-read triplets to every extracted text's
// (extraction.method both), checked as the grounding drops.
func (v *evaluation) addRuleFacts() {
	g := v.e.Grounding
	addRuleFacts(v.texts, v.refs, v.extracted, v.tri, g != kgeval.GroundingOff && g != kgeval.GroundingKeep, v.idx.prepared)
}

// addRuleFacts appends the rule-read triplets of every extracted text to
// its sample's triplets (extraction.method both). It runs after the
// grounding check, which therefore counts the model's triplets only (its
// invention rate). The rules copy their subjects and objects from the text;
// the rare one whose value the text states otherwise (a sentence split
// between "Rs." and its amount) is left out, uncounted, when grounding is
// drop. A text the model failed on gets none, as with the model alone.
func addRuleFacts(texts []kgeval.ExtractRequest, refs []textRef, extracted []kgeval.Extraction, tri []kgeval.SampleTriplets, check bool, prepared func(string) *lexical.Text) {
	read := map[int][]kgeval.Triplet{}
	for _, r := range refs {
		if extracted[r.idx].Err != nil {
			continue
		}
		ts, ok := read[r.idx]
		if !ok {
			ts = scoring.RuleFacts(texts[r.idx].Text, check, prepared)
			read[r.idx] = ts
		}
		// A new slice: a sample's triplets may share their backing array
		// with another sample's (one text, extracted once).
		at := r.of(tri)
		*at = slices.Concat(*at, ts)
	}
}
