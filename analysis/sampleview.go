package analysis

import "github.com/kgeval/kgeval/readmodel"

// SampleView is one sample as the dashboard's API returns it: the stored
// detail with its triplet verdicts and grounding check, and the why: every
// input triplet's verdict with its evidence sentence, contradictions first
// (WhyLines, as `kgeval explain` prints it).
type SampleView struct {
	*readmodel.SampleDetail
	Why []VerdictLine `json:"why"`
	// Checks are the rule-read checks: the input's names and values
	// (atom_support) and the question's typed clauses (typed_slot_coverage).
	Checks []CheckLine `json:"checks"`
}

// NewSampleView builds the why of a stored sample.
func NewSampleView(d *readmodel.SampleDetail) *SampleView {
	pairs, results, why := SampleWhy(d, nil)
	texts := SampleTexts{Question: d.Question, Answer: d.Answer, Reference: d.Reference, Contexts: d.Contexts}
	v := &SampleView{SampleDetail: d, Why: why, Checks: CheckLines(texts, pairs, results)}
	if v.Why == nil {
		v.Why = []VerdictLine{}
	}
	if v.Checks == nil {
		v.Checks = []CheckLine{}
	}
	return v
}
