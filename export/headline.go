package export

import (
	"encoding/json"
	"io"
	"math"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/readmodel"
)

// Headline is one pair's headline in a Row (JSONLOptions.Headline): the
// pair's headline metric (analysis.Headline), its value, its pass mark in
// the run (analysis.PairPassMark) and whether the value passes it; a null
// value has its reason and a null pass.
//
// Calibrated says the pass mark was fitted, Configured that it is a
// threshold the caller set to another value (analysis.PairMark):
// a pass or fail against a mark that is neither is shown but is no verdict
// (the Python package's pass leaves it out).
type Headline struct {
	Metric string   `json:"metric"`
	Value  *float64 `json:"value"`
	// PassMark is null for a pair without a fitted mark; Pass is then null.
	PassMark   *float64 `json:"pass_mark"`
	Pass       *bool    `json:"pass"`
	Calibrated bool     `json:"calibrated"`
	Configured bool     `json:"configured,omitempty"`
	Reason     string   `json:"reason,omitempty"`
}

// JSONLOptions configure WriteJSONLWith.
type JSONLOptions struct {
	// Headline adds to each row its pairs' headlines and Pass: false when
	// a headline fails, true when one passes and none fails, null when no
	// headline has a value. Pairs are the run's pairs; Thresholds the pass
	// marks that override the calibrated and default ones (nil for none,
	// as `kgeval evaluate` prints them; the dashboard's web.thresholds).
	Headline   bool
	Pairs      []kgeval.Pair
	Thresholds map[string]float64
}

// headlineRow is a Row with its headlines.
type headlineRow struct {
	Row
	Headline map[string]Headline `json:"headline"`
	Pass     *bool               `json:"pass"`
}

// WriteJSONLWith writes the rows of WriteJSONL with what o adds.
func WriteJSONLWith(w io.Writer, rows []readmodel.SampleScores, o JSONLOptions) error {
	if !o.Headline {
		return WriteJSONL(w, rows)
	}
	type mark struct {
		pair                   kgeval.Pair
		metric                 string
		mark                   float64
		calibrated, configured bool
	}
	marks := make([]mark, 0, len(o.Pairs))
	for _, p := range analysis.HeadlinePairs(o.Pairs) {
		v, calibrated, configured := analysis.PairMark(rows, p, o.Thresholds)
		marks = append(marks, mark{p, analysis.HeadlineIn(rows, p), v, calibrated, configured})
	}
	enc := json.NewEncoder(w)
	for _, r := range rows {
		hr := headlineRow{Row: RowOf(r), Headline: map[string]Headline{}}
		failed, passed := false, false
		for _, m := range marks {
			v, reason, ok := analysis.HeadlineValue(r, m.pair.Name, m.metric)
			if !ok {
				continue
			}
			h := Headline{Metric: m.metric, Value: v, Calibrated: m.calibrated, Configured: m.configured}
			if !math.IsNaN(m.mark) {
				mk := m.mark
				h.PassMark = &mk
			}
			if h.Value == nil {
				h.Reason = reason
			} else if h.PassMark != nil {
				pass := analysis.Passes(m.metric, *h.Value, m.mark)
				h.Pass = &pass
				failed, passed = failed || !pass, passed || pass
			}
			hr.Headline[m.pair.Name] = h
		}
		if failed || passed {
			pass := !failed
			hr.Pass = &pass
		}
		if err := enc.Encode(hr); err != nil {
			return err
		}
	}
	return nil
}
