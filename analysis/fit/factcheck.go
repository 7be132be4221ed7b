package fit

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/kgeval/kgeval/scoring/claims"
	"github.com/kgeval/kgeval/stats"
)

// The factcheck read models: how well each faithfulness score of
// a run separates the samples a human judged supported (human.faithfulness
// 1) from the others (0), on a claim-level dataset such as
// testdata/expertqa_claims.jsonl, and the logistic calibrations of the claim
// features fitted on such a run.
//
// Every score is read as a classifier of the label: its AUROC with
// DeLong's 95% interval, and its balanced accuracy at a threshold chosen by
// cross-validation (stats.CVThreshold: chosen on the other folds, pooled
// over the held-out samples, 95% bootstrap interval over groups). A group is
// the part of a sample's id before '#' (the ExpertQA record whose answer
// the claim comes from): the samples of one group are in one fold.
//
// The claim features (kgeval.ClaimCheck.Features) are combined by an
// out-of-fold logistic regression (stats.CrossValidate): each stored claim
// is a training row with its sample's label; a sample's prediction is the
// mean of its claims' out-of-fold predictions, as the headline score
// averages calibrated claim probabilities.

// FactcheckPair is the pair whose KG metrics and claims the report reads.
const FactcheckPair = "faithfulness"

// Defaults of the factcheck report and the calibration.
const (
	FactcheckFolds  = 5
	FactcheckLambda = 1.0
)

// FactcheckLabel is the human label the report reads: 1 supported, 0 not.
const FactcheckLabel = "faithfulness"

// FactcheckOptions are the report's settings (zero values: the defaults).
// Calibration, when set, is a fitted calibration (a `kgeval calibrate`
// file, named CalibrationName) to judge on the run as it is: each of its
// two fits applied to the claims that have its features, the samples' mean
// read at the fit's pass mark.
type FactcheckOptions struct {
	Folds           int
	Lambda          float64
	Calibration     *claims.Calibration
	CalibrationName string
}

func (o FactcheckOptions) withDefaults() FactcheckOptions {
	if o.Folds == 0 {
		o.Folds = FactcheckFolds
	}
	if o.Lambda == 0 {
		o.Lambda = FactcheckLambda
	}
	return o
}

// Kinds of factcheck rows.
const (
	FactcheckMetric = "metric"
	FactcheckCV     = "cv"
	// FactcheckFixed is a given calibration: nothing is fitted on the run,
	// and its balanced accuracy is at the calibration's own pass mark.
	FactcheckFixed = "fixed"
)

// FactcheckRow is one score of the report read as a classifier of the
// human label.
type FactcheckRow struct {
	// Name is the metric variable ("faithfulness.score", "k_precision") or
	// the combination ("combination (cv)", ...).
	Name string `json:"name"`
	// Kind is FactcheckMetric (a stored score), FactcheckCV (an
	// out-of-fold logistic regression on Features) or FactcheckFixed (a
	// given calibration).
	Kind     string   `json:"kind"`
	Features []string `json:"features,omitempty"`
	// LowerIsBetter marks a score for which lower means supported (the
	// contradiction scores): its AUROC is that of the negated score, so
	// that above 0.5 is right for every row, and a sample passes when it
	// is at or below Threshold.
	LowerIsBetter bool `json:"lower_is_better,omitempty"`
	// N counts the labelled samples with a value, Positives those
	// labelled 1; Claims, for a cv row, the claims it was fitted on.
	N         int `json:"n"`
	Positives int `json:"positives"`
	Claims    int `json:"claims,omitempty"`
	// AUROC and its DeLong 95% interval; null with Reason when not
	// defined.
	AUROC   *float64 `json:"auroc"`
	AUROCLo *float64 `json:"auroc_lo"`
	AUROCHi *float64 `json:"auroc_hi"`
	// BalancedAccuracy is the cross-validated one (stats.CVThreshold), Lo
	// and Hi its bootstrap interval; Threshold the one chosen on all
	// samples (the pass mark).
	BalancedAccuracy *float64 `json:"balanced_accuracy"`
	BALo             *float64 `json:"balanced_accuracy_lo"`
	BAHi             *float64 `json:"balanced_accuracy_hi"`
	Threshold        *float64 `json:"threshold"`
	Reason           string   `json:"reason,omitempty"`
}

// FactcheckCost is what the run's claims cost, from its record.
type FactcheckCost struct {
	// Calls and CacheHits are the run's model requests (all stages) and
	// those answered from the cache; PromptTokens the prompt tokens the
	// endpoint counted.
	Calls        int64 `json:"calls"`
	CacheHits    int64 `json:"cache_hits"`
	PromptTokens int64 `json:"prompt_tokens"`
	// Seconds adds the run's stages named in Stages (claims and verify,
	// those recorded).
	Seconds float64  `json:"seconds"`
	Stages  []string `json:"stages"`
	// PerClaim and PerSample divide the three by the stored claims and by
	// the run's samples; nil when there are none.
	PerClaim  *CostShare `json:"per_claim,omitempty"`
	PerSample *CostShare `json:"per_sample,omitempty"`
}

// CostShare is a cost divided by a count.
type CostShare struct {
	Calls        float64 `json:"calls"`
	PromptTokens float64 `json:"prompt_tokens"`
	Seconds      float64 `json:"seconds"`
}

// Factcheck is the report of `kgeval factcheck`.
type Factcheck struct {
	Run         string `json:"run"`
	Variant     string `json:"variant"`
	Dataset     string `json:"dataset"`
	Fingerprint string `json:"fingerprint"`
	LLM         string `json:"llm"`
	Encoder     string `json:"encoder"`
	Extraction  string `json:"extraction"`
	Verify      string `json:"verify"`
	// Engine is the engine that scored the KG metrics and its community
	// mode (kgeval.Run.KGEngine).
	Engine string `json:"engine"`
	// Samples is the run's rows; Labelled those with a human
	// faithfulness label (Positives of them 1); Groups their groups.
	Samples   int `json:"samples"`
	Labelled  int `json:"labelled"`
	Positives int `json:"positives"`
	Groups    int `json:"groups"`
	// Claims counts the stored claim checks of the labelled samples,
	// WithModel those with the model's P(supported).
	Claims    int `json:"claims"`
	WithModel int `json:"claims_with_model"`
	// ModelFailed counts the claims whose model question failed
	// (ClaimCheck.ModelError: refused by a cache-only replay, for one).
	ModelFailed int     `json:"claims_model_failed,omitempty"`
	Folds       int     `json:"folds"`
	Lambda      float64 `json:"lambda"`
	// Empty lists the faithfulness metrics the run stores without any
	// value (left out).
	Empty []string `json:"empty,omitempty"`
	// Rows: each faithfulness KG metric with a value, k_precision, then the
	// cross-validated combinations of claim features.
	Rows  []FactcheckRow `json:"rows"`
	Cost  FactcheckCost  `json:"cost"`
	Notes []string       `json:"notes,omitempty"`
}

// FactcheckGroup returns the group of a sample id: the part before the
// first '#', the whole id when it has none.
func FactcheckGroup(id string) string {
	g, _, _ := strings.Cut(id, "#")
	return g
}

// labelled is one labelled sample: its row index, label and group.
type labelled struct {
	row   int
	y     int
	group string
}

// factcheckLabels returns the rows with a human faithfulness label.
// Errors: EINVALID for a label other than 0 or 1 or unreadable labels.
func factcheckLabels(rows []analysis.Row) ([]labelled, error) {
	var out []labelled
	for i, r := range rows {
		h, err := analysis.HumanLabels(r.Human)
		if err != nil {
			return nil, kgeval.Wrap(kgeval.EINVALID, err, "sample %s", r.ID)
		}
		v, ok := h[FactcheckLabel]
		if !ok {
			continue
		}
		if v != 0 && v != 1 {
			return nil, kgeval.Errorf(kgeval.EINVALID, "sample %s: human %s %v: want 0 (not supported) or 1 (supported)", r.ID, FactcheckLabel, v)
		}
		out = append(out, labelled{row: i, y: int(v), group: FactcheckGroup(r.ID)})
	}
	return out, nil
}

// FactcheckReport reads rows (the samples of run rec, with the claims of
// the faithfulness pair in Scores[FactcheckPair].Claims when stored) as
// the factcheck report. Errors: EINVALID when no sample has a human
// faithfulness label, when one is not 0 or 1, or when the labels hold a
// single class.
func FactcheckReport(rows []analysis.Row, rec kgeval.Run, variant string, o FactcheckOptions) (Factcheck, error) {
	o = o.withDefaults()
	rep := Factcheck{Run: rec.Name, Variant: variant, Dataset: rec.Dataset, Fingerprint: rec.Fingerprint, LLM: rec.LLM, Encoder: rec.Encoder,
		Extraction: analysis.ExtractionMethod(rec), Engine: rec.KGEngine(), Samples: len(rows), Folds: o.Folds, Lambda: o.Lambda, Rows: []FactcheckRow{}}
	if rec.Settings != nil {
		rep.Verify = rec.Settings.Verify
	}
	labs, err := factcheckLabels(rows)
	if err != nil {
		return rep, err
	}
	rep.Labelled = len(labs)
	groups := map[string]bool{}
	for _, l := range labs {
		rep.Positives += l.y
		groups[l.group] = true
	}
	rep.Groups = len(groups)
	if rep.Labelled == 0 {
		return rep, kgeval.Errorf(kgeval.EINVALID, "run %q: no sample has a human %s label (0 or 1): see testdata/expertqa_claims.jsonl", rec.Name, FactcheckLabel)
	}
	if rep.Positives == 0 || rep.Positives == rep.Labelled {
		return rep, kgeval.Errorf(kgeval.EINVALID, "run %q: every labelled sample has human %s %d: need both 0 and 1", rec.Name, FactcheckLabel, labs[0].y)
	}

	v := analysis.MetricVectors(rows)
	var names []string
	for _, m := range metricreg.KGMetricNames {
		if name := analysis.KGName(FactcheckPair, m); v[name] != nil {
			names = append(names, name)
		}
	}
	if v[metricreg.MetricKPrecision] != nil {
		names = append(names, metricreg.MetricKPrecision)
	}
	names, rep.Empty = v.Present(names)
	for _, name := range names {
		row := FactcheckRow{Name: name, Kind: FactcheckMetric, LowerIsBetter: metricreg.ValidityOf(name).Direction == metricreg.LowerIsBetter}
		var scores []float64
		var ys []int
		var gs []string
		for _, l := range labs {
			if x := v[name][l.row]; x != nil && stats.Finite(*x) {
				scores, ys, gs = append(scores, *x), append(ys, l.y), append(gs, l.group)
			}
		}
		rep.Rows = append(rep.Rows, classify(row, scores, ys, gs, o.Folds))
	}

	crows := factcheckClaims(rows, labs)
	rep.Claims = len(crows)
	present := map[string]bool{}
	for _, c := range crows {
		for k := range c.features {
			present[k] = true
		}
		if c.model {
			rep.WithModel++
		}
		if c.modelError {
			rep.ModelFailed++
		}
	}
	for _, c := range []struct {
		name     string
		features []string
	}{
		{"combination (cv)", kgeval.CalibrationFeatures},
		{"P(supported) alone (cv)", []string{kgeval.FeatureModel}},
		{"graph alone (cv)", kgeval.CalibrationFeaturesNoModel},
		{"overlap alone (claim k_precision, cv)", []string{kgeval.FeatureOverlap}},
	} {
		fs := slices.DeleteFunc(slices.Clone(c.features), func(f string) bool { return !present[f] })
		row := FactcheckRow{Name: c.name, Kind: FactcheckCV, Features: fs}
		switch {
		case len(crows) == 0:
			row.Features = c.features
			row.Reason = fmt.Sprintf("no claim checks stored on the %s pair (a run without the claims stage)", FactcheckPair)
		case len(fs) == 0:
			row.Features = c.features
			row.Reason = fmt.Sprintf("no stored claim has %s", strings.Join(c.features, " or "))
		default:
			row = combine(row, crows, o)
		}
		rep.Rows = append(rep.Rows, row)
	}
	if cal := o.Calibration; cal != nil {
		for _, f := range []struct {
			name string
			fit  *claims.Fit
		}{{"with_model", cal.WithModel}, {"without_model", cal.WithoutModel}} {
			row := FactcheckRow{Name: fmt.Sprintf("calibration %s %s", o.CalibrationName, f.name), Kind: FactcheckFixed}
			if f.fit == nil {
				row.Reason = "the file has no " + f.name + " fit"
				rep.Rows = append(rep.Rows, row)
				continue
			}
			row.Features = f.fit.Names
			rep.Rows = append(rep.Rows, fixedCalibration(row, crows, *f.fit))
		}
	}
	switch {
	case present[kgeval.FeatureModel] || len(crows) == 0:
	case rep.Verify == "prob":
		rep.Notes = append(rep.Notes, fmt.Sprintf("no claim has %s although scoring.verify is prob (%d of %d claims record a failed model question; a cache-only replay refuses the questions its snapshot lacks): the combination is the graph's alone",
			kgeval.FeatureModel, rep.ModelFailed, len(crows)))
	default:
		rep.Notes = append(rep.Notes, fmt.Sprintf("no claim has %s (the run's scoring.verify is %q, not prob): the combination is the graph's alone", kgeval.FeatureModel, rep.Verify))
	}
	rep.Cost = factcheckCost(rec, len(rows), factcheckAllClaims(rows))
	return rep, nil
}

// classify fills row's numbers from scores (one per labelled sample with a
// value), turned round for a lower-is-better score.
func classify(row FactcheckRow, scores []float64, y []int, groups []string, folds int) FactcheckRow {
	row.N = len(scores)
	for _, v := range y {
		row.Positives += v
	}
	if row.LowerIsBetter {
		neg := make([]float64, len(scores))
		for i, s := range scores {
			neg[i] = -s
		}
		scores = neg
	}
	var pos, neg []float64
	for i, s := range scores {
		if y[i] == 1 {
			pos = append(pos, s)
		} else {
			neg = append(neg, s)
		}
	}
	if auc, lo, hi, ok := stats.AUROCInterval(pos, neg, 0.95); ok {
		row.AUROC, row.AUROCLo, row.AUROCHi = stats.Ptr(auc), stats.Ptr(lo), stats.Ptr(hi)
	} else {
		row.Reason = fmt.Sprintf("%d supported and %d unsupported samples with a value: need 2 of each", len(pos), len(neg))
		return row
	}
	cv, err := stats.CVThreshold(scores, y, groups, folds)
	if err != nil {
		row.Reason = err.Error()
		return row
	}
	t := cv.Threshold
	if row.LowerIsBetter {
		t = -t
	}
	row.BalancedAccuracy, row.BALo, row.BAHi, row.Threshold = stats.Ptr(cv.BalancedAccuracy), stats.Ptr(cv.Lo), stats.Ptr(cv.Hi), stats.Ptr(t)
	return row
}

// sampleMeans averages the per-claim predictions p of the claims claims[idx[k]]
// per sample, in sample order, with each sample's label and group.
func sampleMeans(crows []claimRow, idx []int, p []float64) (scores []float64, y []int, groups []string) {
	sum, cnt := map[int]float64{}, map[int]int{}
	var order []int
	for k, i := range idx {
		s := crows[i].sample
		if cnt[s] == 0 {
			order = append(order, s)
		}
		sum[s] += p[k]
		cnt[s]++
	}
	sort.Ints(order)
	label, group := map[int]int{}, map[int]string{}
	for _, c := range crows {
		label[c.sample], group[c.sample] = c.y, c.group
	}
	scores, y, groups = make([]float64, len(order)), make([]int, len(order)), make([]string, len(order))
	for k, s := range order {
		scores[k], y[k], groups[k] = sum[s]/float64(cnt[s]), label[s], group[s]
	}
	return scores, y, groups
}

// fixedCalibration fills a fixed row: fit's model applied to the claims
// that have its features, averaged per sample, read at fit's pass mark.
func fixedCalibration(row FactcheckRow, crows []claimRow, fit claims.Fit) FactcheckRow {
	m := fit.Logistic
	if len(m.Names) == 0 || len(m.Coef) != len(m.Names) || len(m.Mean) != len(m.Names) || len(m.Scale) != len(m.Names) {
		row.Reason = fmt.Sprintf("the calibration's model has %d names, %d coefficients, %d means and %d scales", len(m.Names), len(m.Coef), len(m.Mean), len(m.Scale))
		return row
	}
	x, _, _, idx := claimMatrix(crows, m.Names)
	row.Claims = len(x)
	if len(x) == 0 {
		row.Reason = "no claim has every feature of the calibration"
		return row
	}
	p := make([]float64, len(x))
	for i, v := range x {
		p[i] = m.Predict(v)
	}
	scores, y, groups := sampleMeans(crows, idx, p)
	row.N = len(scores)
	var pos, neg []float64
	for i, s := range scores {
		row.Positives += y[i]
		if y[i] == 1 {
			pos = append(pos, s)
		} else {
			neg = append(neg, s)
		}
	}
	auc, lo, hi, ok := stats.AUROCInterval(pos, neg, 0.95)
	if !ok {
		row.Reason = fmt.Sprintf("%d supported and %d unsupported samples with a value: need 2 of each", len(pos), len(neg))
		return row
	}
	row.AUROC, row.AUROCLo, row.AUROCHi = stats.Ptr(auc), stats.Ptr(lo), stats.Ptr(hi)
	fixed, err := stats.FixedThreshold(scores, y, groups, fit.PassMark)
	if err != nil {
		row.Reason = err.Error()
		return row
	}
	row.BalancedAccuracy, row.BALo, row.BAHi, row.Threshold = stats.Ptr(fixed.BalancedAccuracy), stats.Ptr(fixed.Lo), stats.Ptr(fixed.Hi), stats.Ptr(fit.PassMark)
	return row
}

// claimRow is one stored claim of a labelled sample.
type claimRow struct {
	sample     int // index into the labelled samples
	y          int
	group      string
	features   map[string]float64
	model      bool
	modelError bool
}

// factcheckClaims returns the stored claims of the labelled samples.
func factcheckClaims(rows []analysis.Row, labs []labelled) []claimRow {
	var out []claimRow
	for k, l := range labs {
		for _, c := range rows[l.row].Scores[FactcheckPair].Claims {
			out = append(out, claimRow{sample: k, y: l.y, group: l.group, features: c.Features, model: c.Model != nil, modelError: c.ModelError != ""})
		}
	}
	return out
}

func factcheckAllClaims(rows []analysis.Row) int {
	n := 0
	for _, r := range rows {
		n += len(r.Scores[FactcheckPair].Claims)
	}
	return n
}

// claimMatrix returns the feature vectors (in the order of features) of the
// claims that have every one of them, finite, with their indexes.
func claimMatrix(crows []claimRow, features []string) (x [][]float64, y []int, groups []string, idx []int) {
	for i, c := range crows {
		row := make([]float64, len(features))
		ok := true
		for j, f := range features {
			v, has := c.features[f]
			if !has || !stats.Finite(v) {
				ok = false
				break
			}
			row[j] = v
		}
		if ok {
			x, y, groups, idx = append(x, row), append(y, c.y), append(groups, c.group), append(idx, i)
		}
	}
	return x, y, groups, idx
}

// combine fills a cv row: the out-of-fold logistic predictions of the
// claims that have row.Features, averaged per sample, read as a score.
func combine(row FactcheckRow, crows []claimRow, o FactcheckOptions) FactcheckRow {
	x, y, groups, idx := claimMatrix(crows, row.Features)
	row.Claims = len(x)
	if len(x) == 0 {
		row.Reason = "no claim has every feature"
		return row
	}
	oof, err := stats.CrossValidateSigned(x, y, groups, o.Folds, o.Lambda, signsOf(row.Features))
	if err != nil {
		row.Reason = err.Error()
		return row
	}
	scores, ys, gs := sampleMeans(crows, idx, oof)
	return classify(row, scores, ys, gs, o.Folds)
}

// FactcheckStages are the stages whose seconds the claims cost.
var FactcheckStages = []string{"claims", "verify"}

func factcheckCost(rec kgeval.Run, samples, crows int) FactcheckCost {
	var c FactcheckCost
	if rec.Calls != nil {
		c.Calls, c.CacheHits, c.PromptTokens = rec.Calls.Calls, rec.Calls.CacheHits, rec.Calls.PromptTokens
	}
	c.Stages = []string{}
	for _, s := range FactcheckStages {
		if sec, ok := rec.Stages[s]; ok {
			c.Seconds += sec
			c.Stages = append(c.Stages, s)
		}
	}
	share := func(n int) *CostShare {
		if n == 0 {
			return nil
		}
		d := float64(n)
		return &CostShare{Calls: float64(c.Calls) / d, PromptTokens: float64(c.PromptTokens) / d, Seconds: c.Seconds / d}
	}
	c.PerClaim, c.PerSample = share(crows), share(samples)
	return c
}

// CalibrateOptions are calibrate's settings: the report's, the version of
// kgeval recorded in the file, and Previous, the calibration the file held
// before (nil: none), whose with_model fit is kept when no claim of the
// run has the model's feature.
type CalibrateOptions struct {
	FactcheckOptions
	Kgeval   string
	Previous *claims.Calibration
}

// CalibrateResult is a new calibration and which of its fits were kept
// from Previous rather than fitted.
type CalibrateResult struct {
	claims.Calibration
	Kept []string `json:"kept,omitempty"`
}

// Calibrate fits both logistic models of the claim features on every
// stored claim of the labelled samples of rows that has their features,
// each claim with its sample's label: without_model on
// kgeval.CalibrationFeaturesNoModel, with_model on
// kgeval.CalibrationFeatures; each with its pass mark chosen on the
// out-of-fold predictions (folds by group, FactcheckGroup). When no claim
// has the model's feature, with_model is Previous's (Kept says so).
// Errors: EINVALID for the labels (as FactcheckReport), for a fit without
// claims that have its features (with_model: and no Previous to keep), and
// when a fit fails.
func Calibrate(rows []analysis.Row, rec kgeval.Run, o CalibrateOptions) (CalibrateResult, error) {
	fo := o.FactcheckOptions.withDefaults()
	var out CalibrateResult
	labs, err := factcheckLabels(rows)
	if err != nil {
		return out, err
	}
	crows := factcheckClaims(rows, labs)
	src := claims.Source{Dataset: rec.Dataset, Fingerprint: rec.Fingerprint, Run: rec.Name, LLM: rec.LLM, Encoder: rec.Encoder, Kgeval: o.Kgeval}
	if out.WithoutModel, err = calibrationFit(crows, kgeval.CalibrationFeaturesNoModel, fo, src); err != nil {
		return out, err
	}
	if !slices.ContainsFunc(crows, func(c claimRow) bool { _, ok := c.features[kgeval.FeatureModel]; return ok }) {
		if o.Previous == nil || o.Previous.WithModel == nil {
			return out, kgeval.Errorf(kgeval.EINVALID, "run %q: no claim has %s (the run's scoring.verify is not prob) and there is no earlier with_model fit to keep",
				rec.Name, kgeval.FeatureModel)
		}
		out.WithModel, out.Kept = o.Previous.WithModel, []string{"with_model"}
		return out, nil
	}
	out.WithModel, err = calibrationFit(crows, kgeval.CalibrationFeatures, fo, src)
	return out, err
}

// calibrationFit fits one model on the claims that have features.
func calibrationFit(crows []claimRow, features []string, fo FactcheckOptions, src claims.Source) (*claims.Fit, error) {
	x, y, groups, _ := claimMatrix(crows, features)
	out := &claims.Fit{Folds: fo.Folds, LeftOut: len(crows) - len(x), FittedOn: src}
	out.FittedOn.Claims = len(x)
	if len(x) == 0 {
		return out, kgeval.Errorf(kgeval.EINVALID, "run %q: no claim of a labelled sample has every feature (%s): %d claims stored",
			src.Run, strings.Join(features, ", "), len(crows))
	}
	var err error
	if out.Logistic, err = stats.FitLogisticSigned(x, y, features, fo.Lambda, signsOf(features)); err != nil {
		return out, kgeval.Wrap(kgeval.EINVALID, err, "run %s", src.Run)
	}
	oof, err := stats.CrossValidateSigned(x, y, groups, fo.Folds, fo.Lambda, signsOf(features))
	if err != nil {
		return out, kgeval.Wrap(kgeval.EINVALID, err, "run %s", src.Run)
	}
	var pos, neg []float64
	for i, p := range oof {
		if y[i] == 1 {
			pos = append(pos, p)
		} else {
			neg = append(neg, p)
		}
	}
	auc, lo, hi, ok := stats.AUROCInterval(pos, neg, 0.95)
	if !ok {
		return out, kgeval.Errorf(kgeval.EINVALID, "run %q: %d supported and %d unsupported claims with %s: need 2 of each", src.Run, len(pos), len(neg),
			strings.Join(features, ", "))
	}
	out.CVAUROC, out.CVAUROCCI = auc, [2]float64{lo, hi}
	cv, err := stats.CVThreshold(oof, y, groups, fo.Folds)
	if err != nil {
		return out, kgeval.Wrap(kgeval.EINVALID, err, "run %s", src.Run)
	}
	out.PassMark, out.CVBalancedAccuracy, out.CVBalancedAccuracyCI = cv.Threshold, cv.BalancedAccuracy, [2]float64{cv.Lo, cv.Hi}
	return out, nil
}

// FactcheckSource is what LoadFactcheck reads: the rows and the stored
// claims of each sample's faithfulness pair.
type FactcheckSource interface {
	analysis.ScoreSource
	ReadKGScore(ctx context.Context, run, sample, pair, variant string) (readmodel.StoredScore, error)
}

// LoadFactcheckRows reads a run's record and the rows of a variant, each
// with the claims stored on its faithfulness pair (one read per sample).
// Errors: those of LoadRows.
func LoadFactcheckRows(ctx context.Context, st FactcheckSource, run, variant string) (kgeval.Run, []analysis.Row, error) {
	rec, err := st.GetRun(ctx, run)
	if err != nil {
		return rec, nil, err
	}
	rows, err := analysis.LoadRows(ctx, st, run, variant, false)
	if err != nil {
		return rec, nil, err
	}
	for i, r := range rows {
		s, ok := r.Scores[FactcheckPair]
		if !ok {
			continue
		}
		stored, err := st.ReadKGScore(ctx, run, r.ID, FactcheckPair, variant)
		if kgeval.ErrorCode(err) == kgeval.ENOTFOUND {
			continue
		}
		if err != nil {
			return rec, nil, fmt.Errorf("claims of sample %s: %w", r.ID, err)
		}
		s.Claims = stored.Claims
		rows[i].Scores[FactcheckPair] = s
	}
	return rec, rows, nil
}

// LoadFactcheck reads a run and computes its factcheck report. Errors:
// those of LoadFactcheckRows and FactcheckReport.
func LoadFactcheck(ctx context.Context, st FactcheckSource, run, variant string, o FactcheckOptions) (Factcheck, error) {
	rec, rows, err := LoadFactcheckRows(ctx, st, run, variant)
	if err != nil {
		return Factcheck{Run: run, Variant: variant}, err
	}
	return FactcheckReport(rows, rec, variant, o)
}

// LoadCalibration reads a run and fits its calibration. Errors: those of
// LoadFactcheckRows and Calibrate.
func LoadCalibration(ctx context.Context, st FactcheckSource, run, variant string, o CalibrateOptions) (CalibrateResult, error) {
	rec, rows, err := LoadFactcheckRows(ctx, st, run, variant)
	if err != nil {
		return CalibrateResult{}, err
	}
	return Calibrate(rows, rec, o)
}

// signsOf returns kgeval.FeatureSigns for features, in order.
func signsOf(features []string) []int {
	out := make([]int, len(features))
	for i, f := range features {
		out[i] = kgeval.FeatureSigns[f]
	}
	return out
}
