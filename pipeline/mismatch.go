package pipeline

import (
	"errors"

	"github.com/kgeval/kgeval"
)

// MismatchError is the error of a stored run that an evaluation may not
// resume or keep because it was made from other data or with other
// settings. Its message states what differs, in words that fit the
// dashboard as well as the command line; the command line adds its own way
// out (replace the run, or choose another name).
type MismatchError struct {
	// Run is the stored run.
	Run string
	err *kgeval.Error
}

func (e *MismatchError) Error() string { return e.err.Error() }
func (e *MismatchError) Unwrap() error { return e.err }

// mismatch returns a MismatchError of run with code and a formatted
// message.
func mismatch(run, code, format string, args ...any) error {
	return &MismatchError{Run: run, err: kgeval.Errorf(code, format, args...)}
}

// IsMismatch reports whether err is, or wraps, a MismatchError.
func IsMismatch(err error) bool {
	var m *MismatchError
	return errors.As(err, &m)
}

// communityMode returns s.Communities, louvain-per-graph when unset (a run
// recorded before the key existed).
func communityMode(s kgeval.RunSettings) string {
	if s.Communities == "" {
		return kgeval.CommunitiesLouvainPerGraph
	}
	return s.Communities
}
