package render

import (
	"encoding/json"
	"io"
	"math"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/pipeline"
)

// EvaluationOutput is what `kgeval evaluate --json` prints: one object,
// for programs (the Python package) that would otherwise parse the
// tables.
type EvaluationOutput struct {
	Run     string `json:"run"`
	Samples int    `json:"samples"`
	// Rejected are the dataset's rejected records with their reasons;
	// Errors the samples whose texts could not be extracted.
	Rejected []kgeval.Rejection     `json:"rejected"`
	Errors   []pipeline.SampleError `json:"errors"`
	// Calls are the model calls of every client of this process (the
	// cache hits included); Refused the requests --cache-only found no
	// answer for.
	Calls   kgeval.Calls `json:"calls"`
	Refused int64        `json:"refused"`
	// Headline is the headline table (analysis.Headlines).
	Headline []HeadlineOutput `json:"headline"`
}

// HeadlineOutput is one row of the headline table; Mean is null when no
// sample has a value. Calibrated says the pass mark was fitted
// (analysis.PairMark); a pair without a fitted mark has none (PassMark null).
type HeadlineOutput struct {
	Pair    string   `json:"pair"`
	Metric  string   `json:"metric"`
	System  string   `json:"system,omitempty"`
	Mean    *float64 `json:"mean"`
	N       int      `json:"n"`
	Passing int      `json:"passing"`
	// PassMark is null for a pair without a fitted mark (then Passing is 0).
	PassMark   *float64       `json:"pass_mark"`
	Calibrated bool           `json:"calibrated"`
	WithModel  bool           `json:"with_model,omitempty"`
	Nulls      map[string]int `json:"nulls,omitempty"`
}

// EvaluationJSON writes the EvaluationOutput of an evaluation.
func EvaluationJSON(w io.Writer, r *pipeline.Evaluation, pairs []kgeval.Pair) error {
	rows := r.Scores
	out := EvaluationOutput{Run: r.Run, Rejected: r.Rejected, Calls: r.Usage.All, Refused: r.Usage.All.Refused, Headline: []HeadlineOutput{}}
	if r.Report != nil {
		out.Samples, out.Errors = r.Samples, r.Errors
	}
	if out.Rejected == nil {
		out.Rejected = []kgeval.Rejection{}
	}
	if out.Errors == nil {
		out.Errors = []pipeline.SampleError{}
	}
	for _, h := range analysis.Headlines(rows, pairs, nil) {
		ho := HeadlineOutput{Pair: h.Pair.Name, Metric: h.Metric, System: h.System, N: h.N, Passing: h.Passing,
			WithModel: h.WithModel, Calibrated: h.Calibrated, Nulls: h.Nulls}
		if h.HasMark {
			m := h.PassMark
			ho.PassMark = &m
		}
		if !math.IsNaN(h.Mean) {
			m := h.Mean
			ho.Mean = &m
		}
		out.Headline = append(out.Headline, ho)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
