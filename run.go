package kgeval

import "time"

// Run statuses.
const (
	RunRunning = "running"
	RunDone    = "done"
	RunFailed  = "failed"
)

// Run is one evaluation of a dataset, as recorded in the store.
type Run struct {
	Name        string    `json:"name"`
	Dataset     string    `json:"dataset"`
	Fingerprint string    `json:"fingerprint"` // sha256 of the dataset file
	Config      string    `json:"config"`      // the configuration in force, JSON
	LLM         string    `json:"llm"`         // endpoint#model
	Encoder     string    `json:"encoder"`
	Engine      string    `json:"engine"`
	Status      string    `json:"status"`
	Error       string    `json:"error,omitempty"`
	Samples     int       `json:"samples"`
	Rejected    int       `json:"rejected"`
	Started     time.Time `json:"started"`
	Finished    time.Time `json:"finished,omitempty"`
	// Stages holds seconds per stage; Calls the model-call accounting; both JSON.
	Stages string `json:"stages,omitempty"`
	Calls  string `json:"calls,omitempty"`
}
