package kgeval

import (
	"errors"
	"fmt"
	"time"
)

// Application error codes. Adapters map their own errors onto these; the web
// layer maps them onto HTTP status codes in one table.
const (
	ECONFLICT     = "conflict"
	EFORBIDDEN    = "forbidden"
	EINTERNAL     = "internal"
	EINVALID      = "invalid"
	ENOTFOUND     = "not_found"
	ETOOLARGE     = "too_large"
	ETOOMANY      = "too_many_requests"
	EUNAVAILABLE  = "unavailable"
	EUNAUTHORIZED = "unauthorized"
)

// Error is an application error: a code and a message that is safe to show
// to a user. Internal details belong in the wrapped error, which is logged,
// not shown.
type Error struct {
	Code    string
	Message string
	Err     error
	// Kind, when set, says which case of Code it is, for a caller that
	// counts or handles them apart (KindRefused, KindTimeout, an option
	// problem); the API shows Code only.
	Kind string
	// RetryAfter, when set, is how long the caller had best wait before
	// asking again (ETOOMANY, EUNAVAILABLE): the API sends it as
	// Retry-After.
	RetryAfter time.Duration
}

// Error kinds (Error.Kind).
const (
	// KindRefused: a request the server would not run as it is (a console
	// query over a limit); the user's to change.
	KindRefused = "refused"
	// KindTimeout: a request that ran past its time limit.
	KindTimeout = "timeout"
	// KindUnreachable: the store (Neo4j) did not answer at all.
	KindUnreachable = "unreachable"
	// KindNoSuchRun: the run the caller named does not exist.
	KindNoSuchRun = "no_such_run"
)

// Option problems: the kinds of EINVALID error (OptionErrorf) a command's
// options can have, so that each caller says how to fix it its own way (the
// CLI names its flags); their messages name no flag.
const (
	KindNoRun            = "no_run"             // no run is named
	KindNoCheck          = "no_check"           // a gate with nothing to check
	KindBadRequirement   = "bad_requirement"    // a gate requirement does not parse
	KindBadMaxRegression = "bad_max_regression" // a regression bound does not parse
	KindNoBaseline       = "no_baseline"        // a regression bound without a baseline run
	KindSameRun          = "same_run"           // the baseline is the run itself
)

// OptionErrorf returns an EINVALID *Error of kind, an option problem
// (KindNoRun, ...), with a formatted message.
func OptionErrorf(kind, format string, args ...any) *Error {
	e := Errorf(EINVALID, format, args...)
	e.Kind = kind
	return e
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap returns an *Error with the given code and message that wraps err.
func Wrap(code string, err error, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Err: err}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL for
// any other non-nil error and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorKind returns the Kind of the first *Error in err's chain that has
// one, "" when none has.
func ErrorKind(err error) string {
	for err != nil {
		var e *Error
		if !errors.As(err, &e) {
			return ""
		}
		if e.Kind != "" {
			return e.Kind
		}
		err = e.Err
	}
	return ""
}

// RetryAfter returns the RetryAfter of the first *Error in err's chain
// that has one, 0 when none has.
func RetryAfter(err error) time.Duration {
	for err != nil {
		var e *Error
		if !errors.As(err, &e) {
			return 0
		}
		if e.RetryAfter > 0 {
			return e.RetryAfter
		}
		err = e.Err
	}
	return 0
}

// ErrorMessage returns the user-safe message of err.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}
