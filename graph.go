package kgeval

// Pair names the two texts of a sample that one pair graph compares.
type Pair struct {
	Name    string `json:"name" mapstructure:"name"`
	Input   Text   `json:"input" mapstructure:"input"`
	Context Text   `json:"context" mapstructure:"context"`
}

// DefaultPairs are the four pairs of SPEC §3.
func DefaultPairs() []Pair {
	return []Pair{
		{Name: "context_relevancy", Input: TextQuestion, Context: TextContexts},
		{Name: "faithfulness", Input: TextAnswer, Context: TextContexts},
		{Name: "factual_correctness", Input: TextAnswer, Context: TextReference},
		{Name: "answer_relevancy", Input: TextQuestion, Context: TextAnswer},
	}
}

// Side of a pair graph an entity belongs to.
const (
	SideInput   = "in"
	SideContext = "ctx"
)

// Node kinds.
const (
	KindEntity   = "entity"
	KindRelation = "relation"
)

// Edge types.
const (
	EdgeStructural = "REL"
	EdgeSimilar    = "SIMILAR"
)

// Node is a node of a pair graph. IDs are dense, 0..n-1, in construction order.
type Node struct {
	ID    int    `json:"id"`
	Kind  string `json:"kind"`
	Side  string `json:"side"`
	Key   string `json:"key,omitempty"`
	Label string `json:"label"`
	// Passage is the context passage of a relation node's triplet (-1: none).
	Passage int `json:"passage"`
}

// Edge is a directed, weighted edge of a pair graph.
type Edge struct {
	From   int     `json:"from"`
	To     int     `json:"to"`
	Type   string  `json:"type"`
	Weight float64 `json:"weight"`
	Cost   float64 `json:"cost"`
}

// PairGraph is the graph of Algorithm 1 for one sample and one pair.
type PairGraph struct {
	Sample string `json:"sample"`
	Pair   string `json:"pair"`
	Nodes  []Node `json:"nodes"`
	Edges  []Edge `json:"edges"`
	// EmptyReason is set when a side has no entity ("no triplets extracted
	// from answer"); scores of such a graph are null (or 0 with empty_as_zero).
	EmptyReason string `json:"empty_reason,omitempty"`
}

// InputEntities returns the IDs of the input-side entity nodes.
func (g *PairGraph) InputEntities() []int { return g.entities(SideInput) }

// ContextEntities returns the IDs of the context-side entity nodes.
func (g *PairGraph) ContextEntities() []int { return g.entities(SideContext) }

func (g *PairGraph) entities(side string) []int {
	var ids []int
	for _, n := range g.Nodes {
		if n.Kind == KindEntity && n.Side == side {
			ids = append(ids, n.ID)
		}
	}
	return ids
}

// GraphParams are the parameters of pair-graph construction and KG scoring.
type GraphParams struct {
	Tau              float64 `json:"tau"`
	Delta            float64 `json:"delta"`
	StructuralWeight float64 `json:"structural_weight"`
	StructuralCost   float64 `json:"structural_cost"`
	Directed         bool    `json:"directed"`
	EmptyAsZero      bool    `json:"empty_as_zero"`
}

// DefaultGraphParams returns the SPEC defaults.
func DefaultGraphParams() GraphParams {
	return GraphParams{Tau: 0.7, Delta: 0.5, StructuralWeight: 0.9, StructuralCost: 0.1, Directed: true}
}
