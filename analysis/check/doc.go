// Package check holds the checks a stored run is held to, for `kgeval
// validity` and `kgeval gate`.
//
// Validity reports how well each metric tells a good system from a bad one
// on the same questions: paired win rates with bootstrap intervals, effect
// sizes, and the AUROC and Cohen's d of the sensitivity experiment
// (docs/VALIDITY.md). Gate checks a run against requirements (a metric's
// mean against a threshold) and against a baseline run (the largest
// regression allowed), for CI; ParseGate reads the checks from the command
// line and reports an option's problem as the kind of its EINVALID error
// (kgeval.OptionErrorf).
// LoadValidity and LoadGate read the runs through analysis's readers.
package check
