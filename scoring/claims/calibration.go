package claims

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/stats"
)

// Fit is one fitted logistic model over named features (stats.Logistic:
// standardised by Mean and Scale, then σ(Intercept + Σ Coef·x)) with the
// probability at or above which a claim passes (PassMark, chosen by
// cross-validation on balanced accuracy).
type Fit struct {
	stats.Logistic
	PassMark float64 `json:"pass_mark"`
	// CV reports the fit's cross-validated quality on its data.
	CVAUROC            float64 `json:"cv_auroc"`
	CVBalancedAccuracy float64 `json:"cv_balanced_accuracy"`
	// FittedOn names the data, models and kgeval version of the fit.
	FittedOn map[string]any `json:"fitted_on,omitempty"`
}

// Predict returns the fit's probability for features f (a missing feature
// counts at its mean).
func (m *Fit) Predict(f map[string]float64) float64 {
	x := make([]float64, len(m.Names))
	for i, n := range m.Names {
		v, ok := f[n]
		if !ok {
			v = m.Mean[i]
		}
		x[i] = v
	}
	return m.Logistic.Predict(x)
}

// Calibration holds the calibrated score's two fits: with the model's
// probability (scoring.verify prob) and without it.
type Calibration struct {
	WithModel    *Fit `json:"with_model"`
	WithoutModel *Fit `json:"without_model"`
}

//go:embed calibration.json
var calibrationJSON []byte

// DefaultCalibration is the committed calibration (calibration.json,
// refitted by `make calibrate`).
func DefaultCalibration() (*Calibration, error) { return ParseCalibration(calibrationJSON) }

// ParseCalibration reads a calibration file. Errors: EINVALID when a fit
// is missing or its features do not match kgeval.CalibrationFeatures.
func ParseCalibration(b []byte) (*Calibration, error) {
	var c Calibration
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, kgeval.Errorf(kgeval.EINVALID, "calibration: %v", err)
	}
	for _, x := range []struct {
		f     *Fit
		name  string
		names []string
	}{{c.WithModel, "with_model", kgeval.CalibrationFeatures}, {c.WithoutModel, "without_model", kgeval.CalibrationFeaturesNoModel}} {
		if x.f == nil {
			return nil, kgeval.Errorf(kgeval.EINVALID, "calibration: no %s fit", x.name)
		}
		if !slices.Equal(x.f.Names, x.names) || len(x.f.Mean) != len(x.names) || len(x.f.Scale) != len(x.names) || len(x.f.Coef) != len(x.names) {
			return nil, kgeval.Errorf(kgeval.EINVALID, "calibration: %s fit has features %v, want %v", x.name, x.f.Names, x.names)
		}
		if slices.Contains(x.f.Scale, 0) {
			return nil, kgeval.Errorf(kgeval.EINVALID, "calibration: %s fit has a feature of scale 0", x.name)
		}
	}
	return &c, nil
}

// Score adds the model's answers to the claim checks (ps[i] for claim i;
// nil: not asked, errs[i] its failure), computes each claim's calibrated
// probability and verdict, and sets the claim metrics of r: score (mean),
// score_min, p_supported (mean of the model's P; null without the model)
// and claim_contradiction. A text without claims leaves them null with the
// reason.
func (c *Calibration) Score(r *kgeval.KGResult, checks []kgeval.ClaimCheck, ps []*kgeval.ClaimProb, errs []error) {
	r.Claims = checks
	names := []string{metricreg.MetricClaimScore, metricreg.MetricClaimScoreMin, metricreg.MetricPSupported, metricreg.MetricClaimContradiction}
	if r.Reasons == nil {
		r.Reasons = map[string]string{}
	}
	if len(checks) == 0 {
		for _, m := range names {
			r.SetValue(m, nil)
			r.Reasons[m] = "the " + "input states no claim"
		}
		return
	}
	sum, least, psum, pn, contra := 0.0, 1.0, 0.0, 0, 0
	var failed error
	for i := range checks {
		ch := &checks[i]
		fit := c.WithoutModel
		if i < len(ps) && ps[i] != nil {
			p := *ps[i]
			ch.Model = &p
			ch.Features[kgeval.FeatureModel] = Logit(p.P)
			fit = c.WithModel
			psum += p.P
			pn++
		} else if i < len(errs) && errs[i] != nil {
			ch.ModelError = errs[i].Error()
			failed = errs[i]
		}
		ch.Score = round(fit.Predict(ch.Features))
		switch {
		case ch.Score >= fit.PassMark:
			ch.Verdict = kgeval.ClaimSupported
		case len(ch.Conflicts) > 0:
			ch.Verdict = kgeval.ClaimContradicted
		default:
			ch.Verdict = kgeval.ClaimUnsupported
		}
		if len(ch.Conflicts) > 0 {
			contra++
		}
		sum += ch.Score
		least = math.Min(least, ch.Score)
	}
	n := float64(len(checks))
	r.SetValue(metricreg.MetricClaimScore, kgeval.Float(sum/n))
	r.SetValue(metricreg.MetricClaimScoreMin, kgeval.Float(least))
	r.SetValue(metricreg.MetricClaimContradiction, kgeval.Float(float64(contra)/n))
	for _, m := range names {
		delete(r.Reasons, m)
	}
	switch {
	case pn == len(checks):
		r.SetValue(metricreg.MetricPSupported, kgeval.Float(psum/float64(pn)))
	case failed != nil:
		// A claim the model could not answer: the calibrated score fell
		// back to the fit without the model for it; p_supported is null.
		r.SetValue(metricreg.MetricPSupported, nil)
		r.Reasons[metricreg.MetricPSupported] = fmt.Sprintf("model check failed on %d of %d claims: %v", len(checks)-pn, len(checks), failed)
	default:
		r.SetValue(metricreg.MetricPSupported, nil)
		r.Reasons[metricreg.MetricPSupported] = kgeval.ReasonNotApplicable + "scoring.verify is not prob"
	}
}
