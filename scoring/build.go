// Package scoring builds pair graphs from triplets (SPEC §3, the paper's
// Algorithm 1) and computes the KG scores in process (the native engine,
// SPEC §4) with gonum. It works on domain types and interfaces only; the
// Neo4j-backed engine lives in graphstore.
package scoring

import (
	"fmt"

	"github.com/kgeval/kgeval"
)

// Side is the triplets of one side of a pair and the text they came from.
type Side struct {
	Text     kgeval.Text
	Triplets []kgeval.Triplet
}

// EntityKeys returns the distinct entity label keys of the triplets, in
// order of first appearance: the strings to embed for SIMILAR edges.
func EntityKeys(sides ...[]kgeval.Triplet) []string {
	seen := map[string]bool{}
	var out []string
	for _, ts := range sides {
		for _, t := range ts {
			for _, l := range []string{t.Subject, t.Object} {
				if k := kgeval.Key(l); k != "" && !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
		}
	}
	return out
}

// Vectors maps an entity label key to its L2-normalised embedding.
type Vectors map[string][]float32

// Build constructs the pair graph of one sample and pair (Algorithm 1).
// Entities with the same key on one side are one node; every triplet gets its
// own relation node; SIMILAR edges join input to context entities whose
// cosine is >= p.Tau (identical keys: cosine 1). vec must hold every entity
// key of both sides (see EntityKeys).
func Build(sample string, pair kgeval.Pair, in, ctx Side, vec Vectors, p kgeval.GraphParams) (*kgeval.PairGraph, error) {
	g := &kgeval.PairGraph{Sample: sample, Pair: pair.Name}
	inEnt := addSide(g, kgeval.SideInput, in.Triplets, p)
	ctxEnt := addSide(g, kgeval.SideContext, ctx.Triplets, p)
	switch {
	case len(inEnt.order) == 0:
		g.EmptyReason = fmt.Sprintf("no triplets extracted from %s", in.Text)
	case len(ctxEnt.order) == 0:
		g.EmptyReason = fmt.Sprintf("no triplets extracted from %s", ctx.Text)
	}
	for _, ik := range inEnt.order {
		vi, ok := vec[ik]
		if !ok {
			return nil, kgeval.Errorf(kgeval.EINVALID, "no embedding for entity %q", ik)
		}
		for _, ck := range ctxEnt.order {
			var c float64
			if ik == ck {
				c = 1
			} else {
				vc, ok := vec[ck]
				if !ok {
					return nil, kgeval.Errorf(kgeval.EINVALID, "no embedding for entity %q", ck)
				}
				c = Cosine(vi, vc)
			}
			if c >= p.Tau {
				g.Edges = append(g.Edges, kgeval.Edge{From: inEnt.ids[ik], To: ctxEnt.ids[ck], Type: kgeval.EdgeSimilar, Weight: c, Cost: 1 - c})
			}
		}
	}
	return g, nil
}

type sideEntities struct {
	ids   map[string]int
	order []string
}

func addSide(g *kgeval.PairGraph, side string, ts []kgeval.Triplet, p kgeval.GraphParams) sideEntities {
	se := sideEntities{ids: map[string]int{}}
	entity := func(label string) int {
		k := kgeval.Key(label)
		if id, ok := se.ids[k]; ok {
			return id
		}
		id := len(g.Nodes)
		g.Nodes = append(g.Nodes, kgeval.Node{ID: id, Kind: kgeval.KindEntity, Side: side, Key: k, Label: label, Passage: -1})
		se.ids[k] = id
		se.order = append(se.order, k)
		return id
	}
	seen := map[[3]string]bool{}
	for _, t := range ts {
		key := [3]string{kgeval.Key(t.Subject), kgeval.Key(t.Relation), kgeval.Key(t.Object)}
		if key[0] == "" || key[1] == "" || key[2] == "" || seen[key] {
			continue // empty fields and duplicate triplets count once (SPEC §2)
		}
		seen[key] = true
		h := entity(t.Subject)
		o := entity(t.Object)
		r := len(g.Nodes)
		passage := -1
		if side == kgeval.SideContext {
			passage = t.Passage
		}
		g.Nodes = append(g.Nodes, kgeval.Node{ID: r, Kind: kgeval.KindRelation, Side: side, Label: t.Relation, Passage: passage})
		g.Edges = append(g.Edges,
			kgeval.Edge{From: h, To: r, Type: kgeval.EdgeStructural, Weight: p.StructuralWeight, Cost: p.StructuralCost},
			kgeval.Edge{From: r, To: o, Type: kgeval.EdgeStructural, Weight: p.StructuralWeight, Cost: p.StructuralCost})
	}
	return se
}

// Cosine returns the cosine similarity of a and b, clamped to [-1, 1]
// (kgeval.Cosine).
func Cosine(a, b []float32) float64 { return kgeval.Cosine(a, b) }

// Triplets recovers the triplets of both sides from a built pair graph: one
// per relation node, its subject the entity with an edge into it and its
// object the entity it points to, with the stored labels and passage. Build
// on the recovered sides gives the same nodes again, so sweeps rebuild
// stored graphs under other parameters without the original extraction.
func Triplets(g *kgeval.PairGraph) (in, ctx []kgeval.Triplet) {
	head := map[int]int{}
	tail := map[int]int{}
	for _, e := range g.Edges {
		if e.Type == kgeval.EdgeSimilar {
			continue
		}
		if g.Nodes[e.To].Kind == kgeval.KindRelation {
			head[e.To] = e.From
		} else {
			tail[e.From] = e.To
		}
	}
	for _, n := range g.Nodes {
		if n.Kind != kgeval.KindRelation {
			continue
		}
		h, okh := head[n.ID]
		t, okt := tail[n.ID]
		if !okh || !okt {
			continue
		}
		tr := kgeval.Triplet{Subject: g.Nodes[h].Label, Relation: n.Label, Object: g.Nodes[t].Label, Passage: max(n.Passage, 0)}
		if n.Side == kgeval.SideInput {
			in = append(in, tr)
		} else {
			ctx = append(ctx, tr)
		}
	}
	return in, ctx
}
