package jobs

import (
	"testing"
	"time"
)

// TestSlotWait checks the estimate a refused job start gets as Retry-After
// (issue 49, N4): the least time left of a running job's current stage,
// between 5 s and an hour, a minute when no job has a rate yet.
func TestSlotWait(t *testing.T) {
	jobsWith := func(etas ...float64) []*job {
		var out []*job
		for _, e := range etas {
			out = append(out, &job{view: Job{Live: true, ETA: e}})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		jobs []*job
		want time.Duration
		text string
	}{
		{"NoRateYet", jobsWith(-1, -1), time.Minute, "60 s"},
		{"Soonest", jobsWith(-1, 742.4, 90.5), 90500 * time.Millisecond, "91 s"},
		{"Floor", jobsWith(0.4), 5 * time.Second, "5 s"},
		{"Cap", jobsWith(86400), time.Hour, "60 min"},
		{"Minutes", jobsWith(1000), 1000 * time.Second, "17 min"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, how := slotWait(tc.jobs)
			if got != tc.want || roundWait(got) != tc.text || how == "" {
				t.Errorf("slotWait = %v (%s), %q; want %v (%s)", got, roundWait(got), how, tc.want, tc.text)
			}
		})
	}
}
