package scoring

import (
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
)

// join adds the edges of the measured candidates c to g, by the rules of
// SPEC §3b and §4b. Entities: a CONFLICTS edge when their literals of one
// kind differ, else a SIMILAR edge when they match (lexical.Match: literals
// by value, names by cosine >= p.Tau or spelling). Relations: a SIMILAR edge
// by cosine >= p.TauRel, the literal-aware rule or a shared word.
func join(g *kgeval.PairGraph, c candidates, p kgeval.GraphParams) {
	labels := map[string]lexical.Label{} // each label prepared once per key
	label := func(id int) lexical.Label {
		n := g.Nodes[id]
		l, ok := labels[n.Key]
		if !ok {
			l = lexical.NewLabel(n.Label)
			labels[n.Key] = l
		}
		return l
	}
	for _, e := range c.entities {
		a, b := label(e.from), label(e.to)
		if lexical.Compare(a, b) == lexical.Conflict {
			g.Edges = append(g.Edges, kgeval.Edge{From: e.from, To: e.to, Type: kgeval.EdgeConflict, Weight: 0, Cost: 1})
			continue
		}
		if ok, w := lexical.Match(a, b, e.cos, p.Tau); ok {
			g.Edges = append(g.Edges, kgeval.Edge{From: e.from, To: e.to, Type: kgeval.EdgeSimilar, Weight: w, Cost: 1 - w})
		}
	}
	labels = map[string]lexical.Label{}
	for _, e := range c.relations {
		a, b := label(e.from), label(e.to)
		ok, w := lexical.Match(a, b, e.cos, p.TauRel)
		if !ok && lexical.Compare(a, b) != lexical.Conflict && lexical.SharesWord(a, b) {
			// One predicate in other words ("completion" / "was
			// completed in"): a match at the threshold.
			ok, w = true, max(e.cos, p.TauRel)
		}
		if ok {
			g.Edges = append(g.Edges, kgeval.Edge{From: e.from, To: e.to, Type: kgeval.EdgeSimilar, Weight: w, Cost: 1 - w})
		}
	}
}
