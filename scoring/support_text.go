package scoring

import (
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
	"github.com/kgeval/kgeval/metricreg"
)

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
		set.setValue(metricreg.MetricSupportText, kgeval.Float(float64(sup)/float64(full)))
		set.setValue(metricreg.MetricContradictionText, kgeval.Float(float64(con)/float64(full)))
		delete(r.Reasons, metricreg.MetricSupportText)
		delete(r.Reasons, metricreg.MetricContradictionText)
	}
	return set
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
