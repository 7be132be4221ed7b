package scoring

import (
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
	"github.com/kgeval/kgeval/metricreg"
)

// typedSlots computes typed_slot_coverage (metricreg.MetricTypedSlotCoverage):
// the clauses of the question that ask for a typed value (lexical.Asked:
// when, where, who, how many, how long, a measure), each answered when a
// context text states a value of that type that the question does not, in
// a sentence about the question (lexical.Text.Answers). A question without
// such a clause leaves the metric null, with the reason.
func typedSlots(r *kgeval.KGResult, raw string, question *lexical.Text, srcs []Source, noText bool) *float64 {
	r.TypedSlots = nil
	if noText {
		r.Reasons[metricreg.MetricTypedSlotCoverage] = noContextText
		return nil
	}
	asks := lexical.Asked(raw)
	if len(asks) == 0 {
		r.Reasons[metricreg.MetricTypedSlotCoverage] = "the question asks for no typed value (when, where, who, how many, how long, a measure)"
		return nil
	}
	answered := 0
	for _, ask := range asks {
		c := kgeval.TypedSlotCheck{Clause: ask.Clause, Want: string(ask.Want)}
		for _, src := range srcs {
			if a, sp, ok := src.Text.Answers(ask, question); ok {
				c.Answered, c.Value = true, a.Text
				c.Evidence = &kgeval.Evidence{Node: -1, Passage: src.Passage, Start: sp.Start, End: sp.End}
				answered++
				break
			}
		}
		r.TypedSlots = append(r.TypedSlots, c)
	}
	delete(r.Reasons, metricreg.MetricTypedSlotCoverage)
	return kgeval.Float(float64(answered) / float64(len(asks)))
}
