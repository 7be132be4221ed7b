package claims

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/stats"
)

// Fit is one fitted logistic model over named features (stats.Logistic:
// standardised by Mean and Scale, then σ(Intercept + Σ Coef·x)) with the
// probability at or above which a claim passes (PassMark, chosen by
// cross-validation on balanced accuracy).
// It is the one calibration type: `kgeval calibrate` fits it
// (analysis/fit: Calibrate, Mix) and writes it, evaluate reads it.
type Fit struct {
	stats.Logistic
	PassMark float64 `json:"pass_mark"`
	// MarkRule is how PassMark was chosen (mean, worst or median balanced
	// accuracy over the datasets' held-out predictions; empty: mean, in
	// sample) and BARange the least and greatest dataset balanced accuracy
	// at it there.
	MarkRule string     `json:"mark_rule,omitempty"`
	BARange  [2]float64 `json:"balanced_accuracy_range,omitzero"`
	// CVAUROC and CVBalancedAccuracy are the fit's cross-validated
	// quality on its data (out-of-fold claim predictions, or each dataset
	// left out in turn), with DeLong and group-bootstrap 95% intervals.
	CVAUROC              float64    `json:"cv_auroc"`
	CVAUROCCI            [2]float64 `json:"cv_auroc_ci"`
	CVBalancedAccuracy   float64    `json:"cv_balanced_accuracy"`
	CVBalancedAccuracyCI [2]float64 `json:"cv_balanced_accuracy_ci"`
	Folds                int        `json:"folds"`
	// LeftOut counts the claims of labelled samples without every feature.
	LeftOut int `json:"claims_left_out"`
	// FittedOn names the data, models and kgeval version of the fit.
	FittedOn Source `json:"fitted_on"`
}

// Source says what a fit was fitted on.
type Source struct {
	Dataset     string `json:"dataset"`
	Fingerprint string `json:"fingerprint"`
	Run         string `json:"run"`
	LLM         string `json:"llm"`
	Encoder     string `json:"encoder"`
	Claims      int    `json:"claims"`
	Kgeval      string `json:"kgeval"`
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
// probability (scoring.verify prob) and without it, and the cascade that
// asks the model only inside a band of the fit without it
// (scoring.verify cascade).
type Calibration struct {
	WithModel    *Fit     `json:"with_model"`
	WithoutModel *Fit     `json:"without_model"`
	Cascade      *Cascade `json:"cascade,omitempty"`
}

// Cascade is where the model is asked (scoring.verify cascade): a claim
// without a literal conflict whose probability under the fit without the
// model is in [Lo, Hi) is asked, and takes the fit with the model; every
// other claim keeps the fit without it. PassMark is the pass mark of a
// score read so (a sample's mean over its claims), chosen by MarkRule on
// the training datasets' held-out predictions; BARange is the least and
// greatest dataset balanced accuracy there. AskedShare, TokensPerSample,
// CVAUROC and CVBalancedAccuracy are its nested leave-one-dataset-out
// figures on the mix.
type Cascade struct {
	Lo                 float64    `json:"lo"`
	Hi                 float64    `json:"hi"`
	PassMark           float64    `json:"pass_mark"`
	MarkRule           string     `json:"mark_rule"`
	BARange            [2]float64 `json:"balanced_accuracy_range"`
	AskedShare         float64    `json:"asked_share"`
	TokensPerSample    float64    `json:"tokens_per_sample"`
	CVAUROC            float64    `json:"cv_auroc"`
	CVBalancedAccuracy float64    `json:"cv_balanced_accuracy"`
}

// ModelPassMark is the pass mark of a score read with the model: the
// cascade's when the calibration has one (the default mode asks the model
// through it, and a score is read at one mark whichever mode made it),
// else the fit with the model's.
func (c *Calibration) ModelPassMark() float64 {
	if c.Cascade != nil {
		return c.Cascade.PassMark
	}
	return c.WithModel.PassMark
}

// Asks reports whether the cascade asks the model about a claim: no
// literal conflict settles it, and its probability without the model p0
// is inside the band.
func (c *Cascade) Asks(ch *kgeval.ClaimCheck, p0 float64) bool {
	return len(ch.Conflicts) == 0 && ch.Features[kgeval.FeatureConflict] == 0 && p0 >= c.Lo && p0 < c.Hi
}

//go:embed calibration.json
var calibrationJSON []byte

// DefaultCalibration is the committed calibration (calibration.json,
// refitted by `make calibrate`).
func DefaultCalibration() (*Calibration, error) { return ParseCalibration(calibrationJSON) }

// ParseCalibration reads a calibration file. Errors: EINVALID when a fit
// is missing, names a feature kgeval.KnownFeatures lacks, or (with_model)
// has no model feature or (without_model) has one.
func ParseCalibration(b []byte) (*Calibration, error) {
	var c Calibration
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, kgeval.Errorf(kgeval.EINVALID, "calibration: %v", err)
	}
	for _, x := range []struct {
		f         *Fit
		name      string
		withModel bool
	}{{c.WithModel, "with_model", true}, {c.WithoutModel, "without_model", false}} {
		if x.f == nil {
			return nil, kgeval.Errorf(kgeval.EINVALID, "calibration: no %s fit", x.name)
		}
		n := len(x.f.Names)
		if n == 0 || len(x.f.Mean) != n || len(x.f.Scale) != n || len(x.f.Coef) != n {
			return nil, kgeval.Errorf(kgeval.EINVALID, "calibration: %s fit has %d features, %d means, %d scales and %d coefficients", x.name, n, len(x.f.Mean), len(x.f.Scale), len(x.f.Coef))
		}
		model := false
		for _, f := range x.f.Names {
			if !slices.Contains(kgeval.KnownFeatures, f) {
				return nil, kgeval.Errorf(kgeval.EINVALID, "calibration: %s fit has feature %q, want some of %v", x.name, f, kgeval.KnownFeatures)
			}
			model = model || slices.Contains(kgeval.ModelFeatures, f)
		}
		if model != x.withModel {
			return nil, kgeval.Errorf(kgeval.EINVALID, "calibration: %s fit has features %v: a with_model fit needs a model feature (%v), a without_model fit none", x.name, x.f.Names, kgeval.ModelFeatures)
		}
		if slices.Contains(x.f.Scale, 0) {
			return nil, kgeval.Errorf(kgeval.EINVALID, "calibration: %s fit has a feature of scale 0", x.name)
		}
	}
	return &c, nil
}

// ModelFeatures returns the features read from the model's answer about a
// claim: the logit of its P(supported) (the mean over the forms asked),
// of each form's P, and of the three-way form's P(contradicted).
func ModelFeatures(p kgeval.ClaimProb) map[string]float64 {
	out := map[string]float64{kgeval.FeatureModel: Logit(p.P)}
	for f, name := range map[string]string{"claim": kgeval.FeatureModelClaim, "context": kgeval.FeatureModelContext, "threeway": kgeval.FeatureModelThreeWay} {
		if v, ok := p.Forms[f]; ok {
			out[name] = Logit(v)
		}
	}
	if len(p.Forms) == 0 { // answers recorded before forms: the claim form
		out[kgeval.FeatureModelClaim] = Logit(p.P)
	}
	if p.Contradicted != nil {
		out[kgeval.FeatureModelContradicted] = Logit(*p.Contradicted)
		if yes, ok := p.Forms["threeway"]; ok && yes+*p.Contradicted > 0 {
			out[kgeval.FeatureModelYesNo] = Logit(yes / (yes + *p.Contradicted))
		}
	}
	if p.NotStated != nil {
		out[kgeval.FeatureModelNotStated] = Logit(*p.NotStated)
	}
	return out
}

// Recombined is how much a claim restates the context's words in phrases
// the context does not use: its overlap times one minus its pairs
// (kgeval.FeatureOverlap, kgeval.FeaturePairs). A claim whose words are all
// in the passage but put together otherwise ("the tower completed 1889 the
// world fair") scores high; a claim stated as the passage states it, or
// one made of new words, scores low. It is the zero-call contradiction
// signal (claim_contradiction): on the training mix's contradiction labels
// it ranks contradicted claims at macro AUROC 0.654 where the model's
// P(contradicted) is at chance (docs/results/factcheck-mix.txt).
func Recombined(f map[string]float64) float64 {
	ov, okO := f[kgeval.FeatureOverlap]
	pr, okP := f[kgeval.FeaturePairs]
	if !okO || !okP {
		return 0
	}
	return ov * (1 - pr)
}

// contradictionSignal is a claim's share of claim_contradiction: 1 with a
// literal or name conflict, else Recombined.
func contradictionSignal(ch *kgeval.ClaimCheck) float64 {
	if len(ch.Conflicts) > 0 {
		return 1
	}
	return Recombined(ch.Features)
}

// contradiction is a claim's probability of being contradicted, for its
// verdict: 1 with a literal or name conflict, else the three-way
// question's P(contradicted) when the model was asked it, else 0.
func contradiction(ch *kgeval.ClaimCheck) float64 {
	switch {
	case len(ch.Conflicts) > 0:
		return 1
	case ch.Model != nil && ch.Model.Contradicted != nil:
		return *ch.Model.Contradicted
	}
	return 0
}

// Score adds the model's answers to the claim checks (ps[i] for claim i;
// nil: not asked, errs[i] its failure), computes each claim's calibrated
// probability and verdict, and sets the claim metrics of r: score (mean),
// score_min, p_supported (mean of the model's P; null without the model)
// and claim_contradiction (mean of contradictionSignal). A text without claims leaves them null with the
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
	sum, least, psum, pn, contra := 0.0, 1.0, 0.0, 0, 0.0
	var failed error
	for i := range checks {
		ch := &checks[i]
		fit := c.WithoutModel
		if i < len(ps) && ps[i] != nil {
			p := *ps[i]
			ch.Model = &p
			maps.Copy(ch.Features, ModelFeatures(p))
			fit = c.WithModel
			psum += p.P
			pn++
		} else if i < len(errs) && errs[i] != nil {
			ch.ModelError = errs[i].Error()
			failed = errs[i]
		}
		ch.Score = round(fit.Predict(ch.Features))
		pc := contradiction(ch)
		mark := fit.PassMark
		if fit == c.WithModel {
			mark = c.ModelPassMark()
		}
		switch {
		case len(ch.Conflicts) > 0:
			// A value or name the evidence states otherwise ("€2.5 million"
			// against "$2.5 million"): contradicted, whatever the score.
			ch.Verdict = kgeval.ClaimContradicted
		case ch.Score >= mark:
			ch.Verdict = kgeval.ClaimSupported
		case pc >= 0.5:
			ch.Verdict = kgeval.ClaimContradicted
		default:
			ch.Verdict = kgeval.ClaimUnsupported
		}
		contra += contradictionSignal(ch)
		sum += ch.Score
		least = math.Min(least, ch.Score)
	}
	n := float64(len(checks))
	r.SetValue(metricreg.MetricClaimScore, kgeval.Float(sum/n))
	r.SetValue(metricreg.MetricClaimScoreMin, kgeval.Float(least))
	r.SetValue(metricreg.MetricClaimContradiction, kgeval.Float(contra/n))
	for _, m := range names {
		delete(r.Reasons, m)
	}
	switch {
	case pn > 0 && failed == nil:
		// Every claim asked (prob), or those inside the cascade's band.
		r.SetValue(metricreg.MetricPSupported, kgeval.Float(psum/float64(pn)))
	case failed != nil:
		// A claim the model could not answer: the calibrated score fell
		// back to the fit without the model for it; p_supported is null.
		r.SetValue(metricreg.MetricPSupported, nil)
		r.Reasons[metricreg.MetricPSupported] = fmt.Sprintf("model check failed on %d of %d claims: %v", len(checks)-pn, len(checks), failed)
	case ps != nil:
		r.SetValue(metricreg.MetricPSupported, nil)
		r.Reasons[metricreg.MetricPSupported] = "not asked: the cascade settled every claim without the model"
	default:
		r.SetValue(metricreg.MetricPSupported, nil)
		r.Reasons[metricreg.MetricPSupported] = kgeval.ReasonNotApplicable + "scoring.verify is not prob or cascade"
	}
}

// ReadCalibration reads a calibration file written by `kgeval calibrate`.
// Errors: EINVALID for a file that cannot be read or is not one.
func ReadCalibration(path string) (Calibration, error) {
	var cal Calibration
	b, err := os.ReadFile(path)
	if err != nil {
		return cal, kgeval.Wrap(kgeval.EINVALID, err, "%s", path)
	}
	if err := json.Unmarshal(b, &cal); err != nil {
		return cal, kgeval.Wrap(kgeval.EINVALID, err, "%s", path)
	}
	named := func(f *Fit) bool { return f != nil && len(f.Names) > 0 }
	if !named(cal.WithModel) && !named(cal.WithoutModel) {
		return cal, kgeval.Errorf(kgeval.EINVALID, "%s: no model.names: not a file of `kgeval calibrate`", path)
	}
	return cal, nil
}
