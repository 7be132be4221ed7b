package scoring

import (
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
	"github.com/kgeval/kgeval/metricreg"
)

// atomSupport computes atom_support (metricreg.MetricAtomSupport): the input
// text's names and literal values (lexical.Text.Atoms, read by rule, so an
// extractor's misses and inventions do not enter) that a context text
// states, literals by value and names by the occurrence rule. Each atom is
// listed in r.Atoms with its evidence sentence. A text without atoms leaves
// the metric null, with the reason.
func atomSupport(r *kgeval.KGResult, input *lexical.Text, srcs []Source, noText bool) *float64 {
	r.Atoms = nil
	if noText {
		r.Reasons[metricreg.MetricAtomSupport] = noContextText
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
