package kgeval

import "context"

// Metric names of the KG scores.
const (
	MetricMultihop          = "multihop"
	MetricCommunityOverlap  = "community_overlap"
	MetricCommunityCoverage = "community_coverage"
)

// Score is one metric value for one sample (and pair, for KG scores). A nil
// Value means the metric could not be computed; Reason says why.
type Score struct {
	Sample string   `json:"sample"`
	Pair   string   `json:"pair,omitempty"`
	Metric string   `json:"metric"`
	Value  *float64 `json:"value"`
	Reason string   `json:"reason,omitempty"`
}

// EntityPath explains multihop for one input entity.
type EntityPath struct {
	Node  int    `json:"node"`
	Label string `json:"label"`
	// Cost is the least total cost to any context entity; nil when none is
	// reachable.
	Cost    *float64 `json:"cost"`
	Path    []string `json:"path,omitempty"`
	PathIDs []int    `json:"path_ids,omitempty"`
	Passed  bool     `json:"passed"`
}

// KGResult holds the KG scores of one pair graph with their explanations.
type KGResult struct {
	Sample            string       `json:"sample"`
	Pair              string       `json:"pair"`
	Multihop          *float64     `json:"multihop"`
	CommunityOverlap  *float64     `json:"community_overlap"`
	CommunityCoverage *float64     `json:"community_coverage"`
	Reason            string       `json:"reason,omitempty"`
	Paths             []EntityPath `json:"paths,omitempty"`
	// Communities maps node ID to a canonical community number (0-based, in
	// order of first appearance by node ID).
	Communities []int `json:"communities,omitempty"`
}

// Scores returns r as a list of Score values.
func (r *KGResult) Scores() []Score {
	mk := func(m string, v *float64) Score {
		s := Score{Sample: r.Sample, Pair: r.Pair, Metric: m, Value: v}
		if v == nil {
			s.Reason = r.Reason
		}
		return s
	}
	return []Score{
		mk(MetricMultihop, r.Multihop),
		mk(MetricCommunityOverlap, r.CommunityOverlap),
		mk(MetricCommunityCoverage, r.CommunityCoverage),
	}
}

// Embedder turns texts into L2-normalised vectors.
type Embedder interface {
	// Name identifies the model, for cache keys and run records.
	Name() string
	// Embed returns one vector per text, in order. Errors: EUNAVAILABLE when
	// the model cannot be reached or loaded, EINVALID for bad input.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// KGEngine computes the KG scores of pair graphs.
type KGEngine interface {
	// Name is "gds" or "native".
	Name() string
	// Score computes multihop and community scores for each graph, in order.
	// Errors: EUNAVAILABLE when the engine's backend cannot be reached.
	Score(ctx context.Context, run string, graphs []*PairGraph, p GraphParams) ([]KGResult, error)
}

// Float returns a pointer to v, for optional values.
func Float(v float64) *float64 { return &v }

// Cache is a persistent key-value store for model answers and embeddings,
// shared by a team (kgeval keeps it in Neo4j).
type Cache interface {
	// Get returns the values stored under keys; missing keys are absent from
	// the map. Errors: EUNAVAILABLE when the store cannot be reached.
	Get(ctx context.Context, keys []string) (map[string][]byte, error)
	// Put stores values; an existing key is overwritten.
	Put(ctx context.Context, entries map[string][]byte) error
}

// ReasonExtractionFailed starts the reason of a score left null because a
// text could not be extracted ("extraction of answer failed: ..."); a
// resumed run tries those again.
const ReasonExtractionFailed = "extraction of "

// MetricScore is one per-sample metric value beyond the KG scores (triplet
// similarity, encoder and LLM-judge metrics): a nil Value is null and Reason
// says why; Explanation is what justifies the value (matched triplets,
// claims with verdicts, generated questions, sub-scores), as JSON.
type MetricScore struct {
	Sample      string   `json:"sample"`
	Metric      string   `json:"metric"`
	Family      string   `json:"family"`
	Value       *float64 `json:"value"`
	Reason      string   `json:"reason,omitempty"`
	Explanation []byte   `json:"explanation,omitempty"`
}

// Metric families, as --metrics accepts them besides single metric names.
const (
	FamilyKG    = "kg"    // multihop, community_overlap, community_coverage per pair
	FamilyTS    = "ts"    // triplet-embedding similarity (SPEC §5)
	FamilyLLM   = "llm"   // LLM-driven metrics and their validations (SPEC §6)
	FamilyRAGAS = "ragas" // RAGAS-style metrics (SPEC §7), 0-100
)
