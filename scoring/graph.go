package scoring

import "github.com/kgeval/kgeval"

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

// Triplets recovers the triplets of both sides of g: one per relation node,
// its subject the node with an edge into it and its object the node it
// points to, with the stored labels, passage (-1 on the input side), span
// and source. Build on the recovered sides gives the same nodes again, so
// sweeps rebuild stored graphs under other parameters without the original
// extraction.
func Triplets(g *kgeval.PairGraph) (in, ctx []kgeval.Triplet) {
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
