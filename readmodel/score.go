package readmodel

import "github.com/kgeval/kgeval"

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
