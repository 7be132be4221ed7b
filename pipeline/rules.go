package pipeline

import (
	"slices"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
	"github.com/kgeval/kgeval/scoring"
)

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
