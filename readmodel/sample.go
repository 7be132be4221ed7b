package readmodel

import (
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
)

// MaxPageSize caps SampleQuery.Limit.
const MaxPageSize = 500

// SampleQuery selects a page of a run's samples.
type SampleQuery struct {
	Run     string
	Variant string // empty: kgeval.DefaultVariant
	// Metric names the score that Min, Max, Null and Reason filter and that
	// Sort "score" sorts on: a KG metric of Pair, or any other metric (a
	// kgeval.MetricScore such as ts_groundedness_avg), for which Pair is
	// ignored.
	Pair, Metric string
	Min, Max     *float64
	// Null keeps only samples whose score is null (true) or is not (false).
	Null   *bool
	Reason *string // exact null reason
	System *string
	// Sort is "record" (default), "id", "system" or "score".
	Sort   string
	Desc   bool
	Offset int
	Limit  int
}

// SampleRow is one sample of a list with its scores per pair and, when the
// list is filtered or sorted by another metric, that metric's value.
type SampleRow struct {
	ID     string                      `json:"id"`
	Record int                         `json:"record"`
	System string                      `json:"system,omitempty"`
	Scores map[string]*kgeval.KGResult `json:"scores"`
	// Metrics maps metric name to value (without explanation); a metric the
	// sample has no value of is absent.
	Metrics map[string]*MetricValue `json:"metrics,omitempty"`
}

// SamplePage is one page of a sample list.
type SamplePage struct {
	Total   int         `json:"total"`
	Offset  int         `json:"offset"`
	Limit   int         `json:"limit"`
	Samples []SampleRow `json:"samples"`
}

// OtherMetric returns []string{metric} when metric names a metric other
// than the KG ones (a kgeval.MetricScore), else nil: what a sample list
// shows beside the KG scores.
func OtherMetric(metric string) []string {
	if metric == "" || metricreg.MetricFamily(metric) == metricreg.FamilyKG {
		return nil
	}
	return []string{metric}
}

// TripletRow is one stored triplet of a pair graph side, as the sample
// detail lists it (Passage -1 on the input side).
type TripletRow struct {
	Subject  string `json:"subject"`
	Relation string `json:"relation"`
	Object   string `json:"object"`
	Passage  int    `json:"passage"`
}

// PairDetail is one pair of a sample: its scores, its triplets per side and
// each input entity's best path with labels.
type PairDetail struct {
	Pair    kgeval.Pair         `json:"pair"`
	Score   *StoredScore        `json:"score"`
	Input   []TripletRow        `json:"input_triplets"`
	Context []TripletRow        `json:"context_triplets"`
	Paths   []kgeval.EntityPath `json:"paths"`
	Nodes   int                 `json:"nodes"`
	Edges   int                 `json:"edges"`
	Stored  bool                `json:"stored"`
}

// SampleDetail is one sample with its texts, scores and explanations.
type SampleDetail struct {
	Run       string         `json:"run"`
	ID        string         `json:"id"`
	Record    int            `json:"record"`
	System    string         `json:"system,omitempty"`
	Question  string         `json:"question"`
	Answer    string         `json:"answer"`
	Reference string         `json:"reference"`
	Contexts  []string       `json:"contexts"`
	Human     map[string]any `json:"human,omitempty"`
	// Delta is the run's multihop threshold, for showing the paths.
	Delta float64      `json:"delta"`
	Pairs []PairDetail `json:"pairs"`
	// Metrics are the sample's other metric values (triplet similarity,
	// encoder and LLM-judged metrics) with their explanations, in family
	// (metricreg.FamilyRank) then name order.
	Metrics []MetricValue `json:"metrics"`
	// Grounding is the grounding check of the sample's extracted texts (SPEC
	// §2b), per text and passage: triplets kept and dropped with the
	// reason; empty when no text was extracted with the check on.
	Grounding []kgeval.Grounding `json:"grounding"`
}
