package scoring

import (
	"context"
	"math"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
)

// Raw is an engine's raw result on one pair graph, what Assemble and
// AssembleVerdicts turn into its KGResult, so that every engine shares one
// definition of the scores (SPEC §4, §4b, §4c).
type Raw struct {
	// Dist[v] is the least path cost from node v to any context entity
	// (+Inf when unreachable) and Paths[v] that path as node IDs, v first;
	// Comm[v] is the Louvain community of node v (any integer labels). All
	// three are nil for a graph with an empty side.
	Dist  []float64
	Paths [][]int
	Comm  []int
	// Matches are the verdict matches of the graph, in any order.
	Matches []kgeval.VerdictMatch
}

// RawEngine is a KG engine's raw half: the GDS engine (graphstore) and the
// native one (Native).
type RawEngine interface {
	// Raw computes the raw result of each graph, in order. Errors:
	// EUNAVAILABLE when the engine's backend cannot be reached.
	Raw(ctx context.Context, run string, graphs []*kgeval.PairGraph, p kgeval.GraphParams) ([]Raw, error)
}

// Score computes the KG scores of graphs with engine e: its raw results,
// assembled once here (AssembleOne).
func Score(ctx context.Context, e RawEngine, run string, graphs []*kgeval.PairGraph, p kgeval.GraphParams) ([]kgeval.KGResult, error) {
	raw, err := e.Raw(ctx, run, graphs, p)
	if err != nil {
		return nil, err
	}
	out := make([]kgeval.KGResult, len(graphs))
	for i, g := range graphs {
		out[i] = AssembleOne(g, raw[i], p)
	}
	return out, nil
}

// AssembleOne computes the KG scores of g from its raw result: multihop and
// the community scores (Assemble), then the verdicts (AssembleVerdicts, on
// the matches in order, SortMatches).
func AssembleOne(g *kgeval.PairGraph, raw Raw, p kgeval.GraphParams) kgeval.KGResult {
	r := Assemble(g, raw.Dist, raw.Paths, raw.Comm, p)
	SortMatches(raw.Matches)
	AssembleVerdicts(g, raw.Matches, &r)
	return r
}

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
			r.SetValue(metricreg.MetricMultihop, kgeval.Float(0))
			r.SetValue(metricreg.MetricCommunityOverlap, kgeval.Float(0))
			r.SetValue(metricreg.MetricCommunityCoverage, kgeval.Float(0))
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
	r.SetValue(metricreg.MetricMultihop, kgeval.Float(float64(passed)/float64(len(in))))

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
		r.SetValue(metricreg.MetricCommunityOverlap, kgeval.Float(float64(both)/float64(nc)))
		r.SetValue(metricreg.MetricCommunityCoverage, kgeval.Float(float64(covered)/float64(len(in))))
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
