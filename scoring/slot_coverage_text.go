package scoring

import (
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
	"github.com/kgeval/kgeval/metricreg"
)

// answeredText computes slot_coverage_text (metricreg.MetricSlotCoverageText)
// of a question's pair graph: an asked fact the graph left unanswered is
// answered by a context sentence that states its known end and its
// relation (the relation's words, by the occurrence rule of SPEC §2b) and
// does not say the value is unknown; a full triplet of the question, by a
// sentence that states both its ends.
func answeredText(r *kgeval.KGResult, srcs []Source) textValues {
	answered := 0
	for k := range r.Verdicts {
		v := &r.Verdicts[k]
		if v.Verdict != kgeval.VerdictAnswered {
			a, b := v.Subject, v.Object
			switch {
			case kgeval.IsSlot(a):
				a = v.Relation
			case kgeval.IsSlot(b):
				b = v.Relation
			}
		sources:
			for _, src := range srcs {
				for _, m := range src.Text.Mentions(a, b) {
					// A sentence that says the value is unknown answers nothing.
					if m.Both && !lexical.SaysUnknown(m.Text) {
						v.Text = kgeval.VerdictAnswered
						v.TextEvidence = &kgeval.Evidence{Node: -1, Passage: src.Passage, Start: m.Span.Start, End: m.Span.End}
						break sources
					}
				}
			}
		}
		if v.Verdict == kgeval.VerdictAnswered || v.Text == kgeval.VerdictAnswered {
			answered++
		}
	}
	var set textValues
	if len(r.Verdicts) > 0 {
		set.setValue(metricreg.MetricSlotCoverageText, kgeval.Float(float64(answered)/float64(len(r.Verdicts))))
		delete(r.Reasons, metricreg.MetricSlotCoverageText)
	}
	return set
}
