package jobs

import (
	"context"
	"testing"

	"github.com/kgeval/kgeval"
)

// runsOnly is a RunCatalog that holds stored runs by name.
type runsOnly map[string]kgeval.Run

func (s runsOnly) ListRuns(context.Context) ([]kgeval.Run, error) { return nil, nil }
func (s runsOnly) DeleteRun(context.Context, string) error        { return nil }
func (s runsOnly) GetRun(_ context.Context, name string) (kgeval.Run, error) {
	if r, ok := s[name]; ok {
		return r, nil
	}
	return kgeval.Run{}, kgeval.Errorf(kgeval.ENOTFOUND, "no run %q", name)
}

// TestJobs_MayControl checks who may cancel or resume a job: its owner and
// admins, everyone with sign-in off, only admins when no owner is
// recorded (the dashboard's messages).
func TestJobs_MayControl(t *testing.T) {
	j := &Jobs{
		db:     runsOnly{"mine": {Name: "mine", Status: kgeval.RunInterrupted}, "cli": {Name: "cli", Status: kgeval.RunInterrupted}},
		Dir:    t.TempDir(),
		jobs:   map[string]*job{},
		owners: owners{Runs: map[string]string{"mine": "user:alice"}},
	}
	alice := Caller{User: "user:alice"}
	bob := Caller{User: "token:bob"}
	for _, tc := range []struct {
		name, run, what string
		by              Caller
		code, msg       string
	}{
		{name: "owner", run: "mine", what: "cancel", by: alice},
		{name: "admin", run: "mine", what: "resume", by: Caller{User: "user:root", Admin: true}},
		{name: "admin without owner", run: "cli", what: "cancel", by: Caller{User: "user:root", Admin: true}},
		// An admin's or an open server's request is not checked against
		// the job: Cancel or Resume says what is wrong with it.
		{name: "admin of no job", run: "gone", what: "cancel", by: Caller{Admin: true}},
		{name: "sign-in off", run: "cli", what: "resume", by: Caller{User: "anonymous", Open: true}},
		{name: "someone else", run: "mine", what: "cancel", by: bob, code: kgeval.EFORBIDDEN,
			msg: `only user:alice, who started it, or an admin may cancel the job of run "mine"`},
		{name: "no owner recorded", run: "cli", what: "resume", by: alice, code: kgeval.EFORBIDDEN,
			msg: `only an admin may resume the job of run "cli": who started it is not recorded`},
		{name: "no caller", run: "mine", what: "resume", by: Caller{}, code: kgeval.EFORBIDDEN,
			msg: `only user:alice, who started it, or an admin may resume the job of run "mine"`},
		{name: "no job", run: "gone", what: "cancel", by: bob, code: kgeval.ENOTFOUND, msg: `no job or run "gone"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := j.mayControl(context.Background(), tc.run, tc.by, tc.what)
			if tc.code == "" {
				if err != nil {
					t.Fatalf("want allowed, got %v", err)
				}
				return
			}
			if kgeval.ErrorCode(err) != tc.code || kgeval.ErrorMessage(err) != tc.msg {
				t.Errorf("got %s %q, want %s %q", kgeval.ErrorCode(err), kgeval.ErrorMessage(err), tc.code, tc.msg)
			}
		})
	}
}
