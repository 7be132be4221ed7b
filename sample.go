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
