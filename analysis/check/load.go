package check

import (
	"context"
	"fmt"

	"github.com/kgeval/kgeval/analysis"
)

// RunValidity is the validity report of a stored run (`kgeval validity`).
type RunValidity struct {
	Run     string `json:"run"`
	Variant string `json:"variant"`
	Dataset string `json:"dataset"`
	// Fingerprint is the dataset's sha256; LLM and Encoder the run's models.
	Fingerprint string `json:"fingerprint"`
	LLM         string `json:"llm"`
	Encoder     string `json:"encoder"`
	// Extraction is the run's extraction.method (llm, rules or both).
	Extraction string `json:"extraction"`
	// Engine is the engine that scored the KG metrics and its community
	// mode (kgeval.Run.KGEngine).
	Engine  string `json:"engine"`
	Samples int    `json:"samples"`
	// analysis.SensitivityRuns are the runs of the sensitivity experiment, by variant.
	SensitivityRuns map[string]string `json:"sensitivity_runs,omitempty"`
	// Empty lists the metrics without any value in the run (left out).
	Empty []string `json:"empty,omitempty"`
	ValidityReport
}

// LoadValidity reads a run's variant and computes the validity of the
// metrics patterns select (Validity), with the AUROC and Cohen's d of the
// sensitivity experiment named sensitivityRun when set. Errors: those of
// analysis.LoadRows, ENOTFOUND for a missing sensitivity run, EINVALID for an
// unknown pattern or system.
func LoadValidity(ctx context.Context, st analysis.ScoreSource, run, variant string, patterns []string, sensitivityRun string, o ValidityOptions) (RunValidity, error) {
	out := RunValidity{Run: run, Variant: variant}
	rec, err := st.GetRun(ctx, run)
	if err != nil {
		return out, err
	}
	out.Dataset, out.Fingerprint, out.LLM, out.Encoder, out.Extraction = rec.Dataset, rec.Fingerprint, rec.LLM, rec.Encoder, analysis.ExtractionMethod(rec)
	out.Engine = rec.KGEngine()
	rows, err := analysis.LoadRows(ctx, st, run, variant, false)
	if err != nil {
		return out, err
	}
	out.Samples = len(rows)
	v := analysis.MetricVectors(rows)
	names, err := v.Select(patterns)
	if err != nil {
		return out, err
	}
	present, empty := v.Present(names)
	out.Empty = empty
	if sensitivityRun != "" {
		out.SensitivityRuns = analysis.SensitivityRuns(sensitivityRun)
		for _, variant := range analysis.SensitivityVariants {
			if _, err := st.GetRun(ctx, out.SensitivityRuns[variant]); err != nil {
				return out, fmt.Errorf("--sensitivity-run %s: %w", sensitivityRun, err)
			}
		}
		sens, err := analysis.LoadSensitivity(ctx, st, out.SensitivityRuns, 10)
		if err != nil {
			return out, err
		}
		o.Sensitivity = sens.Metrics
	}
	out.ValidityReport, err = Validity(rows, v, present, o)
	if err != nil {
		return out, fmt.Errorf("run %s: %w", run, err)
	}
	return out, nil
}

// LoadGate reads a run (and the baseline when named) and checks it (Gate)
// with the checks of o (ParseGate). Errors: those of analysis.LoadRows and Gate.
func LoadGate(ctx context.Context, st analysis.ScoreSource, run, baseline, variant string, o GateOptions) (GateResult, error) {
	names := []string{run}
	if baseline != "" {
		names = append(names, baseline)
	}
	runs, err := analysis.LoadRuns(ctx, st, variant, names...)
	if err != nil {
		return GateResult{}, err
	}
	o.Compare.Run = runs[0].Record
	if baseline != "" {
		o.Compare.Baseline, o.Baseline = runs[1].Record, runs[1].Rows
	}
	return Gate(runs[0].Rows, o)
}
