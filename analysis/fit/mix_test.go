package fit_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/analysis/fit"
	"github.com/kgeval/kgeval/metricreg"
)

// mixSet makes one synthetic dataset of n supported and n unsupported
// one-claim samples: the model's P(supported) separates them by sep (in
// logits, with unit noise), the overlap feature by overlapSep, and the
// atoms feature is noise; contradicted marks every other unsupported
// sample as contradicted (human.contradiction), with a three-way
// P(contradicted) that tells them apart.
func mixSet(name string, n int, sep, overlapSep float64, seed uint64) fit.MixSet {
	r := rand.New(rand.NewPCG(seed, 1))
	var rows []analysis.Row
	for i := range 2 * n {
		y := i % 2
		contra := 0
		if y == 0 && i%4 == 0 {
			contra = 1
		}
		logit := sep*(float64(y)-0.5) + r.NormFloat64()
		p := 1 / (1 + math.Exp(-logit))
		pc := 0.2 + 0.5*float64(contra) + 0.1*r.Float64()
		ov := 0.5 + overlapSep*(float64(y)-0.5) + 0.2*r.NormFloat64()
		ch := kgeval.ClaimCheck{Text: "c", Features: map[string]float64{kgeval.FeatureOverlap: ov, kgeval.FeatureAtoms: r.Float64()},
			Model: &kgeval.ClaimProb{P: p, Forms: map[string]float64{"claim": p, "threeway": p}, Contradicted: &pc}}
		res := kgeval.KGResult{Claims: []kgeval.ClaimCheck{ch}}
		rows = append(rows, analysis.Row{ID: fmt.Sprintf("%s-%d#0", name, i), Human: fmt.Sprintf(`{"faithfulness": %d, "contradiction": %d}`, y, contra),
			Scores:  map[string]kgeval.KGResult{"faithfulness": res.With(metricreg.MetricClaimScore, kgeval.Float(p))},
			Metrics: map[string]kgeval.MetricScore{metricreg.MetricKPrecision: {Value: kgeval.Float(ov)}}})
	}
	return fit.MixSet{Rec: kgeval.Run{Name: name, Dataset: name + ".jsonl"}, Rows: rows}
}

func mixRow(t *testing.T, rep fit.Mix, name string) fit.MixRow {
	t.Helper()
	for _, r := range rep.Rows {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no row %q", name)
	return fit.MixRow{}
}

// TestMixReport checks the leave-one-dataset-out report on synthetic
// datasets where the model's answer separates the labels everywhere and
// overlap only on two of three: the selection keeps the model, the
// headline's macro AUROC is read on held-out datasets, pass marks come
// from the other datasets, and the contradiction rows read the three-way
// answer against human.contradiction.
func TestMixReport(t *testing.T) {
	sets := []fit.MixSet{mixSet("a", 60, 3, 0.6, 1), mixSet("b", 60, 3, 0.6, 2), mixSet("c", 60, 3, -0.6, 3)}
	rep, err := fit.MixReport(sets, fit.MixOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Datasets) != 3 || rep.Datasets[0].Labelled != 120 || rep.Datasets[0].Positives != 60 || rep.Datasets[0].Contradicted != 30 {
		t.Errorf("datasets %+v", rep.Datasets)
	}
	with := mixRow(t, rep, "headline with the model (lodo fit)")
	if with.Macro.AUROC == nil || *with.Macro.AUROC < 0.9 || with.Macro.BalancedAccuracy == nil || *with.Macro.BalancedAccuracy < 0.8 {
		t.Errorf("headline with the model: %+v", with.Macro)
	}
	if !slices.ContainsFunc(with.Features, func(f string) bool { return strings.HasPrefix(f, "model") }) {
		t.Errorf("with-model features %v: no model feature", with.Features)
	}
	if slices.Contains(with.Features, kgeval.FeatureAtoms) {
		t.Errorf("with-model features %v: atoms is noise and must not be chosen", with.Features)
	}
	for i, c := range with.Cells {
		if c.PassMark == nil || c.N != 120 {
			t.Errorf("cell %d: %+v", i, c)
		}
	}
	kp := mixRow(t, rep, metricreg.MetricKPrecision)
	if kp.Cells[2].AUROC == nil || *kp.Cells[2].AUROC > 0.5 || *kp.Cells[0].AUROC < 0.8 {
		t.Errorf("k_precision: %+v", kp.Cells)
	}
	// The macro is the mean of the datasets.
	mean := (*kp.Cells[0].AUROC + *kp.Cells[1].AUROC + *kp.Cells[2].AUROC) / 3
	if math.Abs(mean-*kp.Macro.AUROC) > 1e-12 || *kp.Macro.AUROCLo > mean || *kp.Macro.AUROCHi < mean {
		t.Errorf("macro %+v, mean %v", kp.Macro, mean)
	}
	contra := mixRow(t, rep, "P(contradicted): threeway")
	if contra.Label != "contradiction" || contra.Macro.AUROC == nil || *contra.Macro.AUROC != 1 {
		t.Errorf("contradiction row %+v", contra)
	}
	form := mixRow(t, rep, "P(supported): claim + threeway")
	if form.Requests == nil || *form.Requests != 2 {
		t.Errorf("forms row requests %v", form.Requests)
	}
	if rep.Calibration.WithModel == nil || rep.Calibration.WithoutModel == nil || rep.Calibration.WithModel.Folds != 3 ||
		rep.Calibration.WithModel.CVAUROC != *with.Macro.AUROC {
		t.Errorf("calibration %+v", rep.Calibration)
	}
	if _, err := fit.MixReport(sets[:1], fit.MixOptions{}); kgeval.ErrorCode(err) != kgeval.EINVALID {
		t.Errorf("one dataset: err %v, want EINVALID", err)
	}
}
