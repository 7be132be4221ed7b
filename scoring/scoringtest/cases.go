// Package scoringtest holds pair graphs whose KG scores were worked out by
// hand (SPEC §4), shared by the tests of every engine, and a generator of
// random pair graphs shaped like real extractions.
package scoringtest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/kgeval/kgeval"
)

// Sim is a SIMILAR edge from an input entity to a context entity.
type Sim struct {
	In, Ctx string
	Cos     float64
}

// Graph builds a pair graph by hand: in and ctx are (subject, relation,
// object) triplets; entities are keyed by their text per side; sims are the
// SIMILAR edges. Structural edges get weight 0.9, cost 0.1.
func Graph(name string, in, ctx [][3]string, sims []Sim) *kgeval.PairGraph {
	g := &kgeval.PairGraph{Sample: name, Pair: "test"}
	ids := map[string]int{}
	entity := func(side, label string) int {
		k := side + "\x00" + label
		if id, ok := ids[k]; ok {
			return id
		}
		id := len(g.Nodes)
		g.Nodes = append(g.Nodes, kgeval.Node{ID: id, Kind: kgeval.KindEntity, Side: side, Key: label, Label: label, Passage: -1})
		ids[k] = id
		return id
	}
	add := func(side string, ts [][3]string) {
		for _, t := range ts {
			h, o := entity(side, t[0]), entity(side, t[2])
			r := len(g.Nodes)
			g.Nodes = append(g.Nodes, kgeval.Node{ID: r, Kind: kgeval.KindRelation, Side: side, Label: t[1], Passage: -1})
			g.Edges = append(g.Edges,
				kgeval.Edge{From: h, To: r, Type: kgeval.EdgeStructural, Weight: 0.9, Cost: 0.1},
				kgeval.Edge{From: r, To: o, Type: kgeval.EdgeStructural, Weight: 0.9, Cost: 0.1})
		}
	}
	add(kgeval.SideInput, in)
	add(kgeval.SideContext, ctx)
	for _, s := range sims {
		i, ok1 := ids[kgeval.SideInput+"\x00"+s.In]
		c, ok2 := ids[kgeval.SideContext+"\x00"+s.Ctx]
		if !ok1 || !ok2 {
			panic(fmt.Sprintf("scoringtest: SIMILAR %s -> %s names an unknown entity", s.In, s.Ctx))
		}
		g.Edges = append(g.Edges, kgeval.Edge{From: i, To: c, Type: kgeval.EdgeSimilar, Weight: s.Cos, Cost: 1 - s.Cos})
	}
	switch {
	case len(g.InputEntities()) == 0:
		g.EmptyReason = "no triplets extracted from input"
	case len(g.ContextEntities()) == 0:
		g.EmptyReason = "no triplets extracted from context"
	}
	return g
}

// Case is a hand-built graph and the scores worked out on paper. A nil want
// value means null; NaN means "not checked by this case".
type Case struct {
	Name   string
	Graph  *kgeval.PairGraph
	Params kgeval.GraphParams
	Want   struct{ Multihop, Overlap, Coverage *float64 }
	// Passed lists, per input entity label, whether it passes multihop.
	Passed map[string]bool
}

var nan = math.NaN()

func f(v float64) *float64 { return &v }

// Cases returns the hand-worked cases of SPEC §4 with the default
// parameters (delta 0.5, structural cost 0.1) unless a case says otherwise.
func Cases() []Case {
	def := kgeval.DefaultGraphParams()
	p3 := [][3]string{{"c", "r2", "d"}}
	mk := func(name string, g *kgeval.PairGraph, mh, ov, cv *float64, passed map[string]bool) Case {
		c := Case{Name: name, Graph: g, Params: def, Passed: passed}
		c.Want.Multihop, c.Want.Overlap, c.Want.Coverage = mh, ov, cv
		return c
	}
	cases := []Case{
		// a -> c at cost 0; b -> d at cos 0.3 cost: both pass directly.
		mk("DirectSimilar", Graph("direct", [][3]string{{"a", "r1", "b"}}, p3,
			[]Sim{{"a", "c", 1}, {"b", "d", 0.7}}), f(1), f(nan), f(nan),
			map[string]bool{"a": true, "b": true}),
		// a -> r1 -> b -> c: 0.1 + 0.1 + 0.3 = 0.5 <= delta: passes at cos 0.7.
		mk("OneHopAtBoundary", Graph("onehop", [][3]string{{"a", "r1", "b"}}, p3,
			[]Sim{{"b", "c", 0.7}}), f(1), f(nan), f(nan),
			map[string]bool{"a": true, "b": true}),
		// cos 0.69: a costs 0.51 > 0.5 and fails; b (0.31) passes.
		mk("OneHopBelowBoundary", Graph("onehop-", [][3]string{{"a", "r1", "b"}}, p3,
			[]Sim{{"b", "c", 0.69}}), f(0.5), f(nan), f(nan),
			map[string]bool{"a": false, "b": true}),
		// a -> r1 -> b -> r2 -> e -> c: 0.4 + 0.1 = 0.5: passes at cos 0.9.
		mk("TwoHopAtBoundary", Graph("twohop", [][3]string{{"a", "r1", "b"}, {"b", "r2", "e"}}, [][3]string{{"c", "r3", "d"}},
			[]Sim{{"e", "c", 0.9}}), f(1), f(nan), f(nan),
			map[string]bool{"a": true, "b": true, "e": true}),
		// cos 0.89: a costs 0.51 and fails; b 0.31 and e 0.11 pass.
		mk("TwoHopBelowBoundary", Graph("twohop-", [][3]string{{"a", "r1", "b"}, {"b", "r2", "e"}}, [][3]string{{"c", "r3", "d"}},
			[]Sim{{"e", "c", 0.89}}), f(2.0/3), f(nan), f(nan),
			map[string]bool{"a": false, "b": true, "e": true}),
		// No SIMILAR edge: nothing reaches the context.
		mk("Unreachable", Graph("unreach", [][3]string{{"a", "r1", "b"}}, p3, nil), f(0), f(0), f(0),
			map[string]bool{"a": false, "b": false}),
		// b is a tail: no outgoing edge, so it cannot reach the context even
		// though a can.
		mk("TailOnly", Graph("tail", [][3]string{{"a", "r1", "b"}}, p3, []Sim{{"a", "c", 0.8}}), f(0.5), f(nan), f(nan),
			map[string]bool{"a": true, "b": false}),
		// Empty context side: null (empty_as_zero below).
		mk("EmptyContext", Graph("empty", [][3]string{{"a", "r1", "b"}}, nil, nil), nil, nil, nil, nil),
		// Two relation nodes labelled "is" stay two nodes.
		mk("RepeatedRelationLabels", Graph("rel", [][3]string{{"a", "is", "b"}, {"e", "is", "f"}}, p3,
			[]Sim{{"a", "c", 1}}), f(0.25), f(nan), f(nan),
			map[string]bool{"a": true, "b": false, "e": false, "f": false}),
		// Louvain on two disconnected components: {a r1 b c r2 d} is one
		// community (four SIMILAR edges of weight 1), {e r3 f} and {g r4 h}
		// are their own. Brute-force modularity: 0.4879 for this partition,
		// 0.4257 for the next best. Overlap 1/3, coverage 2/4.
		mk("TwoComponentsLouvain", Graph("louvain",
			[][3]string{{"a", "r1", "b"}, {"e", "r3", "f"}}, [][3]string{{"c", "r2", "d"}, {"g", "r4", "h"}},
			[]Sim{{"a", "c", 1}, {"b", "c", 1}, {"a", "d", 1}, {"b", "d", 1}}), f(0.5), f(1.0/3), f(0.5),
			map[string]bool{"a": true, "b": true, "e": false, "f": false}),
	}
	ez := mk("EmptyAsZero", Graph("emptyzero", nil, p3, nil), f(0), f(0), f(0), nil)
	ez.Params.EmptyAsZero = true
	und := mk("TailOnlyUndirected", Graph("tailu", [][3]string{{"a", "r1", "b"}}, p3, []Sim{{"a", "c", 0.8}}), f(1), f(nan), f(nan),
		map[string]bool{"a": true, "b": true})
	und.Params.Directed = false
	return append(cases, ez, und)
}

// Random returns n random pair graphs with 5 to 80 entities, shaped like
// LLM extractions: a few hub entities are the subject of most triplets
// (Zipf-distributed subjects), objects are mostly new entities, some input
// entities reappear on the context side under the same name (cosine 1), and a
// few other pairs are similar with a cosine drawn from [0.7, 0.97].
func Random(n int, seed uint64) []*kgeval.PairGraph {
	r := rand.New(rand.NewPCG(seed, seed+1))
	out := make([]*kgeval.PairGraph, n)
	for i := range out {
		total := 5 + r.IntN(76)
		nin := max(2, total/4+r.IntN(max(1, total/4)))
		nctx := max(3, total-nin)
		side := func(prefix string, want int) [][3]string {
			var ts [][3]string
			ents := 1
			zipf := rand.NewZipf(r, 1.3, 1, uint64(want))
			for ents < want {
				subj := int(zipf.Uint64()) % ents
				var obj int
				if r.Float64() < 0.75 {
					obj = ents
					ents++
				} else {
					obj = r.IntN(ents)
				}
				ts = append(ts, [3]string{fmt.Sprintf("%s%d", prefix, subj), fmt.Sprintf("rel%d", r.IntN(8)), fmt.Sprintf("%s%d", prefix, obj)})
			}
			return ts
		}
		in, ctx := side("e", nin), side("e", nctx)
		g := Graph(fmt.Sprintf("rand%04d", i), in, ctx, nil)
		var ins, cs []int
		for _, nd := range g.Nodes {
			if nd.Kind == kgeval.KindEntity && nd.Side == kgeval.SideInput {
				ins = append(ins, nd.ID)
			} else if nd.Kind == kgeval.KindEntity {
				cs = append(cs, nd.ID)
			}
		}
		for _, a := range ins {
			for _, b := range cs {
				var cos float64
				switch {
				case g.Nodes[a].Label == g.Nodes[b].Label && r.Float64() < 0.5:
					cos = 1 // the same entity named on both sides
				case r.Float64() < 0.03:
					cos = 0.7 + 0.27*r.Float64()
				default:
					continue
				}
				g.Edges = append(g.Edges, kgeval.Edge{From: a, To: b, Type: kgeval.EdgeSimilar, Weight: cos, Cost: 1 - cos})
			}
		}
		out[i] = g
	}
	return out
}
