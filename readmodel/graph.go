package readmodel

import "github.com/kgeval/kgeval"

// GraphExplanation is a stored pair graph with its explanation: each node's
// community, and each input entity's best cost, path and verdict.
type GraphExplanation struct {
	*kgeval.PairGraph
	Communities []*int                `json:"communities"`
	Paths       map[int]ExplainedPath `json:"paths"`
}

// ExplainedPath is one input entity's multihop explanation.
type ExplainedPath struct {
	Cost   *float64 `json:"cost"`
	Path   []int    `json:"path"`
	Passed bool     `json:"passed"`
}

// EntityPaths returns the multihop explanation of every input entity, in
// node order, with the labels of its best path.
func (g *GraphExplanation) EntityPaths() []kgeval.EntityPath {
	out := []kgeval.EntityPath{}
	for _, id := range g.InputEntities() {
		ep := kgeval.EntityPath{Node: id, Label: g.Nodes[id].Label}
		if p, ok := g.Paths[id]; ok {
			ep.Cost, ep.Passed, ep.PathIDs = p.Cost, p.Passed, p.Path
			for _, n := range p.Path {
				if n >= 0 && n < len(g.Nodes) {
					ep.Path = append(ep.Path, g.Nodes[n].Label)
				}
			}
		}
		out = append(out, ep)
	}
	return out
}
