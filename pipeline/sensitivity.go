package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/readmodel"
)

// SensitivityOptions are the paper's sensitivity experiment on a dataset.
type SensitivityOptions struct {
	// Dataset is the source file, Records how many records it has, Samples
	// its valid ones and Rejected how many it rejected.
	Dataset  string
	Records  int
	Samples  []kgeval.Sample
	Rejected int
	// System restricts the samples to one system ("": all); Limit to the
	// first N with a reference (0: all).
	System string
	Limit  int
	// Seed seeds the wrong_answer derangement.
	Seed uint64
	// Prefix names the runs (analysis.SensitivityRuns); Dir receives the
	// derived datasets.
	Prefix, Dir string
	// Bins is the number of histogram bins of the report.
	Bins int
	// Replace deletes and redoes runs of the same names.
	Replace bool
	// Log receives the experiment's progress; nil discards it.
	Log io.Writer
}

// Check fills the defaults of o (Prefix: the dataset's file name with
// -sensitivity; Dir: Prefix) and refuses what cannot run. Errors: EINVALID.
func (o *SensitivityOptions) Check() error {
	if o.Dataset == "" {
		return kgeval.Errorf(kgeval.EINVALID, "--dataset is required")
	}
	if o.Prefix == "" {
		o.Prefix = strings.TrimSuffix(filepath.Base(o.Dataset), filepath.Ext(o.Dataset)) + "-sensitivity"
	}
	if o.Dir == "" {
		o.Dir = o.Prefix
	}
	if o.Bins < 1 {
		return kgeval.Errorf(kgeval.EINVALID, "--bins %d: want at least 1", o.Bins)
	}
	return nil
}

// SensitivityReport is the outcome of the sensitivity experiment.
type SensitivityReport struct {
	Dataset string `json:"dataset"`
	// System is the system the samples were restricted to ("": all).
	System   string `json:"system,omitempty"`
	Seed     uint64 `json:"seed"`
	Samples  int    `json:"samples"`
	Rejected int    `json:"rejected"`
	// DroppedNoReference counts the loaded samples without a reference.
	DroppedNoReference int `json:"dropped_no_reference"`
	// Runs and Files map each variant to its run and derived dataset.
	Runs    map[string]string     `json:"runs"`
	Files   map[string]string     `json:"files"`
	Metrics []analysis.Separation `json:"metrics"`
}

// SensitivityPlan is the experiment prepared: its report so far and the
// evaluation each variant needs, in order. The caller asks its Runner for
// each Step, then Read reads the three runs back.
type SensitivityPlan struct {
	Report *SensitivityReport
	Steps  []SensitivityStep
	bins   int
}

// SensitivityStep is one variant's run: kept (Keep: done, same content),
// resumed (Resume: unfinished, same content), replaced (Replace) or new.
type SensitivityStep struct {
	Variant, Run, File    string
	Keep, Resume, Replace bool
}

// PlanSensitivity prepares the experiment: it keeps the samples that have
// a reference, derives the reference_as_answer and wrong_answer variants,
// decides each variant's run — new, kept (done, same content), resumed
// (unfinished, same content) or replaced (Replace) — and writes the three
// datasets to Dir. Errors: EINVALID for an unknown system, fewer than 2
// samples with a reference or an unwritable Dir; ECONFLICT (a
// MismatchError) for a stored run of other content, found before any file
// is written.
func PlanSensitivity(ctx context.Context, store readmodel.Services, o SensitivityOptions) (*SensitivityPlan, error) {
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	samples := o.Samples
	if o.System != "" {
		samples = nil
		systems := map[string]bool{}
		for _, s := range o.Samples {
			systems[s.System] = true
			if s.System == o.System {
				samples = append(samples, s)
			}
		}
		if len(samples) == 0 {
			names := make([]string, 0, len(systems))
			for s := range systems {
				names = append(names, s)
			}
			sort.Strings(names)
			return nil, kgeval.Errorf(kgeval.EINVALID, "--system %s: dataset %s has no record of that system (it has: %s)", o.System, o.Dataset, strings.Join(names, ", "))
		}
		fmt.Fprintf(log, "sensitivity: --system %s: %d of %d loaded samples\n", o.System, len(samples), len(o.Samples))
	}
	kept, dropped := WithReference(samples)
	if o.Limit > 0 && o.Limit < len(kept) {
		kept = kept[:o.Limit]
	}
	fmt.Fprintf(log, "sensitivity: %s: %d records, %d loaded, %d rejected; %d without reference dropped; %d samples used (seed %d)\n",
		o.Dataset, o.Records, len(o.Samples), o.Rejected, dropped, len(kept), o.Seed)
	if len(kept) < 2 {
		return nil, kgeval.Errorf(kgeval.EINVALID, "dataset %s: %d sample(s) with a reference; the experiment needs at least 2", o.Dataset, len(kept))
	}
	wrong, _, err := WrongAnswer(kept, o.Seed)
	if err != nil {
		return nil, err
	}
	sets := map[string][]kgeval.Sample{
		analysis.VariantOriginal:          kept,
		analysis.VariantReferenceAsAnswer: ReferenceAsAnswer(kept),
		analysis.VariantWrongAnswer:       wrong,
	}
	rep := &SensitivityReport{Dataset: o.Dataset, System: o.System, Seed: o.Seed, Samples: len(kept), Rejected: o.Rejected, DroppedNoReference: dropped,
		Runs: analysis.SensitivityRuns(o.Prefix), Files: map[string]string{}}
	content := map[string][]byte{}
	for _, variant := range analysis.SensitivityVariants {
		rep.Files[variant] = filepath.Join(o.Dir, variant+".jsonl")
		if content[variant], err = dataset.EncodeJSONL(sets[variant]); err != nil {
			return nil, err
		}
	}

	// Each run: new, kept (done, same file content), resumed (interrupted,
	// same content) or replaced (Replace). A run of other content is a
	// conflict, found before any file is written.
	type policy struct{ skip, resume bool }
	plan := map[string]policy{}
	for _, variant := range analysis.SensitivityVariants {
		if o.Replace {
			continue
		}
		run := rep.Runs[variant]
		old, err := store.GetRun(ctx, run)
		switch {
		case err != nil && kgeval.ErrorCode(err) == kgeval.ENOTFOUND:
		case err != nil:
			return nil, err
		case old.Fingerprint != dataset.Fingerprint(content[variant]):
			return nil, mismatch(run, kgeval.ECONFLICT, "run %q exists and was evaluated from other data (dataset %s; the source, seed or limit differ)", run, old.Dataset)
		case old.Status == kgeval.RunDone:
			plan[variant] = policy{skip: true}
		default:
			plan[variant] = policy{resume: true}
		}
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, kgeval.Wrap(kgeval.EINVALID, err, "--dir %s", o.Dir)
	}
	for _, variant := range analysis.SensitivityVariants {
		if err := os.WriteFile(rep.Files[variant], content[variant], 0o644); err != nil {
			return nil, kgeval.Wrap(kgeval.EINVALID, err, "derived dataset %s", rep.Files[variant])
		}
	}
	p := &SensitivityPlan{Report: rep, bins: o.Bins}
	for _, variant := range analysis.SensitivityVariants {
		p.Steps = append(p.Steps, SensitivityStep{Variant: variant, Run: rep.Runs[variant], File: rep.Files[variant],
			Keep: plan[variant].skip, Resume: plan[variant].resume, Replace: o.Replace})
	}
	return p, nil
}

// Read reads the experiment's three runs back (analysis.LoadSensitivity)
// into its report, once each Step is evaluated.
func (p *SensitivityPlan) Read(ctx context.Context, store readmodel.Services) (*SensitivityReport, error) {
	sens, err := analysis.LoadSensitivity(ctx, store, p.Report.Runs, p.bins)
	if err != nil {
		return nil, err
	}
	rep := *p.Report
	rep.Metrics = sens.Metrics
	return &rep, nil
}
