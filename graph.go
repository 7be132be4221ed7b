package kgeval

import "slices"

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
	// KindSlot is the unknown "?" of an asked fact (SPEC §4c): one node per
	// asked fact, never merged, not an entity (it is in no V_in).
	KindSlot = "slot"
)

// Edge types.
const (
	EdgeStructural = "REL"
	// EdgeSimilar joins an input entity to a matching context entity
	// (SPEC §3, §3b), and an input relation to a matching context relation
	// (SPEC §4b). Only entity-to-entity SIMILAR edges take part in multihop
	// and Louvain (scoring/graph.go); relation edges serve the verdicts.
	EdgeSimilar = "SIMILAR"
	// EdgeConflict joins an input entity to a context entity whose literal
	// of the same kind has another value (SPEC §3b, "2010" vs "2014"): the
	// evidence of a contradicted triplet (SPEC §4b). Verdicts only.
	EdgeConflict = "CONFLICTS"
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
	// NonAnswer marks an entity whose label only says a value is not known
	// ("currently unknown", "not provided"): it fills no slot of an asked
	// fact (SPEC §4c).
	NonAnswer bool `json:"non_answer,omitempty"`
	// Fits lists the answer types a context entity's label is a value of
	// ("date", "place", "person", "count", "duration", "measure";
	// lexical.FitsOf): such an entity answers a typed asked fact (SPEC §4c).
	Fits []string `json:"fits,omitempty"`
	// Want is, on a slot, the answer type its asked fact's relation names
	// ("mission date": "date"; lexical.WantOf), "" for none: a new filler
	// of that type answers it whatever the answering relation, and for a
	// literal type (LiteralWant) only such a filler does (SPEC §4c).
	Want string `json:"want,omitempty"`
	// Start and End are the byte span of a relation node's triplet in its
	// text (its passage for the contexts): the window it was extracted from,
	// or the sentence that states it when grounding found one. 0, 0: unknown.
	Start int `json:"start,omitempty"`
	End   int `json:"end,omitempty"`
	// Source is a relation node's triplet's Source (SourceRules: read by
	// rule; empty: the model's or the dataset's).
	Source string `json:"source,omitempty"`
}

// LiteralWants are the answer types (Node.Want) that ask for a literal: a
// date, a count, a duration or a measure, which the literal parser of
// SPEC §3b reads reliably. A place or a person is a name or a description
// ("near the coast"), so a matching relation answers it with any new
// filler. The GDS engine passes them to cypher/kgscore_verdicts.cypher.
var LiteralWants = []string{"date", "count", "duration", "measure"}

// LiteralWant reports whether answer type want is one of LiteralWants.
func LiteralWant(want string) bool { return slices.Contains(LiteralWants, want) }

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
	// Input and Context are the texts of the two sides ("" when unknown,
	// e.g. a graph read back from an older store).
	Input   Text   `json:"input,omitempty"`
	Context Text   `json:"context,omitempty"`
	Nodes   []Node `json:"nodes"`
	Edges   []Edge `json:"edges"`
	// EmptyReason is set when a side has no entity ("no triplets extracted
	// from answer"); scores of such a graph are null (or 0 with empty_as_zero).
	EmptyReason string `json:"empty_reason,omitempty"`
}

// Relations returns the IDs of the relation nodes of one side.
func (g *PairGraph) Relations(side string) []int {
	var ids []int
	for _, n := range g.Nodes {
		if n.Kind == KindRelation && n.Side == side {
			ids = append(ids, n.ID)
		}
	}
	return ids
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
	// TauRel is the cosine at which an input relation matches a context
	// relation (SPEC §4b, default 0.6; relation text only).
	TauRel float64 `json:"tau_rel"`
}

// DefaultGraphParams returns the SPEC defaults.
func DefaultGraphParams() GraphParams {
	return GraphParams{Tau: 0.7, Delta: 0.5, StructuralWeight: 0.9, StructuralCost: 0.1, Directed: true, TauRel: 0.6}
}
