package fit_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/analysis/analysistest"
	"github.com/kgeval/kgeval/analysis/fit"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/scoring/claims"
	"github.com/kgeval/kgeval/stats"
)

// fcClaim is a claim check with the six calibration features, in the order
// of kgeval.CalibrationFeatures (model_logit, overlap, atoms, support,
// reach, conflict); a nil model leaves model_logit out.
func fcClaim(model *float64, overlap, atoms, support, reach, conflict float64) kgeval.ClaimCheck {
	c := kgeval.ClaimCheck{Features: map[string]float64{kgeval.FeatureOverlap: overlap, kgeval.FeatureAtoms: atoms,
		kgeval.FeatureSupport: support, kgeval.FeatureReach: reach, kgeval.FeatureConflict: conflict}}
	if model != nil {
		c.Features[kgeval.FeatureModel] = *model
		c.Model = &kgeval.ClaimProb{P: 0.5}
	}
	return c
}

// fcRow is one claim sample: its human label (nil: none; JSON text),
// faithfulness.score and claim_contradiction, k_precision and claims.
func fcRow(id, human string, score, contra, kp *float64, claims ...kgeval.ClaimCheck) analysis.Row {
	r := analysis.Row{ID: id, System: "s", Question: id, Human: human,
		Scores: map[string]kgeval.KGResult{"faithfulness": kgeval.KGResult{Sample: id, Pair: "faithfulness",
			Reason: "hand-made", Claims: claims}.With(metricreg.MetricClaimScore, score).With(metricreg.MetricClaimContradiction, contra)},
		Metrics: map[string]kgeval.MetricScore{metricreg.MetricKPrecision: {Metric: metricreg.MetricKPrecision, Value: kp}}}
	return r
}

const (
	yes = `{"faithfulness": 1}`
	no  = `{"faithfulness": 0}`
)

// fcRows are 11 hand-made claim samples of 10 ExpertQA-like records
// (r04#0 and r04#1 share one), 5 supported, 5 not, one without a label.
func fcRows() []analysis.Row {
	return []analysis.Row{
		fcRow("r01#0", yes, f(0.9), f(0), f(0.8), fcClaim(f(2), 0.9, 1, 1, 1, 0)),
		fcRow("r02#0", yes, f(0.8), f(0), f(0.7), fcClaim(f(1.5), 0.8, 1, 0.5, 1, 0)),
		fcRow("r03#0", yes, f(0.7), f(0), f(0.9), fcClaim(f(1), 0.6, 1, 0.5, 0.5, 0)),
		fcRow("r04#0", yes, f(0.6), f(0.5), f(0.4), fcClaim(f(0.5), 0.7, 0.5, 0, 0.5, 0), fcClaim(f(1.2), 0.9, 1, 1, 1, 0)),
		fcRow("r04#1", yes, f(0.4), f(0), f(0.6), fcClaim(f(0.2), 0.5, 1, 0, 0, 0)),
		fcRow("r05#0", no, f(0.5), f(0), f(0.5), fcClaim(f(-0.5), 0.6, 1, 0, 0.5, 0)),
		fcRow("r06#0", no, f(0.3), f(1), f(0.3), fcClaim(f(-1), 0.3, 0, 0, 0, 1)),
		fcRow("r07#0", no, f(0.2), f(0), f(0.6), fcClaim(f(-1.5), 0.4, 0.5, 0, 0, 0)),
		fcRow("r08#0", no, nil, nil, f(0.2)),
		fcRow("r09#0", no, f(0.1), f(0.5), f(0.1), fcClaim(f(-2), 0.2, 0, 0, 0, 1)),
		fcRow("r10#0", "null", f(0.5), f(0), f(0.5), fcClaim(f(3), 0.1, 1, 1, 1, 0)),
	}
}

func fcFind(t *testing.T, rep fit.Factcheck, name string) fit.FactcheckRow {
	t.Helper()
	for _, r := range rep.Rows {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no row %q in %+v", name, rep.Rows)
	return fit.FactcheckRow{}
}

// TestFactcheckReport runs the read model on the hand-made rows: which
// samples each row reads, the hand-computed AUROCs and pass mark, a
// lower-is-better score turned round, the claim combinations against
// stats on the same claims, and the cost per claim and sample.
func TestFactcheckReport(t *testing.T) {
	rec := kgeval.Run{Name: "fc", Dataset: "claims.jsonl", Fingerprint: "abc", LLM: "http://x/v1#m", Encoder: "minilm",
		Settings: &kgeval.RunSettings{Verify: "prob"}, Samples: 11,
		Calls:  &kgeval.Calls{Calls: 22, CacheHits: 3, PromptTokens: 1100},
		Stages: kgeval.Stages{"claims": 5.5, "extract": 100}}
	rows := fcRows()
	rep, err := fit.FactcheckReport(rows, rec, kgeval.DefaultVariant, fit.FactcheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Samples != 11 || rep.Labelled != 10 || rep.Positives != 5 || rep.Groups != 9 || rep.Claims != 10 || rep.WithModel != 10 ||
		rep.Folds != fit.FactcheckFolds || rep.Lambda != fit.FactcheckLambda || rep.Verify != "prob" {
		t.Errorf("header %+v", rep)
	}

	// faithfulness.score over the 9 labelled samples with a value: of the
	// 5 × 4 pairs only 0.4 < 0.5 is wrong: 19/20. Pass mark: at 0.55 every
	// negative and 4 of 5 positives are right, (0.8 + 1)/2 = 0.9.
	score := fcFind(t, rep, "faithfulness.score")
	if score.N != 9 || score.Positives != 5 || score.Kind != fit.FactcheckMetric || score.LowerIsBetter {
		t.Errorf("score row %+v", score)
	}
	analysistest.Near(t, "score AUROC", score.AUROC, 0.95)
	analysistest.Near(t, "score threshold", score.Threshold, 0.55)
	if *score.AUROCLo > 0.95 || *score.AUROCHi < 0.95 || *score.BALo > *score.BalancedAccuracy || *score.BAHi < *score.BalancedAccuracy {
		t.Errorf("intervals %+v", score)
	}
	// The cross-validated numbers are stats' on the same samples.
	scores := []float64{0.9, 0.8, 0.7, 0.6, 0.4, 0.5, 0.3, 0.2, 0.1}
	ys := []int{1, 1, 1, 1, 1, 0, 0, 0, 0}
	groups := []string{"r01", "r02", "r03", "r04", "r04", "r05", "r06", "r07", "r09"}
	cv, err := stats.CVThreshold(scores, ys, groups, fit.FactcheckFolds)
	if err != nil {
		t.Fatal(err)
	}
	analysistest.Near(t, "score balanced accuracy", score.BalancedAccuracy, cv.BalancedAccuracy)

	// claim_contradiction is lower-is-better: AUROC of the negated values,
	// 13.5/20 (ties ½); its pass mark is an upper bound.
	contra := fcFind(t, rep, "faithfulness.claim_contradiction")
	if !contra.LowerIsBetter || contra.N != 9 {
		t.Errorf("contradiction row %+v", contra)
	}
	analysistest.Near(t, "contradiction AUROC", contra.AUROC, 0.675)
	if contra.Threshold == nil || *contra.Threshold < 0 || *contra.Threshold > 1 {
		t.Errorf("contradiction threshold %v", contra.Threshold)
	}

	// k_precision reads all 10 labelled samples: 22.5/25.
	kp := fcFind(t, rep, metricreg.MetricKPrecision)
	if kp.N != 10 {
		t.Errorf("k_precision n %d", kp.N)
	}
	analysistest.Near(t, "k_precision AUROC", kp.AUROC, 0.9)

	// A graph metric without any value is listed apart, not as a row.
	if !slices.Contains(rep.Empty, "faithfulness.multihop") {
		t.Errorf("empty %v", rep.Empty)
	}
	for _, r := range rep.Rows {
		if r.Name == "faithfulness.multihop" {
			t.Error("a metric without values has a row")
		}
	}

	// The combination: out-of-fold logistic on the 10 claims of labelled
	// samples, r04#0's two claims averaged.
	comb := fcFind(t, rep, "combination (cv)")
	if !slices.Equal(comb.Features, kgeval.CalibrationFeatures) || comb.Claims != 10 || comb.N != 9 || comb.Kind != fit.FactcheckCV {
		t.Errorf("combination %+v", comb)
	}
	var x [][]float64
	var cy []int
	var cg []string
	for _, r := range rows[:10] {
		for _, c := range r.Scores["faithfulness"].Claims {
			v := make([]float64, len(kgeval.CalibrationFeatures))
			for j, name := range kgeval.CalibrationFeatures {
				v[j] = c.Features[name]
			}
			x, cg = append(x, v), append(cg, fit.FactcheckGroup(r.ID))
			cy = append(cy, map[string]int{yes: 1, no: 0}[r.Human])
		}
	}
	oof, err := stats.CrossValidate(x, cy, cg, fit.FactcheckFolds, fit.FactcheckLambda)
	if err != nil {
		t.Fatal(err)
	}
	// Claims 3 and 4 are r04#0's.
	sampleScores := append(append(append([]float64{}, oof[:3]...), (oof[3]+oof[4])/2), oof[5:]...)
	var pos, neg []float64
	for i, s := range sampleScores {
		if ys[i] == 1 {
			pos = append(pos, s)
		} else {
			neg = append(neg, s)
		}
	}
	auc, _ := stats.AUROC(pos, neg)
	analysistest.Near(t, "combination AUROC", comb.AUROC, auc)

	if r := fcFind(t, rep, "P(supported) alone (cv)"); !slices.Equal(r.Features, []string{kgeval.FeatureModel}) || r.AUROC == nil {
		t.Errorf("P(supported) alone %+v", r)
	}
	if r := fcFind(t, rep, "graph alone (cv)"); !slices.Equal(r.Features, kgeval.CalibrationFeaturesNoModel) || r.AUROC == nil {
		t.Errorf("graph alone %+v", r)
	}
	if r := fcFind(t, rep, "overlap alone (claim k_precision, cv)"); !slices.Equal(r.Features, []string{kgeval.FeatureOverlap}) || r.AUROC == nil {
		t.Errorf("overlap alone %+v", r)
	}

	// Cost: 22 calls, 1,100 tokens and 5.5 s (claims; extract is not a
	// claim stage) over 11 stored claims and 11 samples.
	c := rep.Cost
	if c.Calls != 22 || c.CacheHits != 3 || c.PromptTokens != 1100 || c.Seconds != 5.5 || !slices.Equal(c.Stages, []string{"claims"}) ||
		c.PerClaim == nil || *c.PerClaim != (fit.CostShare{Calls: 2, PromptTokens: 100, Seconds: 0.5}) ||
		c.PerSample == nil || *c.PerSample != (fit.CostShare{Calls: 2, PromptTokens: 100, Seconds: 0.5}) {
		t.Errorf("cost %+v per claim %+v per sample %+v", c, c.PerClaim, c.PerSample)
	}
}

func TestFactcheckReport_Errors(t *testing.T) {
	rec := kgeval.Run{Name: "fc"}
	for _, tt := range []struct {
		name string
		rows []analysis.Row
		want string
	}{
		{"NoLabel", []analysis.Row{fcRow("a#0", "null", f(1), nil, nil)}, "no sample has a human faithfulness label"},
		{"OneClass", []analysis.Row{fcRow("a#0", yes, f(1), nil, nil), fcRow("b#0", yes, f(0), nil, nil)}, "need both 0 and 1"},
		{"NotBinary", []analysis.Row{fcRow("a#0", `{"faithfulness": 0.5}`, f(1), nil, nil)}, "sample a#0: human faithfulness 0.5"},
		{"NotJSON", []analysis.Row{fcRow("a#0", `[1]`, f(1), nil, nil)}, "sample a#0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := fit.FactcheckReport(tt.rows, rec, kgeval.DefaultVariant, fit.FactcheckOptions{})
			if kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want EINVALID with %q", err, tt.want)
			}
		})
	}

	t.Run("NoClaims", func(t *testing.T) {
		// A run without the claims stage: the metric rows, and cv rows
		// that say why they are empty.
		var rows []analysis.Row
		for _, r := range fcRows() {
			r.Scores["faithfulness"] = kgeval.KGResult{}.With(metricreg.MetricClaimScore, r.Scores["faithfulness"].Value(metricreg.MetricClaimScore))
			rows = append(rows, r)
		}
		rep, err := fit.FactcheckReport(rows, rec, kgeval.DefaultVariant, fit.FactcheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r := fcFind(t, rep, "combination (cv)"); r.AUROC != nil || !strings.Contains(r.Reason, "no claim checks stored") {
			t.Errorf("combination %+v", r)
		}
		if rep.Cost.PerClaim != nil || rep.Claims != 0 {
			t.Errorf("claims %d, cost per claim %+v", rep.Claims, rep.Cost.PerClaim)
		}
	})

	t.Run("NoModel", func(t *testing.T) {
		// Claims without model_logit (scoring.verify not prob): no
		// P(supported) row, the combination is the graph's.
		var rows []analysis.Row
		for _, r := range fcRows() {
			s := r.Scores["faithfulness"]
			var cs []kgeval.ClaimCheck
			for _, c := range s.Claims {
				delete(c.Features, kgeval.FeatureModel)
				c.Model = nil
				cs = append(cs, c)
			}
			s.Claims = cs
			r.Scores["faithfulness"] = s
			rows = append(rows, r)
		}
		rep, err := fit.FactcheckReport(rows, rec, kgeval.DefaultVariant, fit.FactcheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r := fcFind(t, rep, "P(supported) alone (cv)"); r.AUROC != nil || !strings.Contains(r.Reason, "no stored claim has model_logit") {
			t.Errorf("P(supported) alone %+v", r)
		}
		comb, graph := fcFind(t, rep, "combination (cv)"), fcFind(t, rep, "graph alone (cv)")
		if !slices.Equal(comb.Features, kgeval.CalibrationFeaturesNoModel) || comb.AUROC == nil || *comb.AUROC != *graph.AUROC {
			t.Errorf("combination %+v, graph %+v", comb, graph)
		}
		if len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "the combination is the graph's alone") {
			t.Errorf("notes %v", rep.Notes)
		}
		// scoring.verify prob, every question refused.
		for _, r := range rows {
			s := r.Scores["faithfulness"]
			for i := range s.Claims {
				s.Claims[i].ModelError = "cache-only: refused"
			}
		}
		rep, err = fit.FactcheckReport(rows, kgeval.Run{Name: "fc", Settings: &kgeval.RunSettings{Verify: "prob"}}, kgeval.DefaultVariant, fit.FactcheckOptions{})
		if err != nil || rep.ModelFailed != 10 || len(rep.Notes) != 1 || !strings.Contains(rep.Notes[0], "10 of 10 claims record a failed model question") {
			t.Errorf("%v: failed %d, notes %v", err, rep.ModelFailed, rep.Notes)
		}
	})
}

// fcMatrix returns the claims of the labelled hand-made rows as a feature
// matrix over features, with labels and groups.
func fcMatrix(rows []analysis.Row, features []string) (x [][]float64, y []int, g []string) {
	for _, r := range rows {
		if r.Human != yes && r.Human != no {
			continue
		}
		for _, c := range r.Scores["faithfulness"].Claims {
			v := make([]float64, len(features))
			for j, name := range features {
				v[j] = c.Features[name]
			}
			x, g = append(x, v), append(g, fit.FactcheckGroup(r.ID))
			y = append(y, map[string]int{yes: 1, no: 0}[r.Human])
		}
	}
	return x, y, g
}

// TestCalibrate fits the calibration on the hand-made claims: each fit is
// stats' on the same matrix, its pass mark CVThreshold's on the
// out-of-fold claim predictions; without the model's feature the earlier
// with_model fit is kept, or it is an error.
func TestCalibrate(t *testing.T) {
	rec := kgeval.Run{Name: "fc", Dataset: "claims.jsonl", Fingerprint: "abc", LLM: "http://x/v1#m", Encoder: "minilm"}
	rows := fcRows()
	cal, err := fit.Calibrate(rows, rec, fit.CalibrateOptions{Kgeval: "v1"})
	if err != nil {
		t.Fatal(err)
	}
	if cal.WithModel == nil || cal.WithoutModel == nil || len(cal.Kept) != 0 {
		t.Fatalf("calibration %+v", cal)
	}
	for _, c := range []struct {
		fit      *claims.Fit
		features []string
	}{{cal.WithModel, kgeval.CalibrationFeatures}, {cal.WithoutModel, kgeval.CalibrationFeaturesNoModel}} {
		fc := c.fit
		if !slices.Equal(fc.Names, c.features) || fc.FittedOn != (claims.Source{Dataset: "claims.jsonl", Fingerprint: "abc", Run: "fc",
			LLM: "http://x/v1#m", Encoder: "minilm", Claims: 10, Kgeval: "v1"}) || fc.LeftOut != 0 || fc.Folds != 5 {
			t.Errorf("fit %+v", fc)
		}
		x, y, g := fcMatrix(rows, c.features)
		m, err := stats.FitLogistic(x, y, c.features, fit.FactcheckLambda)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.Coef, fc.Coef) || m.Intercept != fc.Intercept {
			t.Errorf("model %+v, want %+v", fc.Logistic, m)
		}
		oof, _ := stats.CrossValidate(x, y, g, 5, fit.FactcheckLambda)
		cv, _ := stats.CVThreshold(oof, y, g, 5)
		if fc.PassMark != cv.Threshold || fc.CVBalancedAccuracy != cv.BalancedAccuracy || !(fc.CVAUROCCI[0] <= fc.CVAUROC && fc.CVAUROC <= fc.CVAUROCCI[1]) {
			t.Errorf("pass mark %v, balanced accuracy %v, AUROC %v %v; want %v, %v", fc.PassMark, fc.CVBalancedAccuracy, fc.CVAUROC, fc.CVAUROCCI,
				cv.Threshold, cv.BalancedAccuracy)
		}
	}

	t.Run("Fixed", func(t *testing.T) {
		// The fitted calibration judged on the same run (factcheck
		// --calibration): each fit on each claim, r04#0's two averaged, read
		// at its pass mark.
		rep, err := fit.FactcheckReport(fcRows(), rec, kgeval.DefaultVariant, fit.FactcheckOptions{Calibration: &cal.Calibration, CalibrationName: "cal.json"})
		if err != nil {
			t.Fatal(err)
		}
		for name, fc := range map[string]*claims.Fit{"with_model": cal.WithModel, "without_model": cal.WithoutModel} {
			r := fcFind(t, rep, "calibration cal.json "+name)
			x, _, _ := fcMatrix(rows, fc.Names)
			p := make([]float64, len(x))
			for i, v := range x {
				p[i] = fc.Logistic.Predict(v)
			}
			scores := append(append(append([]float64{}, p[:3]...), (p[3]+p[4])/2), p[5:]...)
			ys := []int{1, 1, 1, 1, 1, 0, 0, 0, 0}
			var pos, neg []float64
			for i, s := range scores {
				if ys[i] == 1 {
					pos = append(pos, s)
				} else {
					neg = append(neg, s)
				}
			}
			auc, _ := stats.AUROC(pos, neg)
			ba, _ := stats.BalancedAccuracy(scores, ys, fc.PassMark)
			if r.Kind != fit.FactcheckFixed || r.N != 9 || r.Claims != 10 || r.Threshold == nil || *r.Threshold != fc.PassMark {
				t.Errorf("%s row %+v", name, r)
			}
			analysistest.Near(t, name+" fixed AUROC", r.AUROC, auc)
			analysistest.Near(t, name+" fixed balanced accuracy", r.BalancedAccuracy, ba)
		}
	})
	noModel := func() []analysis.Row {
		var rows []analysis.Row
		for _, r := range fcRows() {
			for _, c := range r.Scores["faithfulness"].Claims {
				delete(c.Features, kgeval.FeatureModel)
			}
			rows = append(rows, r)
		}
		return rows
	}
	t.Run("NoModel", func(t *testing.T) {
		_, err := fit.Calibrate(noModel(), rec, fit.CalibrateOptions{})
		if kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.Contains(err.Error(), "no earlier with_model fit to keep") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("NoModelKeep", func(t *testing.T) {
		got, err := fit.Calibrate(noModel(), rec, fit.CalibrateOptions{Previous: &cal.Calibration})
		if err != nil || got.WithModel != cal.WithModel || !slices.Equal(got.Kept, []string{"with_model"}) ||
			got.WithoutModel.Coef[0] != cal.WithoutModel.Coef[0] {
			t.Errorf("%v: %+v", err, got)
		}
	})
	t.Run("NoClaims", func(t *testing.T) {
		rows := []analysis.Row{fcRow("a#0", yes, f(1), nil, nil), fcRow("b#0", no, f(0), nil, nil)}
		if _, err := fit.Calibrate(rows, rec, fit.CalibrateOptions{}); kgeval.ErrorCode(err) != kgeval.EINVALID ||
			!strings.Contains(err.Error(), "no claim of a labelled sample has every feature") {
			t.Errorf("err = %v", err)
		}
	})
}
