// Package jobstest holds what the tests of the dashboard's jobs share: a
// dataset that needs no model and a wait for a job's state.
package jobstest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval/jobs"
)

// TripletRecords returns n JSONL records with given triplets (no model call
// is needed to evaluate them), each with labels of its own, so that the
// embedding stage reports progress in several steps; broken adds a record
// without an answer at record number n+1.
func TripletRecords(n int, broken bool) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `{"id": "job-%d", "question": "What is plant %d called?", "contexts": ["Plant %d is called heath %d and grows in region %d."], "answer": "Plant %d is called heath %d.", "reference": "Heath %d", "system": "jobs", "triplets": {"question": [["plant %d", "is called", "unknown"]], "answer": [["plant %d", "is called", "heath %d"]], "reference": [["plant %d", "is called", "heath %d"]], "contexts": [[["plant %d", "is called", "heath %d"], ["plant %d", "grows in", "region %d"]]]}}`+"\n",
			i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i, i)
	}
	if broken {
		b.WriteString(`{"id": "broken", "answer": "no question"}` + "\n")
	}
	return b.String()
}

// WaitJob polls the job of run until ok says so, or fails after 2 minutes.
func WaitJob(t testing.TB, j *jobs.Jobs, run string, ok func(jobs.Job) bool) jobs.Job {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		v, err := j.Get(context.Background(), run)
		if err != nil {
			t.Fatal(err)
		}
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s: waited 2 minutes, last %+v", run, v)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
