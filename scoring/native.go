package scoring

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/kgeval/kgeval"
	"gonum.org/v1/gonum/graph"
	"gonum.org/v1/gonum/graph/community"
	"gonum.org/v1/gonum/graph/path"
	"gonum.org/v1/gonum/graph/simple"
)

// Native computes the KG scores in process with gonum: one multi-source
// Dijkstra per pair graph for multihop, and Louvain modularisation of the
// undirected graph for the community scores. It is the engine used with
// --engine native and the oracle the GDS engine is tested against.
type Native struct {
	// Seed makes Louvain reproducible.
	Seed uint64
}

var (
	_ kgeval.KGEngine = (*Native)(nil)
	_ RawEngine       = (*Native)(nil)
)

// Name returns "native".
func (*Native) Name() string { return "native" }

// Score computes the KG scores of each graph: its raw results (Raw),
// assembled (Score).
func (e *Native) Score(ctx context.Context, run string, graphs []*kgeval.PairGraph, p kgeval.GraphParams) ([]kgeval.KGResult, error) {
	return Score(ctx, e, run, graphs, p)
}

// Raw computes the raw results of each graph: its least path costs, paths
// and communities (none for a graph with an empty side) and its verdict
// matches (MatchTriplets).
func (e *Native) Raw(ctx context.Context, _ string, graphs []*kgeval.PairGraph, p kgeval.GraphParams) ([]Raw, error) {
	out := make([]Raw, len(graphs))
	for i, g := range graphs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = e.rawOne(g, p)
	}
	return out, nil
}

func (e *Native) rawOne(g *kgeval.PairGraph, p kgeval.GraphParams) Raw {
	var r Raw
	if len(g.InputEntities()) > 0 && len(g.ContextEntities()) > 0 {
		r.Dist, r.Paths = ShortestToContext(g, p.Directed)
		r.Comm = Louvain(g, e.Seed)
	}
	r.Matches = MatchTriplets(g)
	return r
}

// ScoreOne computes the KG scores of one graph: multihop, communities and
// the triplet verdicts.
func (e *Native) ScoreOne(g *kgeval.PairGraph, p kgeval.GraphParams) kgeval.KGResult {
	return AssembleOne(g, e.rawOne(g, p), p)
}

// ShortestToContext returns, for every node, the least total cost of a path
// to any context entity and that path (node IDs, from the node to the
// context entity). It runs one Dijkstra from a virtual source joined at cost
// 0 to every context entity, over the reversed graph (or the undirected
// graph when directed is false).
func ShortestToContext(g *kgeval.PairGraph, directed bool) ([]float64, [][]int) {
	n := len(g.Nodes)
	src := int64(n) // the virtual source
	wg := simple.NewWeightedDirectedGraph(0, math.Inf(1))
	for i := 0; i <= n; i++ {
		wg.AddNode(simple.Node(i))
	}
	add := func(from, to int64, cost float64) {
		// Keep the cheaper of parallel edges.
		if e := wg.WeightedEdge(from, to); e != nil && e.Weight() <= cost {
			return
		}
		wg.SetWeightedEdge(simple.WeightedEdge{F: simple.Node(from), T: simple.Node(to), W: cost})
	}
	for _, e := range g.Edges {
		if !scoringEdge(g, e) {
			continue
		}
		add(int64(e.To), int64(e.From), e.Cost) // reversed
		if !directed {
			add(int64(e.From), int64(e.To), e.Cost)
		}
	}
	for _, v := range g.ContextEntities() {
		add(src, int64(v), 0)
	}
	sp := path.DijkstraFrom(simple.Node(src), wg)
	dist := make([]float64, n)
	paths := make([][]int, n)
	for v := 0; v < n; v++ {
		nodes, w := sp.To(int64(v))
		dist[v] = w
		if len(nodes) < 2 {
			continue
		}
		// nodes runs source, ctx entity, ..., v: reverse it and drop the source.
		p := make([]int, 0, len(nodes)-1)
		for i := len(nodes) - 1; i >= 1; i-- {
			p = append(p, int(nodes[i].ID()))
		}
		paths[v] = p
	}
	return dist, paths
}

// Louvain returns a community label per node: Louvain modularity
// optimisation (resolution 1) of the undirected graph weighted by edge
// weight; parallel edges (a triplet whose subject is its object) add up.
func Louvain(g *kgeval.PairGraph, seed uint64) []int {
	ug := simple.NewWeightedUndirectedGraph(0, 0)
	for i := range g.Nodes {
		ug.AddNode(simple.Node(i))
	}
	for _, e := range g.Edges {
		if e.From == e.To || !scoringEdge(g, e) {
			continue
		}
		w := e.Weight
		if old := ug.WeightedEdge(int64(e.From), int64(e.To)); old != nil {
			w += old.Weight()
		}
		ug.SetWeightedEdge(simple.WeightedEdge{F: simple.Node(e.From), T: simple.Node(e.To), W: w})
	}
	src := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	reduced := community.Modularize(ug, 1, randSource{rand.New(src)})
	comm := make([]int, len(g.Nodes))
	for c, members := range reduced.Communities() {
		for _, n := range members {
			comm[n.ID()] = c
		}
	}
	return comm
}

// randSource adapts math/rand/v2 to the Int63/Seed source gonum wants.
type randSource struct{ r *rand.Rand }

func (s randSource) Int63() int64     { return s.r.Int64() & math.MaxInt64 }
func (s randSource) Uint64() uint64   { return s.r.Uint64() }
func (s randSource) Seed(seed uint64) {}

var _ graph.Graph = (*simple.WeightedDirectedGraph)(nil)

// Modularity returns the modularity (resolution 1) of the partition comm of
// the undirected, weighted version of g, with parallel edges added up.
func Modularity(g *kgeval.PairGraph, comm []int) float64 {
	deg := make([]float64, len(g.Nodes))
	var m, inside float64
	tot := map[int]float64{}
	for _, e := range g.Edges {
		if !scoringEdge(g, e) {
			continue
		}
		m += e.Weight
		deg[e.From] += e.Weight
		deg[e.To] += e.Weight
		if comm[e.From] == comm[e.To] {
			inside += e.Weight
		}
	}
	if m == 0 {
		return 0
	}
	for v, d := range deg {
		tot[comm[v]] += d
	}
	q := inside / m
	for _, t := range tot {
		q -= float64((t / (2 * m)) * (t / (2 * m))) // rounded, not fused (as on amd64)
	}
	return q
}
