// Package fit measures the claim verdicts on labelled data and fits their
// calibration, for `kgeval factcheck` and `kgeval calibrate`.
//
// FactcheckReport reads one run's labelled samples (analysis.Row with their
// stored claim checks) and reports, per score, AUROC and balanced accuracy
// with cross-validated pass marks; Calibrate fits the logistic combinations
// of the claim features, with and without the model's answer, and returns
// them as claims.Calibration, the type evaluate reads. MixReport does the
// same over several labelled datasets, each left out in turn
// (leave-one-dataset-out), chooses the features and the penalty that carry
// over, and fits the calibration on all of them (SPEC-NOTES §4d').
//
// It reads rows through analysis (LoadRows and the ScoreSource reader) and
// computes its statistics with package stats; render formats its reports.
package fit
