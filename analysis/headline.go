package analysis

import (
	_ "embed"
	"encoding/json"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/kgeval/kgeval/scoring/claims"
	"github.com/kgeval/kgeval/stats"
)

// The headline: one metric per pair that says, for people, whether a
// sample's pair is good, against one pass mark. `kgeval evaluate` prints it
// first and the dashboard's triage ranks by it; every other score of the
// pair is a diagnostic.

// Headline returns the headline metric of a pair, chosen by the kinds of
// its texts, not by its name: slot_coverage when the input is the question
// (does the other side answer what the question asks: answer and context
// relevance), score otherwise (the calibrated probability that the input's
// claims are supported by the other side: faithfulness, factual
// correctness).
func Headline(p kgeval.Pair) string {
	if p.Input == kgeval.TextQuestion {
		return metricreg.MetricSlotCoverage
	}
	return metricreg.MetricClaimScore
}

// HeadlineIn is the headline metric of a pair in rows: Headline, except
// that
//   - a question pair whose slot_coverage has no value in any row (the
//     model's asked facts are extracted only with extraction.method both or
//     llm) reads typed_slot_coverage, the question's when/where/who/how-many
//     clauses answered, read by rule, when some row has it;
//   - an answer read against the reference (factual_correctness) reads
//     bert_score_f1, else semantic_similarity, when some row has it: on two
//     answer-equivalence sets they tell a correct answer from a wrong one
//     (AUROC 0.76-0.91) where the claim score does not (0.64-0.71), and
//     their pass marks are fitted there (ReferenceMarks).
func HeadlineIn(rows []readmodel.SampleScores, p kgeval.Pair) string {
	m := Headline(p)
	if m == metricreg.MetricSlotCoverage && !hasValue(rows, p.Name, m) && hasValue(rows, p.Name, metricreg.MetricTypedSlotCoverage) {
		return metricreg.MetricTypedSlotCoverage
	}
	if readsReference(p) {
		for _, alt := range []string{metricreg.MetricBERTScoreF1, metricreg.MetricSemanticSimilarity} {
			if hasValue(rows, p.Name, alt) {
				return alt
			}
		}
	}
	return m
}

// readsReference reports whether p reads an answer against the reference.
func readsReference(p kgeval.Pair) bool {
	return p.Input == kgeval.TextAnswer && p.Context == kgeval.TextReference
}

// HeadlineValue is the value of a pair's headline metric m in row r (from
// the pair's KG result, or from the sample's metrics for an encoder metric
// such as bert_score_f1), with its null reason; ok false when the row has
// no result for the pair.
func HeadlineValue(r readmodel.SampleScores, pair, m string) (v *float64, reason string, ok bool) {
	if metricreg.MetricFamily(m) == metricreg.FamilyKG {
		res, ok := r.Scores[pair]
		if !ok {
			return nil, "", false
		}
		return res.Value(m), res.ReasonFor(m), true
	}
	if _, ok := r.Scores[pair]; !ok {
		return nil, "", false
	}
	s, ok := r.Metrics[m]
	if !ok {
		return nil, "not computed", true
	}
	return s.Value, s.Reason, true
}

//go:embed reference_marks.json
var referenceMarksJSON []byte

// ReferenceMark is a pass mark of a score of an answer against its
// reference, fitted on answer-equivalence sets (testdata/rel_*.jsonl,
// scripts/fit-reference-marks.py): the mark with the best mean balanced
// accuracy over the sets, and each set's balanced accuracy at a mark
// chosen on the other (leave one dataset out).
type ReferenceMark struct {
	PassMark  float64            `json:"pass_mark"`
	LODO      map[string]float64 `json:"lodo_balanced_accuracy"`
	MacroLODO float64            `json:"macro_lodo_balanced_accuracy"`
	AtMark    map[string]float64 `json:"balanced_accuracy_at_mark"`
	Sets      []string           `json:"sets"`
}

// ReferenceMarks are the committed marks by metric (reference_marks.json).
var ReferenceMarks = sync.OnceValue(func() map[string]ReferenceMark {
	var f struct {
		Marks map[string]ReferenceMark `json:"marks"`
	}
	if err := json.Unmarshal(referenceMarksJSON, &f); err != nil {
		panic("analysis: reference_marks.json: " + err.Error())
	}
	return f.Marks
})

// HeadlinePairs returns pairs in the order the headline is read: the pairs
// that read the answer (as input or as the other side) first, then the
// rest (context relevance, which judges the retriever), each group in the
// given order.
func HeadlinePairs(pairs []kgeval.Pair) []kgeval.Pair {
	out := slices.Clone(pairs)
	readsAnswer := func(p kgeval.Pair) bool { return p.Input == kgeval.TextAnswer || p.Context == kgeval.TextAnswer }
	slices.SortStableFunc(out, func(a, b kgeval.Pair) int {
		switch ra, rb := readsAnswer(a), readsAnswer(b); {
		case ra && !rb:
			return -1
		case rb && !ra:
			return 1
		}
		return 0
	})
	return out
}

// calibration is the committed claim calibration, read once.
var calibration = sync.OnceValues(claims.DefaultCalibration)

// PassMark returns the pass mark of a metric: for score, the calibrated
// pass mark of claims.DefaultCalibration, of its fit with the model's
// P(supported) when withModel (the pair's claims were checked by the model:
// p_supported has values in the run) and of its fit without it otherwise;
// for any other metric its default threshold (DefaultThresholds: 0.5, or 0
// for a lower-is-better one).
func PassMark(metric string, withModel bool) float64 {
	if metric == metricreg.MetricClaimScore {
		if c, err := calibration(); err == nil {
			if withModel {
				return c.ModelPassMark()
			}
			return c.WithoutModel.PassMark
		}
	}
	if metricreg.IsLowerBetter(metric) {
		return 0
	}
	return 0.5
}

// MarkSpread is how sure the calibrated pass mark of score is: the least
// and greatest balanced accuracy the training mix's datasets reach at it
// on held-out predictions (the cascade's with the model, the zero-call
// fit's without), ok false when the calibration does not record it.
func MarkSpread(withModel bool) (lo, hi float64, ok bool) {
	c, err := calibration()
	if err != nil {
		return 0, 0, false
	}
	r := c.WithoutModel.BARange
	if withModel {
		r = c.WithModel.BARange
		if c.Cascade != nil {
			r = c.Cascade.BARange
		}
	}
	return r[0], r[1], r != [2]float64{}
}

// PairMark is the pass mark of pair's headline metric in rows
// (PairPassMark; NaN without a fitted mark) and what it is: calibrated when
// it is the fitted mark (HasMark) as built in, configured when thresholds
// set it to another value. A value is a pass or a fail only against one of
// the two (the Python package's pass reads only them).
func PairMark(rows []readmodel.SampleScores, p kgeval.Pair, thresholds map[string]float64) (mark float64, calibrated, configured bool) {
	mark = PairPassMark(rows, p, thresholds)
	if math.IsNaN(mark) {
		return mark, false, false
	}
	if builtIn := PairPassMark(rows, p, nil); mark != builtIn {
		return mark, false, true
	}
	return mark, true, false
}

// WithModel reports whether the claims of pair were scored with the model's
// P(supported) in rows: p_supported has a value for at least one sample.
func WithModel(rows []readmodel.SampleScores, pair string) bool {
	for _, r := range rows {
		if res, ok := r.Scores[pair]; ok && res.Value(metricreg.MetricPSupported) != nil {
			return true
		}
	}
	return false
}

// HasMark reports whether pair's headline metric m has a pass mark fitted
// on labelled data: faithfulness's score (an answer's claims against the
// contexts; calibration and mark fitted on the training mix), and an
// answer's bert_score_f1 or semantic_similarity against the reference
// (ReferenceMarks). The other pairs show their score and no pass or fail:
// no labelled set the repository ships fits a mark for answer or context
// relevance; docs/SPEC-NOTES.md §4d”.
func HasMark(p kgeval.Pair, m string) bool {
	if p.Input == kgeval.TextAnswer && p.Context == kgeval.TextContexts {
		return m == metricreg.MetricClaimScore
	}
	if readsReference(p) {
		_, ok := ReferenceMarks()[m]
		return ok
	}
	return false
}

// PairPassMark is the pass mark of pair's headline metric in rows
// (HeadlineIn): NaN for a pair without a fitted mark (HasMark); else the
// configured threshold of the metric when thresholds names it
// (web.thresholds), else its fitted mark (PassMark with the model when
// WithModel, or ReferenceMarks).
func PairPassMark(rows []readmodel.SampleScores, p kgeval.Pair, thresholds map[string]float64) float64 {
	m := HeadlineIn(rows, p)
	if !HasMark(p, m) {
		return math.NaN()
	}
	if rm, ok := ReferenceMarks()[m]; ok && readsReference(p) {
		if v, ok := thresholds[m]; ok {
			return v
		}
		return rm.PassMark
	}
	if v, ok := thresholds[m]; ok {
		return v
	}
	return PassMark(m, m == metricreg.MetricClaimScore && WithModel(rows, p.Name))
}

// HeadlineStat is one row of the headline table: a pair's headline metric
// over the samples of one system, or over all samples (All; System ""):
// its mean over the N samples with a value, how many of them pass the pass
// mark, and the null reasons of the others.
type HeadlineStat struct {
	Pair   kgeval.Pair
	Metric string
	System string
	All    bool
	// Mean is NaN when N is 0.
	Mean     float64
	N        int
	Passing  int
	PassMark float64
	// WithModel says the pass mark is the calibrated one with the model's
	// P(supported) (score only).
	WithModel bool
	// HasMark is false for a pair without a fitted mark (PassMark NaN,
	// Passing 0): its score is shown, no pass or fail.
	HasMark bool
	// Calibrated says the mark is the fitted one, not overridden by
	// thresholds (PairMark).
	Calibrated bool
	// Nulls counts the samples of the pair without a value, by reason.
	Nulls map[string]int
}

// Share is the share of the samples with a value that pass (NaN when
// there is none).
func (h HeadlineStat) Share() float64 {
	if h.N == 0 {
		return math.NaN()
	}
	return float64(h.Passing) / float64(h.N)
}

// Headlines is the headline table of a run: for each pair (HeadlinePairs
// order) with a result in rows, its headline metric (Headline) with mean,
// n and the number passing its pass mark (PairPassMark with thresholds:
// nil for the calibrated and default marks): one row per system (sorted)
// when rows hold several systems, else one row over all samples, which is
// also the one row of a pair without any value (null everywhere).
func Headlines(rows []readmodel.SampleScores, pairs []kgeval.Pair, thresholds map[string]float64) []HeadlineStat {
	systems := map[string]bool{}
	for _, r := range rows {
		systems[r.System] = true
	}
	var names []string
	for s := range systems {
		names = append(names, s)
	}
	sort.Strings(names)
	all := len(names) <= 1
	var out []HeadlineStat
	for _, p := range HeadlinePairs(pairs) {
		m := HeadlineIn(rows, p)
		mark := PairPassMark(rows, p, thresholds)
		withModel := m == metricreg.MetricClaimScore && WithModel(rows, p.Name)
		_, calibrated, _ := PairMark(rows, p, thresholds)
		if _, ok := thresholds[m]; ok {
			withModel = false
		}
		groups := names
		if all || !hasValue(rows, p.Name, m) {
			groups = []string{""}
		}
		for _, sys := range groups {
			one := len(groups) == 1 && sys == ""
			h := HeadlineStat{Pair: p, Metric: m, System: sys, All: one, PassMark: mark, WithModel: withModel, HasMark: HasMark(p, m), Calibrated: calibrated, Nulls: map[string]int{}}
			var vals []float64
			seen := false
			for _, r := range rows {
				if !one && r.System != sys {
					continue
				}
				v, reason, ok := HeadlineValue(r, p.Name, m)
				if !ok {
					continue
				}
				seen = true
				if v == nil {
					h.Nulls[reason]++
					continue
				}
				vals = append(vals, *v)
				if h.HasMark && Passes(m, *v, mark) {
					h.Passing++
				}
			}
			if !seen {
				continue
			}
			h.N = len(vals)
			h.Mean, _ = stats.MeanStd(vals)
			out = append(out, h)
		}
	}
	return out
}

// hasValue reports whether metric has a value for pair in rows.
func hasValue(rows []readmodel.SampleScores, pair, metric string) bool {
	for _, r := range rows {
		if v, _, ok := HeadlineValue(r, pair, metric); ok && v != nil {
			return true
		}
	}
	return false
}
