package kgeval

// Sample is one RAG interaction as loaded from a dataset (SPEC §1).
type Sample struct {
	// ID is the dataset's id, or the 1-based record number when it had none.
	ID string `json:"id"`
	// Record is the 1-based position of the record in its file.
	Record    int            `json:"record"`
	Question  string         `json:"question"`
	Contexts  []string       `json:"contexts"`
	Answer    string         `json:"answer"`
	Reference string         `json:"reference,omitempty"`
	System    string         `json:"system,omitempty"`
	Human     map[string]any `json:"human,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"`
	// Triplets holds pre-extracted triplets; nil when the record had none.
	Triplets *SampleTriplets `json:"triplets,omitempty"`
}

// SampleTriplets holds the triplets of each text of a sample. A nil slice
// means "not provided" (the text still has to be extracted); an empty
// non-nil slice means "provided, and there are none".
type SampleTriplets struct {
	Question  []Triplet   `json:"question,omitempty"`
	Answer    []Triplet   `json:"answer,omitempty"`
	Reference []Triplet   `json:"reference,omitempty"`
	Contexts  [][]Triplet `json:"contexts,omitempty"`
}

// Text names one text of a sample.
type Text string

// The texts of a sample that can stand on either side of a pair.
const (
	TextQuestion  Text = "question"
	TextAnswer    Text = "answer"
	TextReference Text = "reference"
	TextContexts  Text = "contexts"
)

// Valid reports whether t is one of the known texts.
func (t Text) Valid() bool {
	switch t {
	case TextQuestion, TextAnswer, TextReference, TextContexts:
		return true
	}
	return false
}

// Triplets returns the triplets of text t and whether they were provided.
// The triplets of the contexts are the union of the passages' triplets, each
// keeping its passage index.
func (st *SampleTriplets) Triplets(t Text) ([]Triplet, bool) {
	if st == nil {
		return nil, false
	}
	switch t {
	case TextQuestion:
		return st.Question, st.Question != nil
	case TextAnswer:
		return st.Answer, st.Answer != nil
	case TextReference:
		return st.Reference, st.Reference != nil
	case TextContexts:
		if st.Contexts == nil {
			return nil, false
		}
		var out []Triplet
		for i, p := range st.Contexts {
			for _, tr := range p {
				tr.Passage = i
				out = append(out, tr)
			}
		}
		if out == nil {
			out = []Triplet{}
		}
		return out, true
	}
	return nil, false
}

// Rejection is a dataset record that was not loaded, and why.
type Rejection struct {
	Record int    `json:"record"`
	ID     string `json:"id,omitempty"`
	Reason string `json:"reason"`
}

// MaxPageSize caps SampleQuery.Limit.
const MaxPageSize = 500

// SampleQuery selects a page of a run's samples.
type SampleQuery struct {
	Run     string
	Variant string // empty: DefaultVariant
	// Metric names the score that Min, Max, Null and Reason filter and that
	// Sort "score" sorts on: a KG metric of Pair, or any other metric (a
	// MetricScore such as ts_groundedness_avg), for which Pair is ignored.
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
	ID     string               `json:"id"`
	Record int                  `json:"record"`
	System string               `json:"system,omitempty"`
	Scores map[string]*KGResult `json:"scores"`
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
// than the KG ones (a MetricScore), else nil: what a sample list shows
// beside the KG scores.
func OtherMetric(metric string) []string {
	if metric == "" || MetricFamily(metric) == FamilyKG {
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
	Pair    Pair         `json:"pair"`
	Score   *StoredScore `json:"score"`
	Input   []TripletRow `json:"input_triplets"`
	Context []TripletRow `json:"context_triplets"`
	Paths   []EntityPath `json:"paths"`
	Nodes   int          `json:"nodes"`
	Edges   int          `json:"edges"`
	Stored  bool         `json:"stored"`
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
	Grounding []Grounding `json:"grounding"`
}
