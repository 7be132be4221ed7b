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
	var set textValues
	if p.Input != kgeval.TextQuestion {
		set.add(metricreg.MetricAtomSupport, atomSupport(r, prepared(InputText(s, p)), srcs))
	} else {
		set.add(metricreg.MetricTypedSlotCoverage, typedSlots(r, s.Question, prepared(s.Question), srcs))
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

func (t *textValues) add(metric string, v *float64) { *t = append(*t, textValue{metric, v}) }

func (t textValues) apply(r *kgeval.KGResult) {
	for _, w := range t {
		r.SetValue(w.metric, w.value)
	}
}

// SupportText decides by sentence the full triplets the graph did not find
// and computes support_text and contradiction_text (TextVerdicts calls it
// for an input that is not the question).
func SupportText(r *kgeval.KGResult, srcs []Source) {
	supportText(r, srcs).apply(r)
}

// supportText is SupportText, returning the values instead of setting them
// (none when r has no full triplet).
func supportText(r *kgeval.KGResult, srcs []Source) textValues {
	full, sup, con := 0, 0, 0
	for k := range r.Verdicts {
		v := &r.Verdicts[k]
		if v.Asked {
			continue
		}
		full++
		if v.Verdict == kgeval.VerdictNotFound {
			v.Text, v.TextEvidence = textVerdict(srcs, v.Subject, v.Object)
		}
		switch {
		case v.Verdict == kgeval.VerdictSupported || v.Text == kgeval.VerdictSupported:
			sup++
		case v.Verdict == kgeval.VerdictContradicted || v.Text == kgeval.VerdictContradicted:
			con++
		}
	}
	var set textValues
	if full > 0 {
		set.add(metricreg.MetricSupportText, kgeval.Float(float64(sup)/float64(full)))
		set.add(metricreg.MetricContradictionText, kgeval.Float(float64(con)/float64(full)))
		delete(r.Reasons, metricreg.MetricSupportText)
		delete(r.Reasons, metricreg.MetricContradictionText)
	}
	return set
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

// atomSupport computes atom_support (metricreg.MetricAtomSupport): the input
// text's names and literal values (lexical.Text.Atoms, read by rule, so an
// extractor's misses and inventions do not enter) that a context text
// states, literals by value and names by the occurrence rule. Each atom is
// listed in r.Atoms with its evidence sentence. A text without atoms leaves
// the metric null, with the reason.
func atomSupport(r *kgeval.KGResult, input *lexical.Text, srcs []Source) *float64 {
	r.Atoms = nil
	if !checkable(r, metricreg.MetricAtomSupport, srcs) {
		return nil
	}
	atoms := input.Atoms()
	stated := 0
	for _, a := range atoms {
		c := kgeval.AtomCheck{Text: a.Text, Kind: string(a.Kind), Start: a.Span.Start, End: a.Span.End}
		if a.Kind == lexical.AtomLiteral {
			c.Kind = string(a.Literal.Kind)
		}
		for _, src := range srcs {
			if sp, ok := src.Text.Backing(a); ok {
				c.Stated = true
				c.Evidence = &kgeval.Evidence{Node: -1, Passage: src.Passage, Start: sp.Start, End: sp.End}
				stated++
				break
			}
		}
		r.Atoms = append(r.Atoms, c)
	}
	if len(atoms) == 0 {
		r.Reasons[metricreg.MetricAtomSupport] = "the input states no name or value to check"
		return nil
	}
	delete(r.Reasons, metricreg.MetricAtomSupport)
	return kgeval.Float(float64(stated) / float64(len(atoms)))
}

// checkable prepares r.Reasons for a rule-read metric and reports whether
// the context side has any text to check against; if not, the metric's
// reason says so.
func checkable(r *kgeval.KGResult, metric string, srcs []Source) bool {
	if r.Reasons == nil {
		r.Reasons = map[string]string{}
	}
	for _, src := range srcs {
		if !src.Text.Empty() {
			return true
		}
	}
	r.Reasons[metric] = "the context side has no text"
	return false
}

// typedSlots computes typed_slot_coverage (metricreg.MetricTypedSlotCoverage):
// the clauses of the question that ask for a typed value (lexical.Asked:
// when, where, who, how many, how long, a measure), each answered when a
// context text states a value of that type that the question does not, in
// a sentence about the question (lexical.Text.Answers). A question without
// such a clause leaves the metric null, with the reason.
func typedSlots(r *kgeval.KGResult, raw string, question *lexical.Text, srcs []Source) *float64 {
	r.TypedSlots = nil
	if !checkable(r, metricreg.MetricTypedSlotCoverage, srcs) {
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

// textVerdict checks one triplet against the context sentences.
func textVerdict(srcs []Source, subject, object string) (string, *kgeval.Evidence) {
	ev := func(src Source, m lexical.Mention) *kgeval.Evidence {
		return &kgeval.Evidence{Node: -1, Passage: src.Passage, Start: m.Span.Start, End: m.Span.End}
	}
	for _, src := range srcs {
		if ms := src.Text.Mentions(subject, object); len(ms) > 0 && ms[0].Both {
			return kgeval.VerdictSupported, ev(src, ms[0])
		}
	}
	for _, src := range srcs {
		if m, ok := src.Text.Contradiction(subject, object); ok {
			return kgeval.VerdictContradicted, ev(src, m)
		}
		if m, ok := src.Text.Contradiction(object, subject); ok {
			return kgeval.VerdictContradicted, ev(src, m)
		}
	}
	return "", nil
}

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
		set.add(metricreg.MetricSlotCoverageText, kgeval.Float(float64(answered)/float64(len(r.Verdicts))))
		delete(r.Reasons, metricreg.MetricSlotCoverageText)
	}
	return set
}
