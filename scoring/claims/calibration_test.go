package claims_test

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/scoring/claims"
	"github.com/kgeval/kgeval/stats"
)

// TestParseCalibration checks that the committed calibration parses and
// that a file whose fits do not name kgeval's features is EINVALID.
func TestParseCalibration(t *testing.T) {
	def, err := claims.DefaultCalibration()
	if err != nil {
		t.Fatalf("DefaultCalibration: %v", err)
	}
	// The committed fits, whatever data they were refitted on: a pass mark
	// that is a probability, coefficients with kgeval.FeatureSigns.
	for _, f := range []*claims.Fit{def.WithModel, def.WithoutModel} {
		if f.PassMark <= 0 || f.PassMark >= 1 {
			t.Errorf("pass mark %v, want in (0, 1)", f.PassMark)
		}
		for i, n := range f.Names {
			if f.Coef[i]*float64(kgeval.FeatureSigns[n]) < 0 || f.Scale[i] < 0 {
				t.Errorf("feature %s: coefficient %v, scale %v; want the sign %+d", n, f.Coef[i], f.Scale[i], kgeval.FeatureSigns[n])
			}
		}
	}
	good, err := json.Marshal(def)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(change func(c map[string]map[string]any)) []byte {
		var c map[string]map[string]any
		if err := json.Unmarshal(good, &c); err != nil {
			t.Fatal(err)
		}
		change(c)
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tc := range []struct {
		name string
		file []byte
		want string // error code; "" for none
	}{
		{"committed", good, ""},
		{"feature renamed", edit(func(c map[string]map[string]any) {
			c["without_model"]["names"] = []string{"words", "atoms", "support", "reach", "conflict"}
		}), kgeval.EINVALID},
		{"with_model fit without a model feature", edit(func(c map[string]map[string]any) {
			c["with_model"]["names"] = []string{"overlap", "words", "atoms", "support", "reach", "conflict"}
		}), kgeval.EINVALID},
		{"model feature in the fit without the model", edit(func(c map[string]map[string]any) {
			c["without_model"]["names"] = kgeval.CalibrationFeatures
		}), kgeval.EINVALID},
		{"coefficient missing", edit(func(c map[string]map[string]any) {
			c["with_model"]["coef"] = []float64{1} // fewer than its features
		}), kgeval.EINVALID},
		{"fit missing", edit(func(c map[string]map[string]any) { delete(c, "with_model") }), kgeval.EINVALID},
		{"not JSON", []byte("with_model: {}"), kgeval.EINVALID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := claims.ParseCalibration(tc.file)
			if got := kgeval.ErrorCode(err); (err == nil) != (tc.want == "") || err != nil && got != tc.want {
				t.Errorf("err %v (code %q), want code %q", err, got, tc.want)
			}
		})
	}
}

// handFit is a calibration whose scores can be worked out by hand: without
// the model, P = 1/(1+e^-(4·overlap-2)), 0.5 at overlap 0.5, the pass mark;
// with it, P is the model's P (z is its logit), pass mark 0.6.
func handFit() *claims.Calibration {
	fit := func(names []string, coef []float64, intercept, pass float64) *claims.Fit {
		f := &claims.Fit{Logistic: stats.Logistic{Names: names, Coef: coef, Intercept: intercept}, PassMark: pass}
		for range names {
			f.Mean, f.Scale = append(f.Mean, 0), append(f.Scale, 1)
		}
		return f
	}
	return &claims.Calibration{
		WithModel:    fit(kgeval.CalibrationFeatures, []float64{1, 0, 0, 0, 0, 0}, 0, 0.6),
		WithoutModel: fit(kgeval.CalibrationFeaturesNoModel, []float64{4, 0, 0, 0, 0}, -2, 0.5),
	}
}

// TestRecombined checks claims.Recombined on hand values: overlap times
// one minus pairs, 0 when either is missing.
func TestRecombined(t *testing.T) {
	for _, tc := range []struct {
		f    map[string]float64
		want float64
	}{
		{map[string]float64{kgeval.FeatureOverlap: 1, kgeval.FeaturePairs: 0.25}, 0.75},
		{map[string]float64{kgeval.FeatureOverlap: 0.5, kgeval.FeaturePairs: 0}, 0.5},
		{map[string]float64{kgeval.FeatureOverlap: 1, kgeval.FeaturePairs: 1}, 0},
		{map[string]float64{kgeval.FeatureOverlap: 1}, 0},
	} {
		if got := claims.Recombined(tc.f); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Recombined(%v) = %v, want %v", tc.f, got, tc.want)
		}
	}
}

func sigmoid(z float64) float64 { return 1 / (1 + math.Exp(-z)) }

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// TestCalibration_Score checks the claim verdicts and the claim metrics
// Score sets: score (mean), score_min, p_supported (the model's mean P, or
// null with the reason) and claim_contradiction.
func TestCalibration_Score(t *testing.T) {
	conflict := []kgeval.ClaimConflict{{Kind: "date", Claim: "1925", Evidence: "1889"}}
	claim := func(overlap float64, conflicts []kgeval.ClaimConflict) kgeval.ClaimCheck {
		c := kgeval.ClaimCheck{Text: "c", Features: map[string]float64{}, Conflicts: conflicts}
		for _, n := range kgeval.CalibrationFeaturesNoModel {
			c.Features[n] = 0
		}
		c.Features[kgeval.FeatureOverlap] = overlap
		if len(conflicts) > 0 {
			c.Features[kgeval.FeatureConflict] = 1
		}
		return c
	}
	p := func(x float64) *kgeval.ClaimProb { return &kgeval.ClaimProb{P: x, Chunks: 1} }
	pc := func(x, contra float64) *kgeval.ClaimProb {
		return &kgeval.ClaimProb{P: x, Contradicted: &contra, Chunks: 1}
	}
	withPairs := func(c kgeval.ClaimCheck, pairs float64) kgeval.ClaimCheck {
		c.Features[kgeval.FeaturePairs] = pairs
		return c
	}
	timeout := errors.New("model: timeout")
	for _, tc := range []struct {
		name   string
		checks []kgeval.ClaimCheck
		ps     []*kgeval.ClaimProb
		errs   []error
		// want per claim: score and verdict.
		scores   []float64
		verdicts []string
		// want metrics (nil: null) and p_supported's reason.
		pSupported    *float64
		pReason       string
		contradiction float64
	}{
		{name: "no model: at, above and below the pass mark",
			checks: []kgeval.ClaimCheck{claim(1, nil), claim(0.5, nil), claim(0.25, conflict), claim(0.25, nil)},
			scores: []float64{round4(sigmoid(2)), 0.5, round4(sigmoid(-1)), round4(sigmoid(-1))},
			// 0.5 is the pass mark: supported.
			verdicts:      []string{kgeval.ClaimSupported, kgeval.ClaimSupported, kgeval.ClaimContradicted, kgeval.ClaimUnsupported},
			pReason:       kgeval.ReasonNotApplicable + "scoring.verify is not prob or cascade",
			contradiction: 0.25},
		{name: "a conflict above the pass mark is contradicted",
			checks:   []kgeval.ClaimCheck{claim(1, conflict)},
			scores:   []float64{round4(sigmoid(2))},
			verdicts: []string{kgeval.ClaimContradicted}, pReason: kgeval.ReasonNotApplicable + "scoring.verify is not prob or cascade", contradiction: 1},
		{name: "model on every claim",
			checks: []kgeval.ClaimCheck{claim(0, nil), claim(1, conflict), claim(1, nil)},
			ps:     []*kgeval.ClaimProb{p(0.9), p(0.3), p(0.6)},
			errs:   []error{nil, nil, nil},
			// The model's P is the score (the hand fit); 0.6 is its pass mark.
			scores:        []float64{0.9, 0.3, 0.6},
			verdicts:      []string{kgeval.ClaimSupported, kgeval.ClaimContradicted, kgeval.ClaimSupported},
			pSupported:    kgeval.Float(0.6),
			contradiction: 1.0 / 3},
		// claim_contradiction reads the conflict, else the recombined
		// words (overlap 1, pairs 0.5: 0.5; overlap 0.5, pairs 0: 0.5),
		// never the model's P(contradicted), which only sets a verdict.
		{name: "recombined words in claim_contradiction",
			checks:        []kgeval.ClaimCheck{withPairs(claim(1, nil), 0.5), withPairs(claim(0.5, nil), 0), withPairs(claim(1, conflict), 1)},
			ps:            []*kgeval.ClaimProb{pc(0.2, 0.9), pc(0.2, 0.1), pc(0.9, 0)},
			errs:          []error{nil, nil, nil},
			scores:        []float64{0.2, 0.2, 0.9},
			verdicts:      []string{kgeval.ClaimContradicted, kgeval.ClaimUnsupported, kgeval.ClaimContradicted},
			pSupported:    kgeval.Float((0.2 + 0.2 + 0.9) / 3),
			contradiction: (0.5 + 0.5 + 1) / 3},
		{name: "model failed on one claim",
			checks: []kgeval.ClaimCheck{claim(0, nil), claim(1, nil)},
			ps:     []*kgeval.ClaimProb{p(0.9), nil},
			errs:   []error{nil, timeout},
			// The second claim falls back to the fit without the model.
			scores:   []float64{0.9, round4(sigmoid(2))},
			verdicts: []string{kgeval.ClaimSupported, kgeval.ClaimSupported},
			pReason:  "model check failed on 1 of 2 claims: model: timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The result comes from the engine with the claim metrics'
			// placeholder reason (scoring.AssembleVerdicts).
			r := kgeval.KGResult{Reasons: map[string]string{}}
			for _, m := range []string{metricreg.MetricClaimScore, metricreg.MetricClaimScoreMin, metricreg.MetricPSupported, metricreg.MetricClaimContradiction} {
				r.Reasons[m] = kgeval.ReasonNotApplicable + "claim verdicts need the sample texts (evaluate computes them)"
			}
			handFit().Score(&r, tc.checks, tc.ps, tc.errs)
			if len(r.Claims) != len(tc.checks) {
				t.Fatalf("%d claims in the result, want %d", len(r.Claims), len(tc.checks))
			}
			sum, least := 0.0, 1.0
			for i, c := range r.Claims {
				if c.Score != tc.scores[i] || c.Verdict != tc.verdicts[i] {
					t.Errorf("claim %d: score %v %s, want %v %s", i, c.Score, c.Verdict, tc.scores[i], tc.verdicts[i])
				}
				sum, least = sum+tc.scores[i], math.Min(least, tc.scores[i])
				asked := i < len(tc.ps) && tc.ps[i] != nil
				if asked {
					if c.Model == nil || c.Model.P != tc.ps[i].P || c.Features[kgeval.FeatureModel] != claims.Logit(tc.ps[i].P) {
						t.Errorf("claim %d: model %+v, model feature %v; want P %v and its logit", i, c.Model, c.Features[kgeval.FeatureModel], tc.ps[i].P)
					}
				} else if _, ok := c.Features[kgeval.FeatureModel]; ok || c.Model != nil {
					t.Errorf("claim %d: model %+v and features %v without an answer", i, c.Model, c.Features)
				}
				failed := i < len(tc.errs) && tc.errs[i] != nil
				if failed && c.ModelError != tc.errs[i].Error() || !failed && c.ModelError != "" {
					t.Errorf("claim %d: model error %q", i, c.ModelError)
				}
			}
			eq := func(m string, want *float64) {
				t.Helper()
				got := r.Value(m)
				switch {
				case want == nil && got != nil:
					t.Errorf("%s = %v, want null", m, *got)
				case want != nil && got == nil:
					t.Errorf("%s = null (%s), want %v", m, r.ReasonFor(m), *want)
				case want != nil && math.Abs(*got-*want) > 1e-12:
					t.Errorf("%s = %v, want %v", m, *got, *want)
				}
				if got != nil && r.ReasonFor(m) != "" {
					t.Errorf("%s has a value and the reason %q", m, r.ReasonFor(m))
				}
			}
			eq(metricreg.MetricClaimScore, kgeval.Float(sum/float64(len(tc.scores))))
			eq(metricreg.MetricClaimScoreMin, kgeval.Float(least))
			eq(metricreg.MetricClaimContradiction, kgeval.Float(tc.contradiction))
			eq(metricreg.MetricPSupported, tc.pSupported)
			if tc.pSupported == nil && r.ReasonFor(metricreg.MetricPSupported) != tc.pReason {
				t.Errorf("p_supported reason %q, want %q", r.ReasonFor(metricreg.MetricPSupported), tc.pReason)
			}
		})
	}
}

// TestCalibration_ScoreNoClaims: a text without claims leaves the claim
// metrics null, each with the reason.
func TestCalibration_ScoreNoClaims(t *testing.T) {
	cal, err := claims.DefaultCalibration()
	if err != nil {
		t.Fatal(err)
	}
	in, gp := MustInput(t, "Answer:", paris...)
	cs := MustCheck(t, in, claims.Params{Mode: claims.ModeGraph, Budget: 30, Delta: gp.Delta})
	if len(cs) != 0 {
		t.Fatalf("a heading made claims: %+v", cs)
	}
	r := kgeval.KGResult{}.With(metricreg.MetricClaimScore, kgeval.Float(1))
	cal.Score(&r, cs, nil, nil)
	for _, m := range []string{metricreg.MetricClaimScore, metricreg.MetricClaimScoreMin, metricreg.MetricPSupported, metricreg.MetricClaimContradiction} {
		if v := r.Value(m); v != nil || r.ReasonFor(m) != "the input states no claim" {
			t.Errorf("%s = %v, reason %q; want null, the input states no claim", m, v, r.ReasonFor(m))
		}
	}
}

// TestCalibration_ScoreDefault scores checked claims with the committed
// calibration (refitted now and then: no value of it is assumed): each
// score is the fit's prediction on the claim's features, its verdict
// follows the pass mark, and the grounded claim, no feature of which is
// worse, scores at least as high as the one with another year.
func TestCalibration_ScoreDefault(t *testing.T) {
	cal, err := claims.DefaultCalibration()
	if err != nil {
		t.Fatal(err)
	}
	var results []kgeval.KGResult
	for _, x := range []struct{ claim, passage string }{
		{"The Eiffel Tower was completed in 1889.", towerSentence},
		{"The Eiffel Tower was completed in 1925.", towerSentence},
		// Once scored supported, above the pass mark; the currency
		// conflict ('€' against '$') makes it contradicted.
		{"The company's revenue was €2.5 million in 2023.", "The company reported revenue of $2.5 million in 2023."},
	} {
		in, gp := MustInput(t, x.claim, x.passage)
		cs := MustCheck(t, in, claims.Params{Mode: claims.ModeGraph, Budget: 1500, Delta: gp.Delta})
		r := kgeval.KGResult{}
		cal.Score(&r, cs, nil, nil)
		c := r.Claims[0]
		if want := round4(cal.WithoutModel.Predict(c.Features)); c.Score != want {
			t.Errorf("%q: score %v, want the fit's %v", x.claim, c.Score, want)
		}
		want := kgeval.ClaimUnsupported
		switch {
		case len(c.Conflicts) > 0:
			want = kgeval.ClaimContradicted
		case c.Score >= cal.WithoutModel.PassMark:
			want = kgeval.ClaimSupported
		}
		if c.Verdict != want {
			t.Errorf("%q: score %v (pass mark %v) gave %s, want %s", x.claim, c.Score, cal.WithoutModel.PassMark, c.Verdict, want)
		}
		t.Logf("%q: features %v, score %v, %s, conflicts %+v", x.claim, c.Features, c.Score, c.Verdict, c.Conflicts)
		results = append(results, r)
	}
	if g, u := *results[0].Value(metricreg.MetricClaimScore), *results[1].Value(metricreg.MetricClaimScore); g < u {
		t.Errorf("grounded claim scores %v, the one with another year %v: want it no lower", g, u)
	}
	if c := results[1].Claims[0]; len(c.Conflicts) != 1 || c.Conflicts[0].Claim+"/"+c.Conflicts[0].Evidence != "1925/1889" || *results[1].Value(metricreg.MetricClaimContradiction) != 1 {
		t.Errorf("1925 against 1889: conflicts %+v, claim_contradiction %v; want 1925/1889 and 1", c.Conflicts, *results[1].Value(metricreg.MetricClaimContradiction))
	}
	if c := results[2].Claims[0]; c.Verdict != kgeval.ClaimContradicted || len(c.Conflicts) != 1 || c.Conflicts[0].Kind != "currency" || *results[2].Value(metricreg.MetricClaimContradiction) != 1 {
		t.Errorf("€2.5 million against $2.5 million: %s, conflicts %+v, claim_contradiction %v; want contradicted by a currency conflict, 1",
			c.Verdict, c.Conflicts, *results[2].Value(metricreg.MetricClaimContradiction))
	}
}

// TestModelFeatures checks the features read from one three-way answer:
// each form's logit, P(contradicted), P(not stated), and Yes against No
// alone.
func TestModelFeatures(t *testing.T) {
	yes, no, unknown := 0.2, 0.3, 0.5
	f := claims.ModelFeatures(kgeval.ClaimProb{P: yes, Forms: map[string]float64{"threeway": yes}, Contradicted: &no, NotStated: &unknown})
	want := map[string]float64{
		kgeval.FeatureModel:             claims.Logit(yes),
		kgeval.FeatureModelThreeWay:     claims.Logit(yes),
		kgeval.FeatureModelContradicted: claims.Logit(no),
		kgeval.FeatureModelNotStated:    0, // logit(0.5)
		kgeval.FeatureModelYesNo:        claims.Logit(0.4),
	}
	if len(f) != len(want) {
		t.Errorf("features %v, want %v", f, want)
	}
	for name, w := range want {
		if got, ok := f[name]; !ok || math.Abs(got-w) > 1e-12 {
			t.Errorf("%s = %v (present %v), want %v", name, got, ok, w)
		}
	}
	// An answer recorded before the three-way form has neither.
	f = claims.ModelFeatures(kgeval.ClaimProb{P: 0.7})
	if _, ok := f[kgeval.FeatureModelNotStated]; ok {
		t.Errorf("not stated without a three-way answer: %v", f)
	}
}
