package scoring

import (
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
)

// GroundSample checks the extracted triplets of one sample's texts against
// their source (SPEC §2b): a question against itself, an answer or a
// reference against itself and the question it was extracted with, a
// passage against itself. The slot "?" of an asked fact is not checked.
// extracted says which texts were extracted (a dataset's own triplets are
// not checked). With drop, ungrounded triplets are removed from st. A
// grounded triplet's span narrows from its window to the sentence that
// states it, when one does. prepared prepares each text for the lexical
// checks (the caller's cache: the later stages read the same texts).
func GroundSample(s kgeval.Sample, st *kgeval.SampleTriplets, extracted func(kgeval.Text) bool, drop bool, prepared func(string) *lexical.Text) []kgeval.Grounding {
	var out []kgeval.Grounding
	question := prepared(s.Question)
	check := func(kind kgeval.Text, passage int, ts []kgeval.Triplet, own *lexical.Text, texts ...*lexical.Text) []kgeval.Triplet {
		g := kgeval.Grounding{Sample: s.ID, Text: kind, Passage: passage}
		kept := make([]kgeval.Triplet, 0, len(ts))
		for _, t := range ts {
			subj, obj := t.Subject, t.Object
			var ok bool
			var reason string
			switch {
			case kgeval.IsSlot(subj):
				subj = ""
				reason = lexical.GroundLabel("object", obj, texts...)
				ok = reason == ""
			case kgeval.IsSlot(obj):
				obj = ""
				reason = lexical.GroundLabel("subject", subj, texts...)
				ok = reason == ""
			default:
				ok, reason = lexical.GroundText(subj, obj, texts...)
			}
			if !ok {
				g.Dropped = append(g.Dropped, kgeval.DroppedTriplet{Triplet: t, Reason: reason})
				if drop {
					continue
				}
			} else {
				g.Kept++
			}
			if sp, found := own.Locate(subj, obj); found {
				t.Start, t.End = sp.Start, sp.End
			}
			kept = append(kept, t)
		}
		out = append(out, g)
		return kept
	}
	// A dataset's own triplets are not checked, but get the span of the
	// sentence that states them, as evidence.
	locate := func(ts []kgeval.Triplet, own *lexical.Text) []kgeval.Triplet {
		for i, t := range ts {
			subj, obj := t.Subject, t.Object
			if kgeval.IsSlot(subj) {
				subj = ""
			}
			if kgeval.IsSlot(obj) {
				obj = ""
			}
			if sp, found := own.Locate(subj, obj); found && t.End == 0 {
				ts[i].Start, ts[i].End = sp.Start, sp.End
			}
		}
		return ts
	}
	// side checks an extracted text's triplets against the text itself and
	// also, and only locates a dataset's own.
	side := func(kind kgeval.Text, passage int, ts []kgeval.Triplet, own *lexical.Text, also ...*lexical.Text) []kgeval.Triplet {
		if !extracted(kind) {
			return locate(ts, own)
		}
		return check(kind, passage, ts, own, append([]*lexical.Text{own}, also...)...)
	}
	if st.Question != nil {
		st.Question = side(kgeval.TextQuestion, -1, st.Question, question)
	}
	if st.Answer != nil {
		st.Answer = side(kgeval.TextAnswer, -1, st.Answer, prepared(s.Answer), question)
	}
	if st.Reference != nil {
		st.Reference = side(kgeval.TextReference, -1, st.Reference, prepared(s.Reference), question)
	}
	for pi := range st.Contexts {
		if pi >= len(s.Contexts) || st.Contexts[pi] == nil {
			continue
		}
		st.Contexts[pi] = side(kgeval.TextContexts, pi, st.Contexts[pi], prepared(s.Contexts[pi]))
	}
	return out
}
