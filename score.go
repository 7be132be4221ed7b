package kgeval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/kgeval/kgeval/metricreg"
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
// Its values are keyed by the metric registry (metricreg.KGMetricNames): Value and
// SetValue read and write them; its JSON writes them in the registry's
// KGResult order (metricreg.MetricInfo.JSON) between the pair and the reason:
// {"sample", "pair", "multihop", ..., "contradiction_verified", "reason",
// ...}, a null value as null.
type KGResult struct {
	Sample string `json:"sample"`
	Pair   string `json:"pair"`
	// values holds each KG metric's value at its index in metricreg.KGMetricNames
	// (kgIndex); an array, not a map, so that a copied KGResult is a copy
	// as it was when the values were fields.
	values [maxKGMetrics]*float64
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
	// Atoms explains atom_support: one per name or value of the input text.
	Atoms []AtomCheck `json:"atoms,omitempty"`
	// Claims explains the claim scores: one per claim of the input text.
	Claims []ClaimCheck `json:"claims,omitempty"`
	// TypedSlots explains typed_slot_coverage: one per typed clause of the
	// question.
	TypedSlots []TypedSlotCheck `json:"typed_slots,omitempty"`
}

// TypedSlotCheck is one clause of a question that asks for a typed value
// (metricreg.MetricTypedSlotCoverage) and the value of the context side that answers
// it, if any.
type TypedSlotCheck struct {
	Clause string `json:"clause"`
	// Want is the answer type: date, place, person, count, duration, measure.
	Want     string `json:"want"`
	Answered bool   `json:"answered"`
	// Value is the answering name or value; Evidence its sentence.
	Value    string    `json:"value,omitempty"`
	Evidence *Evidence `json:"evidence,omitempty"`
}

// AtomCheck is one atom of an input text (a name or a literal value) and
// whether the context side states it (metricreg.MetricAtomSupport).
type AtomCheck struct {
	Text string `json:"text"`
	// Kind is "name" or a literal kind ("date", "number", "money", ...).
	Kind string `json:"kind"`
	// Start and End are its byte span in the input text.
	Start int `json:"start"`
	End   int `json:"end"`
	// Stated is true when a context sentence states it; Evidence is then
	// that sentence (Node -1, its passage and byte span).
	Stated   bool      `json:"stated"`
	Evidence *Evidence `json:"evidence,omitempty"`
}

// maxKGMetrics bounds the KG metrics a KGResult holds; the package does
// not load when the registry has more (raise it then).
const maxKGMetrics = 32

// kgIndex maps a KG metric name to its index in metricreg.KGMetricNames and in
// KGResult.values.
var kgIndex = func() map[string]int {
	if len(metricreg.KGMetricNames) > maxKGMetrics {
		panic(fmt.Sprintf("kgeval: the registry has %d KG metrics, KGResult holds %d: raise maxKGMetrics", len(metricreg.KGMetricNames), maxKGMetrics))
	}
	m := make(map[string]int, len(metricreg.KGMetricNames))
	for i, name := range metricreg.KGMetricNames {
		m[name] = i
	}
	return m
}()

// Value returns the value of a KG metric (metricreg.KGMetricNames); nil when null or
// unknown.
func (r KGResult) Value(metric string) *float64 {
	if i, ok := kgIndex[metric]; ok {
		return r.values[i]
	}
	return nil
}

// SetValue sets the value of a KG metric. Every caller names a metric of
// metricreg.KGMetricNames; an unknown name is a programming error and
// panics, as regexp.MustCompile does, rather than dropping the value.
func (r *KGResult) SetValue(metric string, v *float64) {
	i, ok := kgIndex[metric]
	if !ok {
		panic(fmt.Sprintf("kgeval: KGResult.SetValue: unknown KG metric %q (metricreg.KGMetricNames)", metric))
	}
	r.values[i] = v
}

// With returns r with the value of a KG metric set (SetValue): a
// KGResult written as a literal, as the tests write them.
func (r KGResult) With(metric string, v *float64) KGResult {
	r.SetValue(metric, v)
	return r
}

// ReasonFor returns why a KG metric is null.
func (r *KGResult) ReasonFor(metric string) string {
	if why, ok := r.Reasons[metric]; ok {
		return why
	}
	return r.Reason
}

// kgResultFields is KGResult without its methods: encoding/json writes and
// reads its tagged fields (all but the metric values) as for any struct.
type kgResultFields KGResult

// MarshalJSON writes r as the struct with one field per metric wrote it:
// sample and pair, each KG metric in metricreg.KGJSONNames order (null when nil),
// then the explanations, omitted when empty.
func (r KGResult) MarshalJSON() ([]byte, error) {
	// The fields without the values, and the same encoding of sample and
	// pair: the values go in between. Neither escapes HTML: an encoder
	// that does escapes what a Marshaler returns.
	fields, err := marshalNoEscape((*kgResultFields)(&r))
	if err != nil {
		return nil, err
	}
	sample, _ := marshalNoEscape(r.Sample)
	pair, _ := marshalNoEscape(r.Pair)
	head := slices.Concat([]byte(`{"sample":`), sample, []byte(`,"pair":`), pair)
	if !bytes.HasPrefix(fields, head) {
		return nil, fmt.Errorf("kgeval: KGResult JSON does not start with sample and pair: %s", fields)
	}
	out := append(make([]byte, 0, len(fields)+len(metricreg.KGJSONNames)*32), head...)
	for _, m := range metricreg.KGJSONNames {
		out = append(append(append(out, `,"`...), m...), `":`...)
		v := r.Value(m)
		if v == nil {
			out = append(out, "null"...)
			continue
		}
		b, err := json.Marshal(*v)
		if err != nil {
			return nil, err
		}
		out = append(out, b...)
	}
	return append(out, fields[len(head):]...), nil
}

// UnmarshalJSON reads what MarshalJSON writes: a metric value absent from
// data is left as it is, a null one set to nil.
func (r *KGResult) UnmarshalJSON(data []byte) error {
	if err := json.Unmarshal(data, (*kgResultFields)(r)); err != nil {
		return err
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	for name, i := range kgIndex {
		if b, ok := raw[name]; ok {
			if err := json.Unmarshal(b, &r.values[i]); err != nil {
				return fmt.Errorf("kgeval: KG metric %s: %w", name, err)
			}
		}
	}
	return nil
}

// marshalNoEscape is json.Marshal without HTML escaping.
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Scores returns r as a list of Score values, one per metricreg.KGMetricNames.
func (r *KGResult) Scores() []Score {
	out := make([]Score, 0, len(metricreg.KGMetricNames))
	for _, m := range metricreg.KGMetricNames {
		s := Score{Sample: r.Sample, Pair: r.Pair, Metric: m, Value: r.Value(m)}
		if s.Value == nil {
			s.Reason = r.ReasonFor(m)
		}
		out = append(out, s)
	}
	return out
}

// Float returns a pointer to v, for optional values.
func Float(v float64) *float64 { return &v }

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

// ReasonNoValidJSON ends the message of a model answer that failed
// validation after every repair ("model m gave no valid JSON after 3
// attempts: label 2 is FN but ..."); the rejected answer follows it.
const ReasonNoValidJSON = "gave no valid JSON after %d attempts"

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
