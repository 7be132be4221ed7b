package scoring

import (
	"math"

	"github.com/kgeval/kgeval"
)

// CostEpsilon absorbs floating-point error when a path cost is compared with
// delta: 0.1 + 0.1 + (1 - 0.7) is 0.5000000000000001 in float64, and SPEC §4
// says that path passes at delta 0.5.
const CostEpsilon = 1e-9

// Assemble computes the KG scores of g from the raw results of the two
// algorithms, so that every engine shares one definition (SPEC §4):
//
//   - dist[v] is the least path cost from node v to any context entity
//     (+Inf when unreachable) and path[v] that path as node IDs, v first;
//     only input entities are read;
//   - comm[v] is the Louvain community of node v (any integer labels).
func Assemble(g *kgeval.PairGraph, dist []float64, path [][]int, comm []int, p kgeval.GraphParams) kgeval.KGResult {
	r := kgeval.KGResult{Sample: g.Sample, Pair: g.Pair}
	in, ctx := g.InputEntities(), g.ContextEntities()
	if len(in) == 0 || len(ctx) == 0 {
		r.Reason = g.EmptyReason
		if p.EmptyAsZero {
			r.Multihop, r.CommunityOverlap, r.CommunityCoverage = kgeval.Float(0), kgeval.Float(0), kgeval.Float(0)
		}
		return r
	}
	passed := 0
	for _, v := range in {
		ep := kgeval.EntityPath{Node: v, Label: g.Nodes[v].Label}
		if dist != nil && !math.IsInf(dist[v], 1) {
			ep.Cost = kgeval.Float(dist[v])
			ep.Passed = dist[v] <= p.Delta+CostEpsilon
			if path != nil {
				ep.PathIDs = path[v]
				for _, id := range path[v] {
					ep.Path = append(ep.Path, g.Nodes[id].Label)
				}
			}
		}
		if ep.Passed {
			passed++
		}
		r.Paths = append(r.Paths, ep)
	}
	r.Multihop = kgeval.Float(float64(passed) / float64(len(in)))

	if comm != nil {
		r.Communities = CanonicalCommunities(comm)
		nc := 0
		hasIn, hasCtx := map[int]bool{}, map[int]bool{}
		for _, n := range g.Nodes {
			c := r.Communities[n.ID]
			if c+1 > nc {
				nc = c + 1
			}
			if n.Kind == kgeval.KindEntity && n.Side == kgeval.SideInput {
				hasIn[c] = true
			} else if n.Kind == kgeval.KindEntity && n.Side == kgeval.SideContext {
				hasCtx[c] = true
			}
		}
		both := 0
		for c := range hasIn {
			if hasCtx[c] {
				both++
			}
		}
		covered := 0
		for _, v := range in {
			if hasCtx[r.Communities[v]] {
				covered++
			}
		}
		r.CommunityOverlap = kgeval.Float(float64(both) / float64(nc))
		r.CommunityCoverage = kgeval.Float(float64(covered) / float64(len(in)))
	}
	return r
}

// CanonicalCommunities renumbers community labels 0, 1, 2... in order of
// first appearance by node ID, so that engines with different internal ids
// give the same explanation.
func CanonicalCommunities(comm []int) []int {
	out := make([]int, len(comm))
	seen := map[int]int{}
	for i, c := range comm {
		id, ok := seen[c]
		if !ok {
			id = len(seen)
			seen[c] = id
		}
		out[i] = id
	}
	return out
}
