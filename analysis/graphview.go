package analysis

import (
	"context"

	"github.com/kgeval/kgeval"
)

// GraphNode is a pair-graph node for drawing.
type GraphNode struct {
	kgeval.Node
	Community *int `json:"community"`
}

// GraphView is a pair graph as the graph view draws it: nodes with their
// community, edges with weight and cost, and each input entity's best path
// and cost against delta. Pairs are the run's pairs (the graph page links
// to the same sample's other graphs); the API leaves them out.
type GraphView struct {
	Run         string              `json:"run"`
	Sample      string              `json:"sample"`
	Pair        string              `json:"pair"`
	Delta       float64             `json:"delta"`
	EmptyReason string              `json:"empty_reason,omitempty"`
	Nodes       []GraphNode         `json:"nodes"`
	Edges       []kgeval.Edge       `json:"edges"`
	Paths       []kgeval.EntityPath `json:"paths"`
	Pairs       []kgeval.Pair       `json:"-"`
}

// Graph reads one stored pair graph of a sample with its communities and
// best paths (GraphView). It is not cached: a run has a graph per sample
// and pair, each read once or twice, and they would push the run's other
// read models out of the cache. Errors: ENOTFOUND for an unknown run,
// sample or pair.
func (rd *Reader) Graph(ctx context.Context, run, sample, pair string) (*GraphView, error) {
	_, d, err := rd.Run(ctx, run)
	if err != nil {
		return nil, err
	}
	g, err := rd.st.ReadGraphExplanation(ctx, run, sample, pair)
	if err != nil {
		return nil, err
	}
	v := &GraphView{Run: run, Sample: sample, Pair: pair, Delta: d.Delta, EmptyReason: g.EmptyReason,
		Nodes: make([]GraphNode, len(g.Nodes)), Edges: g.Edges, Paths: g.EntityPaths(), Pairs: d.Pairs}
	if v.Edges == nil {
		v.Edges = []kgeval.Edge{}
	}
	for i, n := range g.Nodes {
		v.Nodes[i] = GraphNode{Node: n, Community: g.Communities[i]}
	}
	return v, nil
}
