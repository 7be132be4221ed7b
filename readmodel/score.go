package readmodel

import (
	"encoding/json"

	"github.com/kgeval/kgeval"
)

// StoredScore is a pair graph's stored KG scores: the KGResult (without
// paths and communities, which are on the stored graph's nodes), the engine
// and parameters that computed it, and how many nodes carry its
// explanation (entity nodes with a community, input entities with a best
// path cost).
type StoredScore struct {
	kgeval.KGResult
	Engine              string   `json:"engine,omitempty"`
	Tau                 *float64 `json:"tau,omitempty"`
	Delta               *float64 `json:"delta,omitempty"`
	Explained, WithCost int      `json:"-"`
}

// storedScoreTail is what StoredScore's JSON adds after its KGResult's.
type storedScoreTail struct {
	Engine string   `json:"engine,omitempty"`
	Tau    *float64 `json:"tau,omitempty"`
	Delta  *float64 `json:"delta,omitempty"`
}

// MarshalJSON writes the KGResult's JSON with engine, tau and delta after
// it (KGResult's MarshalJSON, promoted, would leave them out).
func (s StoredScore) MarshalJSON() ([]byte, error) {
	b, err := s.KGResult.MarshalJSON()
	if err != nil {
		return nil, err
	}
	// The tail holds an engine name (gds, native) and numbers: nothing
	// that json.Marshal's HTML escaping changes.
	tail, err := json.Marshal(storedScoreTail{s.Engine, s.Tau, s.Delta})
	if err != nil || len(tail) == 2 { // {}
		return b, err
	}
	return append(append(b[:len(b)-1], ','), tail[1:]...), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (s *StoredScore) UnmarshalJSON(data []byte) error {
	if err := s.KGResult.UnmarshalJSON(data); err != nil {
		return err
	}
	t := storedScoreTail{s.Engine, s.Tau, s.Delta}
	if err := json.Unmarshal(data, &t); err != nil {
		return err
	}
	s.Engine, s.Tau, s.Delta = t.Engine, t.Tau, t.Delta
	return nil
}

// SampleScores is one sample of a run with its KG scores per pair (of one
// variant) and its other metric values, without explanations: a row of
// `kgeval export` and of every analysis.
type SampleScores struct {
	ID     string
	Record int
	System string
	// Question groups the answers of several systems to one question;
	// Human is the sample's human labels as stored (JSON, "null" if none).
	Question, Human string
	// Scores maps pair name to that pair's result (no explanation).
	Scores map[string]kgeval.KGResult
	// Metrics maps metric name to the sample's other metric values (no
	// explanation).
	Metrics map[string]kgeval.MetricScore
}

// MetricValue is one stored metric value of a sample as the dashboard shows
// it: a nil Value is null and Reason says why; Explanation is the stored
// JSON (absent from lists, and when none was stored or it is not JSON).
type MetricValue struct {
	Metric      string          `json:"metric"`
	Family      string          `json:"family"`
	Value       *float64        `json:"value"`
	Reason      string          `json:"reason,omitempty"`
	Explanation json.RawMessage `json:"explanation,omitempty"`
}

// SystemScore is one stored KG score of a run with the system of its
// sample (a run statistic's input row).
type SystemScore struct {
	System string
	Score  kgeval.KGResult
}

// MetricGroup is the values of one metric over one system's samples of a
// run: Values holds the non-null ones, N counts the null ones too.
type MetricGroup struct {
	Metric, Family, System string
	Values                 []float64
	N                      int
}

// ReasonCount is how many null values of a metric give one reason.
type ReasonCount struct {
	Metric, Reason string
	N              int
}
