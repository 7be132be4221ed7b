package analysis

import (
	"errors"

	"github.com/kgeval/kgeval"
)

// CheckBaseline checks the run and the baseline of a comparison of two
// runs. Errors: EINVALID, with the problem (OptionProblem).
func CheckBaseline(run, baseline string) error {
	switch {
	case run == "":
		return noRun()
	case baseline == run:
		return OptionErrorf(ProblemSameRun, "the baseline %s is the run itself: compare two different runs", baseline)
	}
	return nil
}

// Problems of ParseGate and CheckBaseline with the options they are given
// (OptionProblem).
const (
	// ProblemNoRun: no run is named.
	ProblemNoRun = "no-run"
	// ProblemNoCheck: neither a requirement nor a regression bound.
	ProblemNoCheck = "no-check"
	// ProblemRequire: a requirement does not parse (ParseRequirement).
	ProblemRequire = "require"
	// ProblemMaxRegression: a regression bound does not parse
	// (ParseMaxRegression).
	ProblemMaxRegression = "max-regression"
	// ProblemNoBaseline: a regression bound without a baseline run.
	ProblemNoBaseline = "no-baseline"
	// ProblemSameRun: the baseline is the run itself.
	ProblemSameRun = "same-run"
)

// optionError is an EINVALID error of ParseGate or CheckBaseline and its
// problem. Its message names what is wrong in words that fit every caller.
type optionError struct {
	problem string
	err     error
}

func (e optionError) Error() string { return e.err.Error() }
func (e optionError) Unwrap() error { return e.err }

// OptionErrorf is an EINVALID error with its option problem (OptionProblem).
func OptionErrorf(problem, format string, args ...any) error {
	return optionError{problem: problem, err: kgeval.Errorf(kgeval.EINVALID, format, args...)}
}

func noRun() error { return OptionErrorf(ProblemNoRun, "the run is required") }

// OptionProblem returns the problem (ProblemNoRun, ...) err has with the
// options of ParseGate or CheckBaseline, "" when it is not such an error,
// so that a caller can say how to fix it its own way (the CLI names its
// flags).
func OptionProblem(err error) string {
	var e optionError
	if errors.As(err, &e) {
		return e.problem
	}
	return ""
}

// WithProblem marks err, an error about an option, with its problem
// (OptionProblem).
func WithProblem(problem string, err error) error { return optionError{problem: problem, err: err} }
