package fit

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/scoring/claims"
	"github.com/kgeval/kgeval/stats"
)

// The training mix: several claim-level datasets of different
// kinds, each evaluated as a run of its own (testdata/mix_*.jsonl), read
// together. Every number is measured on a dataset that was not used to
// choose it: a fitted row is fitted on the other datasets (leave one
// dataset out) and read on the one left out; every pass mark, also a
// stored metric's, is the threshold that maximises the mean balanced
// accuracy over the other datasets. The macro mean averages the datasets
// (each counts once, whatever its size); its interval is the normal one
// from the datasets' own (DeLong's for AUROC, the bootstrap's for
// balanced accuracy), as if they were independent.
//
// The calibration's features are chosen the same way: forward selection,
// starting from none, adds the feature whose leave-one-dataset-out macro
// AUROC is highest and stops when the best adds less than MixOptions.MinGain,
// so a feature is kept only if it helps on datasets it was not fitted on.

// Defaults of the mix report.
const (
	MixMinGain = 0.005
)

// MixLambdas are the L2 penalties the mix chooses from when none is given:
// the largest whose with-model selection's leave-one-dataset-out macro
// AUROC is within MixLambdaTolerance of the best. Heavier penalties pull the coefficients
// together, which is what carries over from one dataset to the next.
var MixLambdas = []float64{1, 10, 100, 1000}

// MixLambdaTolerance is how far below the best macro AUROC a stronger
// penalty may rank and still be chosen: the simplest fit that ranks about
// as well. A stronger penalty moves less with the datasets it was fitted on,
// so its pass mark carries over better: on the mix, with pairs, atoms and
// the model, lambda 1 reached macro AUROC 0.785 and BAcc 0.634, lambda 1000
// 0.778 and 0.699 (docs/results/factcheck-mix.txt).
const MixLambdaTolerance = 0.01

// MixSet is one dataset of the mix: a run over it and its rows (with the
// claims of the faithfulness pair, LoadFactcheckRows).
type MixSet struct {
	Rec  kgeval.Run
	Rows []analysis.Row
}

// MixOptions are the mix report's settings (zero values: the defaults).
type MixOptions struct {
	// Lambda is the L2 penalty; 0: chosen from MixLambdas.
	Lambda float64
	// MarkRule chooses the calibration's pass marks (MarkRules; empty:
	// MarkMedian).
	MarkRule string
	MinGain  float64
	// Kgeval is the version recorded in the calibration's fitted_on.
	Kgeval string
}

// MixCell is one score read on one dataset (or the macro mean over them).
type MixCell struct {
	N         int      `json:"n"`
	Positives int      `json:"positives"`
	AUROC     *float64 `json:"auroc"`
	AUROCLo   *float64 `json:"auroc_lo"`
	AUROCHi   *float64 `json:"auroc_hi"`
	// BalancedAccuracy is at PassMark, chosen on the other datasets.
	BalancedAccuracy *float64 `json:"balanced_accuracy"`
	BALo             *float64 `json:"balanced_accuracy_lo"`
	BAHi             *float64 `json:"balanced_accuracy_hi"`
	PassMark         *float64 `json:"pass_mark"`
	Reason           string   `json:"reason,omitempty"`
}

// Kinds of mix rows.
const (
	MixMetric = "metric" // a stored score of the runs
	MixForm   = "form"   // the model's P of some question forms, averaged
	MixLODO   = "lodo"   // a logistic fit on the other datasets
)

// MixRow is one score read on every dataset of the mix.
type MixRow struct {
	Name     string   `json:"name"`
	Kind     string   `json:"kind"`
	Features []string `json:"features,omitempty"`
	// Label is the human label the row is read against: faithfulness (1
	// supported) or contradiction (1 contradicted).
	Label string `json:"label"`
	// Requests is the model requests per claim the score needs (nil: as
	// the runs asked them).
	Requests *float64 `json:"requests"`
	// TokensPerSample is the model's prompt tokens per sample the asked
	// claims cost (their three-way form's), when counted.
	TokensPerSample *float64 `json:"tokens_per_sample,omitempty"`
	// MarkRule is how the row's pass marks were chosen (transferRow);
	// empty: the mean rule on the other datasets' in-sample scores.
	MarkRule string `json:"mark_rule,omitempty"`
	// On names the datasets of Cells when they are not every dataset of
	// the report (the contradiction rows: the datasets that label it).
	On            []string  `json:"on,omitempty"`
	LowerIsBetter bool      `json:"lower_is_better,omitempty"`
	Cells         []MixCell `json:"cells"`
	Macro         MixCell   `json:"macro"`
}

// MixDataset describes one dataset of the report.
type MixDataset struct {
	Name    string `json:"name"`
	Run     string `json:"run"`
	Dataset string `json:"dataset"`
	// Engine is the engine that scored the run's KG metrics and its
	// community mode (kgeval.Run.KGEngine).
	Engine    string `json:"engine"`
	Samples   int    `json:"samples"`
	Labelled  int    `json:"labelled"`
	Positives int    `json:"positives"`
	Claims    int    `json:"claims"`
	WithModel int    `json:"claims_with_model"`
	// Contradiction counts the samples with a human contradiction label,
	// Contradicted those labelled 1.
	Contradiction int `json:"contradiction_labelled"`
	Contradicted  int `json:"contradicted"`
	// MultiChunk counts the claims whose evidence took more than one
	// request (chunks).
	MultiChunk int `json:"multi_chunk"`
}

// MixStep is one step of the forward selection.
type MixStep struct {
	Added      string  `json:"added"`
	MacroAUROC float64 `json:"macro_auroc"`
	MacroBA    float64 `json:"macro_balanced_accuracy"`
}

// Mix is the report of `kgeval factcheck` over several runs, and the
// calibration `kgeval calibrate` fits on them.
type Mix struct {
	Datasets []MixDataset `json:"datasets"`
	Rows     []MixRow     `json:"rows"`
	// SelectionWithModel and SelectionWithoutModel trace the forward
	// selection of each fit's features.
	SelectionWithModel    []MixStep          `json:"selection_with_model"`
	SelectionWithoutModel []MixStep          `json:"selection_without_model"`
	Calibration           claims.Calibration `json:"calibration"`
	Lambda                float64            `json:"lambda"`
	// LambdaGrid is each penalty tried (when none was given) with its
	// with-model selection's macro AUROC.
	LambdaGrid []MixStep `json:"lambda_grid,omitempty"`
	MinGain    float64   `json:"min_gain"`
	Notes      []string  `json:"notes,omitempty"`
}

// mixClaim is one stored claim of a labelled sample of one dataset.
type mixClaim struct {
	sample   int // index into the dataset's labelled samples
	features map[string]float64
	forms    map[string]float64
	contra   *float64
	unknown  *float64
	// tokens is the prompt tokens of the model's three-way question
	// about the claim (asked or read from the cache).
	tokens int
}

// mixData is one dataset's labelled samples and claims.
type mixData struct {
	name   string
	labs   []labelled
	claims []mixClaim
	// contra[k] is sample k's human contradiction label, -1 without one.
	contra []int
}

// MixReport reads the datasets of sets as the mix report and fits the
// calibration on all of them. Errors: EINVALID with fewer than two
// datasets, for a dataset's labels (as FactcheckReport), and when a fit
// fails.
func MixReport(sets []MixSet, o MixOptions) (Mix, error) {
	if o.MinGain == 0 {
		o.MinGain = MixMinGain
	}
	rep := Mix{Lambda: o.Lambda, MinGain: o.MinGain}
	if len(sets) < 2 {
		return rep, kgeval.Errorf(kgeval.EINVALID, "the mix needs at least two runs (datasets) to leave one out: got %d", len(sets))
	}
	data := make([]mixData, len(sets))
	for i, s := range sets {
		d, ds, err := readMixData(s)
		if err != nil {
			return rep, err
		}
		data[i] = d
		rep.Datasets = append(rep.Datasets, ds)
	}
	rep.Rows = append(rep.Rows, mixMetricRows(sets, data)...)
	rep.Rows = append(rep.Rows, mixFormRows(data)...)

	present := map[string]bool{}
	for _, d := range data {
		for _, c := range d.claims {
			for f := range c.features {
				present[f] = true
			}
		}
	}
	if o.Lambda == 0 {
		o.Lambda, rep.LambdaGrid = chooseLambda(data, present, o)
		rep.Lambda = o.Lambda
	}
	// The model's features are each form's own: model_logit, the mean
	// over the forms a run asked, would mean another thing under another
	// scoring.verify_forms.
	var model, noModel []string
	for _, f := range kgeval.KnownFeatures {
		if !present[f] || f == kgeval.FeatureModel {
			continue
		}
		if slices.Contains(kgeval.ModelFeatures, f) {
			model = append(model, f)
		} else {
			noModel = append(noModel, f)
		}
	}
	noSel := forwardSelect(data, noModel, o)
	if len(noSel) == 0 && len(noModel) > 0 {
		best := bestSingle(data, noModel, o)
		rep.Notes = append(rep.Notes, fmt.Sprintf("no graph feature raises the leave-one-dataset-out macro AUROC above 0.5 by %g: the fit without the model keeps the best alone, %s", o.MinGain, best))
		noSel = forwardSelectFrom(data, []string{best}, nil, o)
	}
	rep.SelectionWithoutModel = noSel
	rep.Rows = append(rep.Rows, lodoRow("headline without the model (lodo fit)", data, stepFeatures(noSel), o))
	rep.Rows = append(rep.Rows, lodoRow("all graph features (lodo fit)", data, noModel, o))
	var src claims.Source
	src.Kgeval = o.Kgeval
	for _, s := range sets {
		src.Run = strings.TrimPrefix(src.Run+","+s.Rec.Name, ",")
		src.Dataset = strings.TrimPrefix(src.Dataset+","+s.Rec.Dataset, ",")
		src.LLM, src.Encoder = s.Rec.LLM, s.Rec.Encoder
	}
	var err error
	if rep.Calibration.WithoutModel, err = mixFit(data, stepFeatures(noSel), o, src); err != nil {
		return rep, err
	}
	if len(model) > 0 {
		sel := forwardSelect(data, append(slices.Clone(model), noModel...), o)
		if !slices.ContainsFunc(stepFeatures(sel), func(f string) bool { return slices.Contains(kgeval.ModelFeatures, f) }) {
			// The model must be in the with-model fit: its best feature first.
			sel = forwardSelectFrom(data, []string{bestSingle(data, model, o)}, append(slices.Clone(model), noModel...), o)
		}
		rep.SelectionWithModel = sel
		rep.Rows = append(rep.Rows, lodoRow("headline with the model (lodo fit)", data, stepFeatures(sel), o))
		rep.Rows = append(rep.Rows, lodoRow("every feature (lodo fit)", data, append(slices.Clone(model), noModel...), o))
		if rep.Calibration.WithModel, err = mixFit(data, stepFeatures(sel), o, src); err != nil {
			return rep, err
		}
		if rep.Calibration.Cascade, _, err = mixCascade(data, stepFeatures(noSel), stepFeatures(sel), o, o.markRule()); err != nil {
			return rep, err
		}
		rep.Rows = append(rep.Rows, transferRows(data, stepFeatures(noSel), stepFeatures(sel), o)...)
	} else {
		rep.Notes = append(rep.Notes, "no claim has the model's answer (the runs' scoring.verify is not prob, or a replay lacked the snapshot): no with_model fit")
	}
	rep.Rows = append(rep.Rows, mixContradictionRows(data)...)
	return rep, nil
}

// chooseLambda is the largest penalty of MixLambdas whose with-model
// forward selection reaches a leave-one-dataset-out macro AUROC within
// MixLambdaTolerance of the best (the features present), with the AUROC of
// each.
func chooseLambda(data []mixData, present map[string]bool, o MixOptions) (float64, []MixStep) {
	var cands []string
	for _, f := range kgeval.KnownFeatures {
		if present[f] && f != kgeval.FeatureModel {
			cands = append(cands, f)
		}
	}
	var grid []MixStep
	for _, l := range MixLambdas {
		lo := o
		lo.Lambda = l
		steps := forwardSelect(data, cands, lo)
		auc, ba := 0.0, 0.0
		if len(steps) > 0 {
			auc, ba = steps[len(steps)-1].MacroAUROC, steps[len(steps)-1].MacroBA
		}
		grid = append(grid, MixStep{Added: fmt.Sprintf("lambda %g", l), MacroAUROC: auc, MacroBA: ba})
	}
	bestAUC := -1.0
	for _, s := range grid {
		bestAUC = max(bestAUC, s.MacroAUROC)
	}
	best := MixLambdas[0]
	for i, s := range grid {
		if s.MacroAUROC >= bestAUC-MixLambdaTolerance-1e-12 {
			best = MixLambdas[i]
		}
	}
	return best, grid
}

// readMixData reads one set's labelled samples and claims.
func readMixData(s MixSet) (mixData, MixDataset, error) {
	d := mixData{name: s.Rec.Name}
	ds := MixDataset{Name: s.Rec.Name, Run: s.Rec.Name, Dataset: s.Rec.Dataset, Engine: s.Rec.KGEngine(), Samples: len(s.Rows)}
	labs, err := factcheckLabels(s.Rows)
	if err != nil {
		return d, ds, err
	}
	d.labs = labs
	ds.Labelled = len(labs)
	for k, l := range labs {
		ds.Positives += l.y
		h, _ := analysis.HumanLabels(s.Rows[l.row].Human)
		c := -1
		if v, ok := h["contradiction"]; ok && (v == 0 || v == 1) {
			c = int(v)
			ds.Contradiction++
			ds.Contradicted += c
		}
		d.contra = append(d.contra, c)
		for _, ch := range s.Rows[l.row].Scores[FactcheckPair].Claims {
			mc := mixClaim{sample: k, features: maps.Clone(ch.Features)}
			if mc.features == nil {
				mc.features = map[string]float64{}
			}
			if ch.Model != nil {
				maps.Copy(mc.features, claims.ModelFeatures(*ch.Model))
				mc.forms, mc.contra, mc.unknown = ch.Model.Forms, ch.Model.Contradicted, ch.Model.NotStated
				mc.tokens = ch.Model.FormTokens["threeway"]
				if len(mc.forms) == 0 {
					mc.forms = map[string]float64{"claim": ch.Model.P}
				}
				ds.WithModel++
				if ch.Model.Chunks > 1 {
					ds.MultiChunk++
				}
			}
			d.claims = append(d.claims, mc)
			ds.Claims++
		}
	}
	if ds.Labelled == 0 || ds.Positives == 0 || ds.Positives == ds.Labelled {
		return d, ds, kgeval.Errorf(kgeval.EINVALID, "run %q: %d labelled samples, %d of them supported: need both labels", s.Rec.Name, ds.Labelled, ds.Positives)
	}
	return d, ds, nil
}

// scored is one dataset's sample scores with their labels and groups.
type scored struct {
	scores []float64
	y      []int
	groups []string
}

// mixMetricRows reads the stored scores: the faithfulness KG metrics with
// a value on every dataset, and k_precision.
func mixMetricRows(sets []MixSet, data []mixData) []MixRow {
	var names []string
	vecs := make([]analysis.Vectors, len(sets))
	for i, s := range sets {
		vecs[i] = analysis.MetricVectors(s.Rows)
	}
	for _, m := range append(slices.Clone(metricreg.KGMetricNames), metricreg.MetricKPrecision) {
		name := analysis.KGName(FactcheckPair, m)
		if m == metricreg.MetricKPrecision {
			name = m
		}
		if slices.ContainsFunc(vecs, func(v analysis.Vectors) bool { return v[name] == nil }) {
			continue
		}
		names = append(names, name)
	}
	var out []MixRow
	for _, name := range names {
		lower := metricreg.ValidityOf(name).Direction == metricreg.LowerIsBetter
		per := make([]scored, len(data))
		for i, d := range data {
			for _, l := range d.labs {
				if x := vecs[i][name][l.row]; x != nil && stats.Finite(*x) {
					v := *x
					if lower {
						v = -v
					}
					per[i].scores, per[i].y, per[i].groups = append(per[i].scores, v), append(per[i].y, l.y), append(per[i].groups, l.group)
				}
			}
		}
		row := MixRow{Name: name, Kind: MixMetric, Label: FactcheckLabel, LowerIsBetter: lower, Requests: stats.Ptr(0)}
		if strings.HasSuffix(name, "."+metricreg.MetricPSupported) || strings.HasSuffix(name, ".score") || strings.HasSuffix(name, ".score_min") ||
			strings.HasSuffix(name, "."+metricreg.MetricClaimContradiction) {
			row.Requests = nil // as the runs asked
		}
		out = append(out, readRow(row, per))
	}
	return out
}

// mixFormRows reads the model's P of each question form, and of the
// forms averaged, per sample the mean over its claims.
func mixFormRows(data []mixData) []MixRow {
	asked := map[string]bool{}
	for _, d := range data {
		for _, c := range d.claims {
			for f := range c.forms {
				asked[f] = true
			}
		}
	}
	forms := slices.DeleteFunc(slices.Clone(kgeval.ClaimForms), func(f string) bool { return !asked[f] })
	var combos [][]string
	for _, f := range forms {
		combos = append(combos, []string{f})
	}
	for i := range forms {
		for j := i + 1; j < len(forms); j++ {
			combos = append(combos, []string{forms[i], forms[j]})
		}
	}
	if len(forms) == 3 {
		combos = append(combos, forms)
	}
	var out []MixRow
	for _, combo := range combos {
		per := make([]scored, len(data))
		requests, claimsN := 0.0, 0
		for i, d := range data {
			per[i] = sampleScores(d, func(c mixClaim) (float64, bool) {
				sum := 0.0
				for _, f := range combo {
					v, ok := c.forms[f]
					if !ok {
						return 0, false
					}
					sum += v
				}
				return sum / float64(len(combo)), true
			})
			for _, c := range d.claims {
				if c.forms == nil {
					continue
				}
				claimsN++
				for _, f := range combo {
					if f == "context" && c.forms["context"] == c.forms["claim"] && slices.Contains(combo, "claim") {
						continue // no context to add: the claim form's answer stood for it
					}
					requests++
				}
			}
		}
		row := MixRow{Name: "P(supported): " + strings.Join(combo, " + "), Kind: MixForm, Label: FactcheckLabel}
		if claimsN > 0 {
			row.Requests = stats.Ptr(requests / float64(claimsN))
		}
		out = append(out, readRow(row, per))
	}
	return out
}

// sampleScores averages value over each labelled sample's claims that have
// it; samples without any are left out.
func sampleScores(d mixData, value func(mixClaim) (float64, bool)) scored {
	sum := make([]float64, len(d.labs))
	cnt := make([]int, len(d.labs))
	for _, c := range d.claims {
		if v, ok := value(c); ok && stats.Finite(v) {
			sum[c.sample] += v
			cnt[c.sample]++
		}
	}
	var s scored
	for k, l := range d.labs {
		if cnt[k] > 0 {
			s.scores, s.y, s.groups = append(s.scores, sum[k]/float64(cnt[k])), append(s.y, l.y), append(s.groups, l.group)
		}
	}
	return s
}

// readRow fills a row's cells from each dataset's scores: AUROC, and the
// balanced accuracy at the pass mark chosen on the other datasets.
func readRow(row MixRow, per []scored) MixRow {
	row.Cells = make([]MixCell, len(per))
	for i := range per {
		var others []scored
		for j := range per {
			if j != i {
				others = append(others, per[j])
			}
		}
		pass, ok := macroThreshold(others)
		row.Cells[i] = readCell(per[i], pass, ok, row.LowerIsBetter)
	}
	row.Macro = macroCell(row.Cells)
	return row
}

// readCell is one dataset's cell: AUROC with DeLong's interval, balanced
// accuracy at pass (when ok) with the bootstrap's over groups.
func readCell(s scored, pass float64, ok, lower bool) MixCell {
	var c MixCell
	c.N = len(s.scores)
	pos, neg := s.split()
	c.Positives = len(pos)
	auc, lo, hi, aok := stats.AUROCInterval(pos, neg, 0.95)
	if !aok {
		c.Reason = fmt.Sprintf("%d positive and %d negative samples with a value: need 2 of each", len(pos), len(neg))
		return c
	}
	c.AUROC, c.AUROCLo, c.AUROCHi = stats.Ptr(auc), stats.Ptr(lo), stats.Ptr(hi)
	if !ok {
		return c
	}
	fixed, err := stats.FixedThreshold(s.scores, s.y, s.groups, pass)
	if err != nil {
		c.Reason = err.Error()
		return c
	}
	mark := pass
	if lower {
		mark = -pass
	}
	c.BalancedAccuracy, c.BALo, c.BAHi, c.PassMark = stats.Ptr(fixed.BalancedAccuracy), stats.Ptr(fixed.Lo), stats.Ptr(fixed.Hi), stats.Ptr(mark)
	return c
}

// macroThreshold is the threshold that maximises the mean balanced
// accuracy over the datasets in per (each counts once): chooseMark with
// MarkMean. ok is false when no dataset has both labels.
func macroThreshold(per []scored) (float64, bool) { return chooseMark(per, MarkMean) }

func hasBoth(y []int) bool { return slices.Contains(y, 0) && slices.Contains(y, 1) }

// macroCell averages the datasets' cells that have a value; the interval
// is the mean ± 1.96 times the root of the summed variances (each read off
// its own 95% interval) over the datasets' count.
func macroCell(cells []MixCell) MixCell {
	var m MixCell
	avg := func(get func(MixCell) (v, lo, hi *float64)) (mean, lo, hi *float64) {
		sum, varSum, n := 0.0, 0.0, 0
		for _, c := range cells {
			v, l, h := get(c)
			if v == nil {
				return nil, nil, nil // a dataset without it: no macro
			}
			sum += *v
			if l != nil && h != nil {
				se := (*h - *l) / (2 * 1.96)
				varSum += se * se
			}
			n++
		}
		if n == 0 {
			return nil, nil, nil
		}
		mean = stats.Ptr(sum / float64(n))
		half := 1.96 * math.Sqrt(varSum) / float64(n)
		return mean, stats.Ptr(*mean - half), stats.Ptr(*mean + half)
	}
	for _, c := range cells {
		m.N += c.N
		m.Positives += c.Positives
	}
	m.AUROC, m.AUROCLo, m.AUROCHi = avg(func(c MixCell) (*float64, *float64, *float64) { return c.AUROC, c.AUROCLo, c.AUROCHi })
	m.BalancedAccuracy, m.BALo, m.BAHi = avg(func(c MixCell) (*float64, *float64, *float64) { return c.BalancedAccuracy, c.BALo, c.BAHi })
	return m
}

// lodo fits features on all datasets but one and predicts the one left
// out, for each in turn: each dataset's sample scores (the mean of its
// claims' predictions) and the pass mark chosen on the other datasets'
// in-sample scores.
func lodo(data []mixData, features []string, o MixOptions) (per []scored, marks []float64, err error) {
	per, marks = make([]scored, len(data)), make([]float64, len(data))
	for i := range data {
		var train []mixData
		for j := range data {
			if j != i {
				train = append(train, data[j])
			}
		}
		m, err := fitOn(train, features, o)
		if err != nil {
			return nil, nil, err
		}
		var ins []scored
		for _, d := range train {
			ins = append(ins, predictSamples(d, m))
		}
		mark, _ := macroThreshold(ins)
		per[i], marks[i] = predictSamples(data[i], m), mark
	}
	return per, marks, nil
}

// fitOn fits the sign-constrained logistic model of features on the claims
// of the datasets that have every feature, each claim with its sample's
// label.
func fitOn(ds []mixData, features []string, o MixOptions) (stats.Logistic, error) {
	var x [][]float64
	var y []int
	for _, d := range ds {
		for _, c := range d.claims {
			if row, ok := featureRow(c, features); ok {
				x, y = append(x, row), append(y, d.labs[c.sample].y)
			}
		}
	}
	if len(x) == 0 {
		return stats.Logistic{}, kgeval.Errorf(kgeval.EINVALID, "no claim has every feature of %v", features)
	}
	return stats.FitLogisticSigned(x, y, features, o.Lambda, signsOf(features))
}

func featureRow(c mixClaim, features []string) ([]float64, bool) {
	row := make([]float64, len(features))
	for j, f := range features {
		v, ok := c.features[f]
		if !ok || !stats.Finite(v) {
			return nil, false
		}
		row[j] = v
	}
	return row, true
}

// predictSamples is d's sample scores under model m: each sample's mean
// claim prediction (claims without every feature left out).
func predictSamples(d mixData, m stats.Logistic) scored {
	return sampleScores(d, func(c mixClaim) (float64, bool) {
		row, ok := featureRow(c, m.Names)
		if !ok {
			return 0, false
		}
		return m.Predict(row), true
	})
}

// lodoRow is the row of a leave-one-dataset-out fit of features.
func lodoRow(name string, data []mixData, features []string, o MixOptions) MixRow {
	row := MixRow{Name: name, Kind: MixLODO, Features: features, Label: FactcheckLabel, Requests: stats.Ptr(0)}
	for _, f := range features {
		if slices.Contains(kgeval.ModelFeatures, f) {
			row.Requests = nil
		}
	}
	if len(features) == 0 {
		row.Cells = make([]MixCell, len(data))
		for i := range row.Cells {
			row.Cells[i].Reason = "no feature chosen"
		}
		return row
	}
	per, marks, err := lodo(data, features, o)
	if err != nil {
		row.Cells = make([]MixCell, len(data))
		for i := range row.Cells {
			row.Cells[i].Reason = err.Error()
		}
		return row
	}
	row.Cells = make([]MixCell, len(data))
	for i := range per {
		row.Cells[i] = readCell(per[i], marks[i], true, false)
	}
	row.Macro = macroCell(row.Cells)
	return row
}

// macroAUROC is the leave-one-dataset-out macro AUROC and balanced
// accuracy of features (0 when a fit fails).
func macroAUROC(data []mixData, features []string, o MixOptions) (auc, ba float64) {
	row := lodoRow("", data, features, o)
	if row.Macro.AUROC == nil {
		return 0, 0
	}
	if row.Macro.BalancedAccuracy != nil {
		ba = *row.Macro.BalancedAccuracy
	}
	return *row.Macro.AUROC, ba
}

// forwardSelect chooses features from cands by forward selection on the
// leave-one-dataset-out macro AUROC.
func forwardSelect(data []mixData, cands []string, o MixOptions) []MixStep {
	return forwardSelectFrom(data, nil, cands, o)
}

// forwardSelectFrom is forwardSelect starting with the features of start.
func forwardSelectFrom(data []mixData, start, cands []string, o MixOptions) []MixStep {
	var steps []MixStep
	chosen := []string{}
	best := 0.5
	for _, f := range start {
		chosen = append(chosen, f)
		auc, ba := macroAUROC(data, chosen, o)
		steps = append(steps, MixStep{Added: f, MacroAUROC: auc, MacroBA: ba})
		best = auc
	}
	for {
		var bestF string
		bestAUC, bestBA := best, 0.0
		for _, f := range cands {
			if slices.Contains(chosen, f) {
				continue
			}
			auc, ba := macroAUROC(data, append(slices.Clone(chosen), f), o)
			if auc > bestAUC+1e-12 {
				bestF, bestAUC, bestBA = f, auc, ba
			}
		}
		if bestF == "" || bestAUC-best < o.MinGain {
			return steps
		}
		chosen = append(chosen, bestF)
		best = bestAUC
		steps = append(steps, MixStep{Added: bestF, MacroAUROC: bestAUC, MacroBA: bestBA})
	}
}

// bestSingle is the feature of cands with the best macro AUROC alone.
func bestSingle(data []mixData, cands []string, o MixOptions) string {
	best, bestAUC := cands[0], -1.0
	for _, f := range cands {
		if auc, _ := macroAUROC(data, []string{f}, o); auc > bestAUC {
			best, bestAUC = f, auc
		}
	}
	return best
}

func stepFeatures(steps []MixStep) []string {
	out := []string{}
	for _, s := range steps {
		out = append(out, s.Added)
	}
	return out
}

// mixFit fits features on every dataset, with the pass mark chosen by
// o.MarkRule on the datasets' held-out predictions, and records the nested
// leave-one-dataset-out macro AUROC and balanced accuracy (transferRow) as
// its cross-validated ones (Folds: the datasets).
func mixFit(data []mixData, features []string, o MixOptions, src claims.Source) (*claims.Fit, error) {
	if len(features) == 0 {
		return nil, kgeval.Errorf(kgeval.EINVALID, "the forward selection chose no feature: no feature helps on a dataset it was not fitted on")
	}
	m, err := fitOn(data, features, o)
	if err != nil {
		return nil, err
	}
	if m, err = rescale(data, m); err != nil {
		return nil, err
	}
	claimsN := 0
	for _, d := range data {
		for _, c := range d.claims {
			if _, ok := featureRow(c, features); ok {
				claimsN++
			}
		}
	}
	rule := o.markRule()
	build := featureBuilder(features, o)
	mark, spread, err := finalMark(data, build, rule)
	if err != nil {
		return nil, err
	}
	out := &claims.Fit{Logistic: m, PassMark: mark, MarkRule: rule, BARange: spread, Folds: len(data), FittedOn: src}
	out.FittedOn.Claims = claimsN
	row := transferRow("", data, build, features, rule)
	if row.Macro.AUROC != nil {
		out.CVAUROC, out.CVAUROCCI = *row.Macro.AUROC, [2]float64{*row.Macro.AUROCLo, *row.Macro.AUROCHi}
	}
	if row.Macro.BalancedAccuracy != nil {
		out.CVBalancedAccuracy, out.CVBalancedAccuracyCI = *row.Macro.BalancedAccuracy, [2]float64{*row.Macro.BALo, *row.Macro.BAHi}
	}
	return out, nil
}

// markRule is o.MarkRule, MarkMedian when unset.
func (o MixOptions) markRule() string {
	if o.MarkRule == "" {
		return MarkMedian
	}
	return o.MarkRule
}

// rescale makes m's probabilities calibrated again after a heavy penalty
// shrank its coefficients towards 0 (every prediction near ½): a
// one-feature logistic fit (λ 1) of the labels on m's linear predictor,
// folded into m's intercept and coefficients. The order of the claims, and
// so every AUROC, is unchanged.
func rescale(data []mixData, m stats.Logistic) (stats.Logistic, error) {
	var x [][]float64
	var y []int
	for _, d := range data {
		for _, c := range d.claims {
			if row, ok := featureRow(c, m.Names); ok {
				p := m.Predict(row)
				x, y = append(x, []float64{claims.Logit(p)}), append(y, d.labs[c.sample].y)
			}
		}
	}
	s, err := stats.FitLogisticSigned(x, y, []string{"score"}, FactcheckLambda, []int{1})
	if err != nil {
		return m, err
	}
	// σ(a + b·(lp − μ)/σ) with lp = Intercept + Σ Coef·z.
	b := s.Coef[0] / s.Scale[0]
	out := m
	out.Coef = make([]float64, len(m.Coef))
	for j, c := range m.Coef {
		out.Coef[j] = b * c
	}
	out.Intercept = s.Intercept + b*(m.Intercept-s.Mean[0])
	return out, nil
}

// mixContradictionRows read the contradiction signals against the human
// contradiction label, on the datasets that have it: the literal conflict,
// recombined words (claims.Recombined), the three-way form's
// P(contradicted), and each with the conflict (a conflict counts 1).
func mixContradictionRows(data []mixData) []MixRow {
	if !slices.ContainsFunc(data, func(d mixData) bool { return slices.ContainsFunc(d.contra, func(c int) bool { return c >= 0 }) }) {
		return nil
	}
	var keep []mixData
	for _, d := range data {
		if slices.ContainsFunc(d.contra, func(c int) bool { return c == 1 }) && slices.ContainsFunc(d.contra, func(c int) bool { return c == 0 }) {
			keep = append(keep, d)
		}
	}
	signals := []struct {
		name     string
		requests float64
		value    func(mixClaim) (float64, bool)
	}{
		{"literal conflict", 0, func(c mixClaim) (float64, bool) { return c.features[kgeval.FeatureConflict], true }},
		{"P(contradicted): threeway", 1, func(c mixClaim) (float64, bool) {
			if c.contra == nil {
				return 0, false
			}
			return *c.contra, true
		}},
		{"recombined: overlap x (1 - pairs)", 0, func(c mixClaim) (float64, bool) {
			return claims.Recombined(c.features), true
		}},
		{"claim_contradiction (conflict, else recombined)", 0, func(c mixClaim) (float64, bool) {
			if c.features[kgeval.FeatureConflict] > 0 {
				return 1, true
			}
			return claims.Recombined(c.features), true
		}},
		{"conflict, else P(contradicted)", 1, func(c mixClaim) (float64, bool) {
			if c.features[kgeval.FeatureConflict] > 0 {
				return 1, true
			}
			if c.contra == nil {
				return 0, false
			}
			return *c.contra, true
		}},
		{"P(No | not Yes): threeway, No over No + Unknown", 1, func(c mixClaim) (float64, bool) {
			if c.contra == nil || c.unknown == nil || *c.contra+*c.unknown <= 0 {
				return 0, false
			}
			return *c.contra / (*c.contra + *c.unknown), true
		}},
		{"1 - P(supported): claim", 1, func(c mixClaim) (float64, bool) {
			v, ok := c.forms["claim"]
			return 1 - v, ok
		}},
	}
	var out []MixRow
	for _, sig := range signals {
		per := make([]scored, len(keep))
		for i, d := range keep {
			// The contradiction label stands for y; samples without it are left out.
			relabelled := d
			relabelled.labs = make([]labelled, len(d.labs))
			for k, l := range d.labs {
				relabelled.labs[k] = labelled{row: l.row, y: d.contra[k], group: l.group}
			}
			s := sampleScores(relabelled, sig.value)
			var f scored
			for k := range s.scores {
				if s.y[k] >= 0 {
					f.scores, f.y, f.groups = append(f.scores, s.scores[k]), append(f.y, s.y[k]), append(f.groups, s.groups[k])
				}
			}
			per[i] = f
		}
		row := MixRow{Name: sig.name, Kind: MixMetric, Label: "contradiction", Requests: stats.Ptr(sig.requests)}
		for _, d := range keep {
			row.On = append(row.On, d.name)
		}
		out = append(out, readRow(row, per))
	}
	return out
}

// LoadMix reads each run (LoadFactcheckRows) and computes the mix report.
func LoadMix(ctx context.Context, st FactcheckSource, runs []string, variant string, o MixOptions) (Mix, error) {
	var sets []MixSet
	for _, run := range runs {
		rec, rows, err := LoadFactcheckRows(ctx, st, run, variant)
		if err != nil {
			return Mix{}, fmt.Errorf("run %s: %w", run, err)
		}
		sets = append(sets, MixSet{Rec: rec, Rows: rows})
	}
	return MixReport(sets, o)
}
