package scoring

import (
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/scoring/claims"
)

// Source is one context text of a pair with its passage index (-1: not a
// passage), prepared for the lexical checks.
type Source struct {
	Text    *lexical.Text
	Passage int
}

// Sources returns the context texts of pair p for sample s (Passages),
// prepared by prepared (the caller's cache: a passage shared by many
// samples is prepared once).
func Sources(s *kgeval.Sample, p kgeval.Pair, prepared func(string) *lexical.Text) []Source {
	ps := Passages(s, p)
	out := make([]Source, len(ps))
	for i, x := range ps {
		out[i] = Source{prepared(x.Text), x.Index}
	}
	return out
}

// Passages returns the context side of pair p for sample s as passages.
func Passages(s *kgeval.Sample, p kgeval.Pair) []claims.Passage {
	switch p.Context {
	case kgeval.TextContexts:
		out := make([]claims.Passage, len(s.Contexts))
		for i, c := range s.Contexts {
			out[i] = claims.Passage{Index: i, Text: c}
		}
		return out
	case kgeval.TextReference:
		return []claims.Passage{{Index: -1, Text: s.Reference}}
	case kgeval.TextAnswer:
		return []claims.Passage{{Index: -1, Text: s.Answer}}
	}
	return []claims.Passage{{Index: -1, Text: s.Question}}
}

// TextVerdicts gives every triplet of r, the pair graph of pair p for
// sample s, that the graph did not find a verdict from the context
// sentences (prepared by prepared), and computes support_text and contradiction_text
// (metricreg.MetricSupportText): a sentence that states both the triplet's
// subject and object (the grounding rule of SPEC §2b, literals by value)
// supports it; a sentence that states one end and a literal of the same
// kind as the other end's, with another value the text states nowhere else,
// contradicts it. The graph's verdicts stand where the graph decided.
// A question's asked facts get slot_coverage_text instead; atom_support
// (an input that is not a question) and typed_slot_coverage (a question)
// are computed here too, from the texts alone. The values are set on r at
// the end, in one place (textValues.apply).
func TextVerdicts(r *kgeval.KGResult, s *kgeval.Sample, p kgeval.Pair, prepared func(string) *lexical.Text) {
	srcs := Sources(s, p, prepared)
	if r.Reasons == nil {
		r.Reasons = map[string]string{}
	}
	noText := !hasText(srcs)
	in := InputText(s, p)
	var set textValues
	if p.Input != kgeval.TextQuestion {
		set.setValue(metricreg.MetricAtomSupport, atomSupport(r, prepared(in), srcs, noText))
	} else {
		set.setValue(metricreg.MetricTypedSlotCoverage, typedSlots(r, s.Question, prepared(s.Question), srcs, noText))
	}
	switch {
	case len(r.Verdicts) == 0:
		if p.Input == kgeval.TextQuestion && r.Value(metricreg.MetricSlotCoverageText) == nil && r.Value(metricreg.MetricSlotCoverage) == nil {
			// Nothing to answer by sentence either: slot_coverage's reason
			// ("no asked fact extracted from the question") is this one's.
			setReason(r, metricreg.MetricSlotCoverageText, r.ReasonFor(metricreg.MetricSlotCoverage))
		}
	case p.Input == kgeval.TextQuestion:
		set = append(set, answeredText(r, srcs)...)
	default:
		set = append(set, supportText(r, srcs)...)
	}
	set.apply(r)
}

// textValues are KG metric values the text verdicts computed, to set on a
// result in order.
type textValues []textValue

type textValue struct {
	metric string
	value  *float64
}

func (t *textValues) setValue(metric string, v *float64) { *t = append(*t, textValue{metric, v}) }

func (t textValues) apply(r *kgeval.KGResult) {
	for _, w := range t {
		r.SetValue(w.metric, w.value)
	}
}

// InputText returns the input text of pair p for sample s.
func InputText(s *kgeval.Sample, p kgeval.Pair) string {
	switch p.Input {
	case kgeval.TextAnswer:
		return s.Answer
	case kgeval.TextReference:
		return s.Reference
	case kgeval.TextContexts:
		return strings.Join(s.Contexts, "\n\n")
	}
	return s.Question
}

// noContextText is the reason of a rule-read metric (atom_support,
// typed_slot_coverage) when the pair's context side has no text.
const noContextText = "the context side has no text"

// hasText reports whether any of srcs has text to check against.
func hasText(srcs []Source) bool {
	for _, src := range srcs {
		if !src.Text.Empty() {
			return true
		}
	}
	return false
}
