package analysis

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/kgeval/kgeval/stats"
)

// Ordinal scales of human labels (see the package documentation). A scale
// maps a label string to its value; strings outside it are skipped.
var (
	// UsefulnessScale is ExpertQA's answer usefulness.
	UsefulnessScale = map[string]float64{"Useful": 1, "Partially useful": 0.5, "Not useful at all": 0}
	// SupportScale is ExpertQA's claim support ("N/A" is skipped).
	SupportScale = map[string]float64{"Complete": 1, "Partial": 0.5, "Incomplete": 0.25, "Missing": 0}
	// CorrectnessScale is ExpertQA's claim correctness.
	CorrectnessScale = map[string]float64{"Definitely correct": 1, "Probably correct": 0.75, "Unsure": 0.5,
		"Likely incorrect": 0.25, "Definitely incorrect": 0}
	// InformativenessScale is ExpertQA's claim informativeness: how
	// relevant the claim is to the question, evenly spaced.
	InformativenessScale = map[string]float64{"Very relevant": 1, "A bit relevant": 2.0 / 3, "Not too important": 1.0 / 3,
		"Uninformative": 0}
)

// topScales maps top-level string labels; claimScales maps the fields of
// each claim in a top-level "claims" list, averaged per answer.
var (
	topScales   = map[string]map[string]float64{"usefulness": UsefulnessScale}
	claimScales = map[string]map[string]float64{"support": SupportScale, "correctness": CorrectnessScale,
		"informativeness": InformativenessScale}
)

// HumanLabels returns the numeric human labels of one sample's `human`
// object (JSON): numbers and booleans as they are, nested numbers as
// "<key>.<sub>", ordinal strings mapped by the tables above. raw "" or
// "null" gives no label. Errors: raw is not a JSON object.
func HumanLabels(raw string) (map[string]float64, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" || raw == "null" {
		return nil, nil
	}
	var h map[string]any
	if err := json.Unmarshal([]byte(raw), &h); err != nil {
		return nil, fmt.Errorf("human labels: %w", err)
	}
	out := map[string]float64{}
	for k, x := range h {
		switch t := x.(type) {
		case string:
			if scale := topScales[k]; scale != nil {
				if v, ok := scale[strings.TrimSpace(t)]; ok {
					out[k] = v
				}
			}
		case []any:
			if k == "claims" {
				claimLabels(t, out)
			}
		default:
			numbers(k, x, out)
		}
	}
	return out, nil
}

// numbers adds x under name if it is a number or boolean, and the numbers
// of a nested object as name.<key>, recursively.
func numbers(name string, x any, out map[string]float64) {
	switch t := x.(type) {
	case float64:
		if stats.Finite(t) {
			out[name] = t
		}
	case bool:
		out[name] = 0
		if t {
			out[name] = 1
		}
	case map[string]any:
		for k, y := range t {
			numbers(name+"."+k, y, out)
		}
	}
}

// claimLabels averages each mapped claim field over the claims of one
// answer, skipping values outside its scale.
func claimLabels(claims []any, out map[string]float64) {
	for field, scale := range claimScales {
		var sum float64
		n := 0
		for _, c := range claims {
			m, _ := c.(map[string]any)
			s, ok := m[field].(string)
			if !ok {
				continue
			}
			if v, ok := scale[strings.TrimSpace(s)]; ok {
				sum += v
				n++
			}
		}
		if n > 0 {
			out["claims."+field] = sum / float64(n)
		}
	}
}

// HumanVectors returns one vector per human label any row has, named
// "human.<label>". Errors: a row whose labels are not a JSON object (the
// error names the sample).
func HumanVectors(rows []Row) (Vectors, error) {
	v := Vectors{}
	for i, r := range rows {
		labels, err := HumanLabels(r.Human)
		if err != nil {
			return nil, fmt.Errorf("sample %s: %w", r.ID, err)
		}
		keys := make([]string, 0, len(labels))
		for k := range labels {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			name := HumanPrefix + k
			if v[name] == nil {
				v[name] = make([]*float64, len(rows))
			}
			v[name][i] = stats.Ptr(labels[k])
		}
	}
	return v, nil
}
