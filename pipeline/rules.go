package pipeline

import (
	"context"
	"slices"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/scoring/lexical"
)

// RuleExtractor is the extractor of `extraction.method: rules`: triplets
// read by rule (lexical.Chain), with no model call and no cache. Each
// triplet keeps the span of its sentence as its window. A question is read
// like any text: its triplets are full facts, not asked ones with a slot;
// its typed clauses add asked facts (clauseFacts).
type RuleExtractor struct{}

// Extract implements kgeval.Extractor.
func (RuleExtractor) Extract(ctx context.Context, reqs []kgeval.ExtractRequest, progress func(done, total int)) ([]kgeval.Extraction, error) {
	out := make([]kgeval.Extraction, len(reqs))
	for i, r := range reqs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ts := ruleTriplets(r.Text)
		if r.Asked {
			ts = append(ts, clauseFacts(r.Text)...)
		}
		out[i] = kgeval.Extraction{Triplets: ts}
		if progress != nil {
			progress(i+1, len(reqs))
		}
	}
	return out, nil
}

// ruleTriplets reads text's triplets by rule (lexical.Chain), each with the
// span of its sentence.
func ruleTriplets(text string) []kgeval.Triplet {
	ts := []kgeval.Triplet{}
	for _, f := range lexical.Chain(text) {
		ts = append(ts, kgeval.Triplet{Subject: f.Subject.Text, Relation: f.Relation.Text, Object: f.Object.Text,
			Start: f.Sentence.Start, End: f.Sentence.End, Source: kgeval.SourceRules})
	}
	return ts
}

// clauseFacts returns the asked facts of a question's typed clauses
// (lexical.Asked): for each, (K; clause; ?), where K, the known end, is the
// longest name the clause gives (lexical.Atoms; the first of equals), else
// the question's longest (a clause that says "it" or "its" is about the
// question's subject), and the clause is the relation, whose cue gives the
// slot its type (lexical.WantOf: "When was PharmaCann founded" asks for a
// date). A clause without a name to anchor it gives none. Source is
// kgeval.SourceClause; the span is the clause's.
func clauseFacts(question string) []kgeval.Triplet {
	atoms := lexical.Atoms(question)
	longest := func(sp lexical.Span) string {
		best := ""
		for _, a := range atoms {
			if a.Kind == lexical.AtomName && a.Span.Start >= sp.Start && a.Span.End <= sp.End && a.Span.End-a.Span.Start > len(best) {
				best = question[a.Span.Start:a.Span.End]
			}
		}
		return best
	}
	whole := longest(lexical.Span{Start: 0, End: len(question)})
	var out []kgeval.Triplet
	for _, a := range lexical.Asked(question) {
		clause := strings.TrimLeft(question[a.Span.Start:a.Span.End], ", ")
		clause = strings.TrimPrefix(clause, "and ")
		if _, rest, ok := strings.Cut(clause, ": "); ok {
			clause = rest // "Question: When was ..." is labelled, not asked
		}
		clause = strings.TrimSpace(strings.TrimRight(clause, "? "))
		k := longest(a.Span)
		if k == "" {
			k = whole
		}
		if k == "" || clause == "" || lexical.WantOf(clause) == "" {
			continue
		}
		out = append(out, kgeval.Triplet{Subject: k, Relation: clause, Object: kgeval.Slot,
			Start: a.Span.Start, End: a.Span.End, Source: kgeval.SourceClause})
	}
	return out
}

// addRuleFacts appends the rule-read triplets of every extracted text to
// its sample's triplets (extraction.method both). It runs after the
// grounding check, which therefore counts the model's triplets only (its
// invention rate). The rules copy their subjects and objects from the text;
// the rare one whose value the text states otherwise (a sentence split
// between "Rs." and its amount) is left out, uncounted, when grounding is
// drop. A text the model failed on gets none, as with the model alone.
func addRuleFacts(texts []kgeval.ExtractRequest, refs []textRef, extracted []kgeval.Extraction, tri []kgeval.SampleTriplets, check bool) {
	read := map[int][]kgeval.Triplet{}
	for _, r := range refs {
		if extracted[r.idx].Err != nil {
			continue
		}
		ts, ok := read[r.idx]
		if !ok {
			ts = ruleTriplets(texts[r.idx].Text)
			if check {
				prepared := lexical.NewText(texts[r.idx].Text)
				ts = slices.DeleteFunc(ts, func(t kgeval.Triplet) bool {
					ok, _ := lexical.GroundText(t.Subject, t.Object, prepared)
					return !ok
				})
			}
			if texts[r.idx].Asked {
				// The clause's name is copied from the question.
				ts = append(ts, clauseFacts(texts[r.idx].Text)...)
			}
			read[r.idx] = ts
		}
		// A new slice: a sample's triplets may share their backing array
		// with another sample's (one text, extracted once).
		at := r.of(tri)
		*at = slices.Concat(*at, ts)
	}
}
