package scoring

import (
	"fmt"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
	"github.com/kgeval/kgeval/metrics"
)

// Side is the triplets of one side of a pair and the text they came from.
type Side struct {
	Text     kgeval.Text
	Triplets []kgeval.Triplet
}

// EntityKeys returns the distinct entity label keys of the triplets, in
// order of first appearance (slots "?" left out).
func EntityKeys(sides ...[]kgeval.Triplet) []string {
	seen := map[string]bool{}
	var out []string
	for _, ts := range sides {
		for _, t := range ts {
			for _, l := range []string{t.Subject, t.Object} {
				if k := kgeval.Key(l); k != "" && !kgeval.IsSlot(l) && !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
		}
	}
	return out
}

// LabelKeys returns the distinct label keys to embed for a pair graph:
// entity keys (SIMILAR edges, SPEC §3) and relation keys (relation SIMILAR
// edges, SPEC §4b), in order of first appearance.
func LabelKeys(sides ...[]kgeval.Triplet) []string {
	out := EntityKeys(sides...)
	seen := map[string]bool{}
	for _, k := range out {
		seen[k] = true
	}
	for _, ts := range sides {
		for _, t := range ts {
			if k := kgeval.Key(t.Relation); k != "" && !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// PhraseKeys returns the keys of a context triplet's relation joined to its
// object and to its subject: what an asked fact's relation is also compared
// with (Build).
// The parts are keyed one by one, so that any label of a merged entity gives
// the same key.
func PhraseKeys(subject, relation, object string) []string {
	s, r, o := kgeval.Key(subject), kgeval.Key(relation), kgeval.Key(object)
	return []string{r + " " + o, s + " " + r}
}

// UsesPhrases reports whether Build compares the asked facts of pair p with
// its context triplets' phrases (PhraseKeys): a question checked against an
// answer. Against the contexts the asked relation is compared with the
// relations only: a passage has hundreds of triplets.
func UsesPhrases(p kgeval.Pair) bool {
	return p.Input == kgeval.TextQuestion && p.Context == kgeval.TextAnswer
}

// AnswerPhraseKeys returns the PhraseKeys of every triplet of ts, distinct:
// the extra strings to embed for a pair whose input is a question.
func AnswerPhraseKeys(ts []kgeval.Triplet) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range ts {
		for _, k := range PhraseKeys(t.Subject, t.Relation, t.Object) {
			if k != "" && !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// Vectors maps a label key to its L2-normalised embedding.
type Vectors map[string][]float32

// Build constructs the pair graph of one sample and pair (Algorithm 1).
// Entities with the same key on one side are one node; every triplet gets its
// own relation node; a slot "?" of an asked fact is a node of its own (kind
// slot). Input and context entities are joined by SIMILAR edges by the
// literal-aware rule of SPEC §3b (lexical.Match: literals by value, names
// by cosine >= p.Tau or spelling), and by CONFLICTS edges when a literal of
// one contradicts a literal of the same kind in the other. Input and
// context relations are joined by SIMILAR edges when their cosine is >=
// p.TauRel (SPEC §4b). vec must hold every label key of both sides (see
// LabelKeys).
func Build(sample string, pair kgeval.Pair, in, ctx Side, vec Vectors, p kgeval.GraphParams) (*kgeval.PairGraph, error) {
	g := &kgeval.PairGraph{Sample: sample, Pair: pair.Name, Input: in.Text, Context: ctx.Text}
	inEnt := addSide(g, kgeval.SideInput, in.Triplets, p)
	ctxEnt := addSide(g, kgeval.SideContext, ctx.Triplets, p)
	switch {
	case len(inEnt.order) == 0:
		g.EmptyReason = fmt.Sprintf("no triplets extracted from %s", in.Text)
	case len(ctxEnt.order) == 0:
		g.EmptyReason = fmt.Sprintf("no triplets extracted from %s", ctx.Text)
	}
	c, err := measure(g, inEnt, ctxEnt, UsesPhrases(pair), vec)
	if err != nil {
		return nil, err
	}
	join(g, c, p)
	return g, nil
}

// candidates are the node pairs Build may join, each with the cosine of
// its labels' embeddings: every input entity with every context entity,
// then every input relation with every context relation.
type candidates struct {
	entities, relations []candidate
}

// candidate is one node pair and its cosine (1 for one key).
type candidate struct {
	from, to int
	cos      float64
}

// measure pairs the nodes Build may join and computes their cosines
// (measure) before any lexical rule is read (join). An asked fact's
// relation may name the kind of value asked ("conservation status"), which
// an answer states with its object ("is listed as Threatened"): with
// usePhrases its cosine is also the largest with the context triplet's
// relation joined to its object, and to its subject (PhraseKeys;
// SPEC-NOTES §4c). Errors: EINVALID when vec lacks a key.
func measure(g *kgeval.PairGraph, inEnt, ctxEnt sideEntities, usePhrases bool, vec Vectors) (candidates, error) {
	var out candidates
	ends := EndsOf(g)
	phrases := map[int][]string{}
	for _, n := range g.Nodes {
		if h, t, ok := ends.Get(n.ID); usePhrases && ok && n.Kind == kgeval.KindRelation && n.Side == kgeval.SideContext {
			phrases[n.ID] = PhraseKeys(g.Nodes[h].Label, n.Label, g.Nodes[t].Label)
		}
	}
	vector := func(k, what string) ([]float32, error) {
		v, ok := vec[k]
		if !ok {
			return nil, kgeval.Errorf(kgeval.EINVALID, "no embedding for %s %q", what, k)
		}
		return v, nil
	}
	cosine := func(a, b string, va, vb []float32) float64 {
		if a == b {
			return 1
		}
		return metrics.Cosine(va, vb)
	}
	for _, ik := range inEnt.order {
		vi, err := vector(ik, "entity")
		if err != nil {
			return out, err
		}
		for _, ck := range ctxEnt.order {
			vc, err := vector(ck, "entity")
			if err != nil {
				return out, err
			}
			out.entities = append(out.entities, candidate{from: inEnt.ids[ik], to: ctxEnt.ids[ck], cos: cosine(ik, ck, vi, vc)})
		}
	}
	inRel, ctxRel := g.Relations(kgeval.SideInput), g.Relations(kgeval.SideContext)
	if len(inRel) == 0 || len(ctxRel) == 0 {
		return out, nil
	}
	asked := func(r int) bool {
		h, t, _ := ends.Get(r)
		return g.Nodes[h].Kind == kgeval.KindSlot || g.Nodes[t].Kind == kgeval.KindSlot
	}
	for _, i := range inRel {
		ni := g.Nodes[i]
		vi, err := vector(ni.Key, "relation")
		if err != nil {
			return out, err
		}
		for _, j := range ctxRel {
			nj := g.Nodes[j]
			vj, err := vector(nj.Key, "relation")
			if err != nil {
				return out, err
			}
			c := cosine(ni.Key, nj.Key, vi, vj)
			if c < 1 && asked(i) {
				for _, k := range phrases[j] {
					vk, err := vector(k, "relation phrase")
					if err != nil {
						return out, err
					}
					c = max(c, metrics.Cosine(vi, vk))
				}
			}
			out.relations = append(out.relations, candidate{from: i, to: j, cos: c})
		}
	}
	return out, nil
}

type sideEntities struct {
	ids   map[string]int
	order []string
}

func addSide(g *kgeval.PairGraph, side string, ts []kgeval.Triplet, p kgeval.GraphParams) sideEntities {
	se := sideEntities{ids: map[string]int{}}
	entity := func(label string) int {
		if kgeval.IsSlot(label) {
			id := len(g.Nodes)
			g.Nodes = append(g.Nodes, kgeval.Node{ID: id, Kind: kgeval.KindSlot, Side: side, Key: kgeval.Slot, Label: kgeval.Slot, Passage: -1})
			return id
		}
		k := kgeval.Key(label)
		if id, ok := se.ids[k]; ok {
			return id
		}
		id := len(g.Nodes)
		g.Nodes = append(g.Nodes, kgeval.Node{ID: id, Kind: kgeval.KindEntity, Side: side, Key: k, Label: label, Passage: -1, NonAnswer: lexical.NonAnswer(label)})
		if side == kgeval.SideContext {
			g.Nodes[id].Fits = lexical.FitsOf(label) // a filler of a typed asked fact
		}
		se.ids[k] = id
		se.order = append(se.order, k)
		return id
	}
	slotKey := func(l string) string {
		if kgeval.IsSlot(l) {
			return kgeval.Slot
		}
		return kgeval.Key(l)
	}
	seen := map[[3]string]bool{}
	for _, t := range ts {
		key := [3]string{slotKey(t.Subject), kgeval.Key(t.Relation), slotKey(t.Object)}
		if key[0] == "" || key[1] == "" || key[2] == "" || (key[0] == kgeval.Slot && key[2] == kgeval.Slot) || seen[key] {
			continue // empty fields and duplicate triplets count once (SPEC §2)
		}
		seen[key] = true
		h := entity(t.Subject)
		o := entity(t.Object)
		for _, s := range []int{h, o} {
			if g.Nodes[s].Kind == kgeval.KindSlot {
				g.Nodes[s].Want = string(lexical.WantOf(t.Relation))
			}
		}
		r := len(g.Nodes)
		passage := -1
		if side == kgeval.SideContext {
			passage = t.Passage
		}
		g.Nodes = append(g.Nodes, kgeval.Node{ID: r, Kind: kgeval.KindRelation, Side: side, Key: key[1], Label: t.Relation, Passage: passage, Start: t.Start, End: t.End, Source: t.Source})
		g.Edges = append(g.Edges,
			kgeval.Edge{From: h, To: r, Type: kgeval.EdgeStructural, Weight: p.StructuralWeight, Cost: p.StructuralCost},
			kgeval.Edge{From: r, To: o, Type: kgeval.EdgeStructural, Weight: p.StructuralWeight, Cost: p.StructuralCost})
	}
	return se
}

// What a built pair graph says about its own structure: the triplet of each
// relation node, the triplets of both sides, and which edges multihop and
// Louvain walk.

// TripletEnds maps each relation node of a pair graph to its head and tail
// (EndsOf): one pass over the edges, then a lookup per relation.
type TripletEnds struct{ head, tail map[int]int }

// EndsOf indexes the structural edges of g by relation node.
func EndsOf(g *kgeval.PairGraph) TripletEnds {
	x := TripletEnds{head: map[int]int{}, tail: map[int]int{}}
	for _, e := range g.Edges {
		if e.Type != kgeval.EdgeStructural {
			continue
		}
		if g.Nodes[e.To].Kind == kgeval.KindRelation {
			x.head[e.To] = e.From
		} else {
			x.tail[e.From] = e.To
		}
	}
	return x
}

// Get returns the head and tail of relation node r: the node with a
// structural edge into r and the node r points to; ok is false when r
// lacks either.
func (x TripletEnds) Get(r int) (head, tail int, ok bool) {
	h, okh := x.head[r]
	t, okt := x.tail[r]
	return h, t, okh && okt
}

// GraphTriplets recovers the triplets of both sides of g: one per relation node,
// its subject the node with an edge into it and its object the node it
// points to, with the stored labels, passage (-1 on the input side), span
// and source. Build on the recovered sides gives the same nodes again, so
// sweeps rebuild stored graphs under other parameters without the original
// extraction.
func GraphTriplets(g *kgeval.PairGraph) (in, ctx []kgeval.Triplet) {
	ends := EndsOf(g)
	for _, n := range g.Nodes {
		if n.Kind != kgeval.KindRelation {
			continue
		}
		h, t, ok := ends.Get(n.ID)
		if !ok {
			continue
		}
		tr := kgeval.Triplet{Subject: g.Nodes[h].Label, Relation: n.Label, Object: g.Nodes[t].Label, Passage: n.Passage, Start: n.Start, End: n.End, Source: n.Source}
		if n.Side == kgeval.SideInput {
			in = append(in, tr)
		} else {
			ctx = append(ctx, tr)
		}
	}
	return in, ctx
}

// scoringEdge reports whether e takes part in multihop and Louvain (SPEC §4):
// structural edges and entity-to-entity SIMILAR edges. Relation SIMILAR
// edges and CONFLICTS edges are for the verdicts (SPEC §4b) only.
func scoringEdge(g *kgeval.PairGraph, e kgeval.Edge) bool {
	switch e.Type {
	case kgeval.EdgeStructural:
		return true
	case kgeval.EdgeSimilar:
		return g.Nodes[e.From].Kind == kgeval.KindEntity && g.Nodes[e.To].Kind == kgeval.KindEntity
	}
	return false
}
