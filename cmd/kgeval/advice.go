package main

import (
	"errors"
	"fmt"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
)

// The layers below cmd say what is wrong in words that fit every caller
// (the dashboard shows the same messages); the command line adds its own
// way out (a flag, a command, a make target) when it prints an error.

// advised is an error with the advice its command adds to the message.
type advised struct {
	err    error
	advice string
}

func (e *advised) Error() string { return withText(e.err, e.advice) }
func (e *advised) Unwrap() error { return e.err }

// withAdvice returns err with advice added to its message when err has the
// given code, and err itself otherwise.
func withAdvice(err error, code, advice string) error {
	return adviseIf(err, func(err error) bool { return kgeval.ErrorCode(err) == code }, advice)
}

// adviseIf returns err with advice added to its message when ok(err), and
// err itself otherwise or when it already has a command's advice (the
// innermost command knows best).
func adviseIf(err error, ok func(error) bool, advice string) error {
	var a *advised
	if err == nil || errors.As(err, &a) || !ok(err) {
		return err
	}
	return &advised{err: err, advice: advice}
}

// Advice on a stored run that may not be resumed (pipeline.Resumable) or
// kept (pipeline.PlanSensitivity) because it was made from other data or with
// other settings (pipeline.MismatchError).
const (
	resumeMismatchAdvice = "; use --replace or another --run"
	keepMismatchAdvice   = ": add --replace or choose another --run"
)

// optionAdvice names the flags of `kgeval gate` and `kgeval compare
// --baseline` behind an option problem ParseGate or CheckBaseline finds
// (kgeval.OptionErrorf): after the message, or before the message of a
// requirement or regression bound that does not parse.
func optionAdvice(err error) error {
	switch kgeval.ErrorKind(err) {
	case kgeval.KindNoRun:
		return &advised{err: err, advice: ": give --run (see `kgeval runs list`)"}
	case kgeval.KindNoCheck:
		return &advised{err: err, advice: " (--require or --max-regression)"}
	case kgeval.KindNoBaseline:
		return &advised{err: err, advice: " (--max-regression needs --baseline)"}
	case kgeval.KindSameRun:
		return &advised{err: err, advice: " (--baseline is --run)"}
	case kgeval.KindBadRequirement:
		return kgeval.Wrap(kgeval.EINVALID, err, "--require")
	case kgeval.KindBadMaxRegression:
		return kgeval.Wrap(kgeval.EINVALID, err, "--max-regression")
	}
	return err
}

// advice returns what the command line adds to err's message: a command's
// own advice (withAdvice), else the advice for the conditions every command
// shares.
func (m *Main) advice(err error) string {
	var a *advised
	switch {
	case errors.As(err, &a):
		return a.advice
	case kgeval.ErrorKind(err) == kgeval.KindUnreachable:
		return " (is it running? start the bundled one with `kgeval neo4j start` (needs Java 17 or 21) or `make neo4j-start`, or point KGEVAL_NEO4J_URI and KGEVAL_NEO4J_PASSWORD at a Neo4j 5.26 with GDS)"
	case kgeval.ErrorKind(err) == kgeval.KindNoSuchRun:
		return " (see `kgeval runs list`)"
	case errors.As(err, new(*analysis.UnknownVariablesError)):
		return "; check --metrics"
	case noVariant(err) != "":
		return fmt.Sprintf(" (see `kgeval sweep-report --run %s`)", noVariant(err))
	case kgeval.ErrorCode(err) == kgeval.EUNAUTHORIZED && m.cfg != nil && m.cfg.Neo4j.Password == "":
		return fmt.Sprintf(", or start the bundled server with `kgeval neo4j start` or `make neo4j-start` (it writes %s)", m.cfg.Neo4j.PasswordFile)
	}
	return ""
}

// noVariant is the run of err when err says that it has no such scoring
// variant (analysis.NoSuchVariant), else "".
func noVariant(err error) string {
	run, _ := analysis.NoSuchVariant(err)
	return run
}

// oneLine renders err for a terminal: the user-safe message of an
// application error with the command line's advice and its cause, on one
// line.
func (m *Main) oneLine(err error) string {
	return withText(err, m.advice(err))
}

// withText renders err with text added to the message of its application
// error, before the cause.
func withText(err error, text string) string {
	var e *kgeval.Error
	if !errors.As(err, &e) {
		return err.Error() + text
	}
	if e.Err != nil {
		return e.Message + text + ": " + e.Err.Error()
	}
	return e.Message + text
}
