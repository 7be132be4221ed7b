package kgeval

import (
	"context"
	"strings"
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
	Sample            string   `json:"sample"`
	Pair              string   `json:"pair"`
	Multihop          *float64 `json:"multihop"`
	CommunityOverlap  *float64 `json:"community_overlap"`
	CommunityCoverage *float64 `json:"community_coverage"`
	// Verdict scores (SPEC §4b, §4c); see the Metric constants.
	Support               *float64 `json:"support"`
	Contradiction         *float64 `json:"contradiction"`
	Recall                *float64 `json:"recall"`
	F1                    *float64 `json:"f1"`
	SlotCoverage          *float64 `json:"slot_coverage"`
	SupportText           *float64 `json:"support_text"`
	SlotCoverageText      *float64 `json:"slot_coverage_text"`
	ContradictionText     *float64 `json:"contradiction_text"`
	SupportVerified       *float64 `json:"support_verified"`
	ContradictionVerified *float64 `json:"contradiction_verified"`
	// Reason says why the scores are null (a side without triplets);
	// Reasons overrides it for single metrics null for their own reason
	// ("recall: only against the reference").
	Reason  string            `json:"reason,omitempty"`
	Reasons map[string]string `json:"reasons,omitempty"`
	Paths   []EntityPath      `json:"paths,omitempty"`
	// Communities maps node ID to a canonical community number (0-based, in
	// order of first appearance by node ID).
	Communities []int `json:"communities,omitempty"`
	// Verdicts explains support, contradiction and slot_coverage: one per
	// input triplet.
	Verdicts []TripletVerdict `json:"verdicts,omitempty"`
}

// Value returns the value of a KG metric (KGMetricNames); nil when null or
// unknown.
func (r *KGResult) Value(metric string) *float64 {
	if p := r.field(metric); p != nil {
		return *p
	}
	return nil
}

// SetValue sets the value of a KG metric; unknown names are ignored.
func (r *KGResult) SetValue(metric string, v *float64) {
	if p := r.field(metric); p != nil {
		*p = v
	}
}

// ReasonFor returns why a KG metric is null.
func (r *KGResult) ReasonFor(metric string) string {
	if why, ok := r.Reasons[metric]; ok {
		return why
	}
	return r.Reason
}

func (r *KGResult) field(metric string) **float64 {
	switch metric {
	case MetricMultihop:
		return &r.Multihop
	case MetricCommunityOverlap:
		return &r.CommunityOverlap
	case MetricCommunityCoverage:
		return &r.CommunityCoverage
	case MetricSupport:
		return &r.Support
	case MetricContradiction:
		return &r.Contradiction
	case MetricRecall:
		return &r.Recall
	case MetricF1:
		return &r.F1
	case MetricSlotCoverage:
		return &r.SlotCoverage
	case MetricSupportText:
		return &r.SupportText
	case MetricContradictionText:
		return &r.ContradictionText
	case MetricSlotCoverageText:
		return &r.SlotCoverageText
	case MetricSupportVerified:
		return &r.SupportVerified
	case MetricContradictionVerified:
		return &r.ContradictionVerified
	}
	return nil
}

// Scores returns r as a list of Score values, one per KGMetricNames.
func (r *KGResult) Scores() []Score {
	out := make([]Score, 0, len(KGMetricNames))
	for _, m := range KGMetricNames {
		s := Score{Sample: r.Sample, Pair: r.Pair, Metric: m, Value: r.Value(m)}
		if s.Value == nil {
			s.Reason = r.ReasonFor(m)
		}
		out = append(out, s)
	}
	return out
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

// ReasonNotApplicable starts the reason of a KG metric that does not apply
// to a pair ("n/a: only against the reference"): summaries leave such
// metrics out rather than list them as null.
const ReasonNotApplicable = "n/a: "

// NotApplicable reports whether reason is ReasonNotApplicable.
func NotApplicable(reason string) bool { return strings.HasPrefix(reason, ReasonNotApplicable) }

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
