package kgeval

import "time"

// Run statuses.
const (
	RunRunning = "running"
	RunDone    = "done"
	RunFailed  = "failed"
	// RunInterrupted is a run stopped by SIGINT or SIGTERM; `evaluate
	// --resume` finishes it. A killed process leaves RunRunning.
	RunInterrupted = "interrupted"
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
	Resumes     int       `json:"resumes"` // how many times --resume continued it
	Started     time.Time `json:"started"`
	Finished    time.Time `json:"finished,omitempty"`
	// Stages holds seconds per stage; Calls the model-call accounting; both JSON.
	Stages string `json:"stages,omitempty"`
	Calls  string `json:"calls,omitempty"`
	// Texts counts the distinct texts sent to extraction by kind, with the
	// bound of 4 per sample + 1 per distinct passage; JSON.
	Texts string `json:"texts,omitempty"`
}
