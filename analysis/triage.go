package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// Triage is the run page's first view: per pair, the samples that need
// attention, ranked by the pair's headline metric (Headline) against its
// pass mark: failing first, then the lowest headline value. The pair's
// other KG scores are diagnostics: shown and marked pass or fail against
// their thresholds, but they neither make a row failing nor rank it. The
// first failing rows carry their failing facts (AttachWhy).
type Triage struct {
	Thresholds []Threshold   `json:"thresholds"`
	Pairs      []TriagePair  `json:"pairs"`
	Query      TriageQuery   `json:"query"`
	Systems    []string      `json:"systems"`
	Reasons    []string      `json:"reasons"`
	Samples    int           `json:"samples"`
	Delta      float64       `json:"delta,omitempty"`
	Tau        float64       `json:"tau,omitempty"`
	Columns    []TriageGloss `json:"columns"`
}

// Threshold is the pass mark of a KG metric: a value passes when it is at
// least Value (higher is better) or at most Value (lower is better).
type Threshold struct {
	Metric    string  `json:"metric"`
	Value     float64 `json:"value"`
	Direction string  `json:"direction"`
}

// TriageGloss says what a column of the triage tables means, from the
// metric registry.
type TriageGloss struct {
	Metric    string  `json:"metric"`
	Meaning   string  `json:"meaning"`
	Direction string  `json:"direction"`
	Lo        float64 `json:"lo"`
	Hi        float64 `json:"hi"`
}

// TriagePair is one pair's triage: the columns (its headline metric first,
// then the KG metrics with a value in the run), the headline's pass mark,
// how many samples the filter keeps (Total), how many of them fail the
// headline (Failing), and the first Limit rows.
type TriagePair struct {
	Pair     string `json:"pair"`
	Input    string `json:"input"`
	Context  string `json:"context"`
	Headline string `json:"headline"`
	// PassMark is the headline's pass mark, null for a pair without a
	// fitted one (HasMark): its rows neither pass nor fail.
	PassMark *float64 `json:"pass_mark"`
	// MarkSpread is how sure a calibrated mark is: the least and greatest
	// balanced accuracy of the training datasets at it (MarkSpread).
	MarkSpread *[2]float64 `json:"mark_spread,omitempty"`
	Columns    []string    `json:"columns"`
	Total      int         `json:"total"`
	Failing    int         `json:"failing"`
	Rows       []TriageRow `json:"rows"`
}

// TriageRow is one sample of a pair: its scores in column order with pass
// or fail (the headline first), Failing 1 when the headline fails (0 when
// it passes or is null), the pair's null reason, and (AttachWhy) the
// failing facts or, for a pair without verdicts, the input entities that
// reach no context entity within delta with their nearest match.
type TriageRow struct {
	ID      string          `json:"id"`
	Record  int             `json:"record"`
	System  string          `json:"system"`
	Failing int             `json:"failing"`
	Reason  string          `json:"reason,omitempty"`
	Cells   []TriageCell    `json:"cells"`
	Claims  []ClaimLine     `json:"claims,omitempty"`
	Why     []VerdictLine   `json:"why,omitempty"`
	Nearest []NearestEntity `json:"nearest,omitempty"`
	// WhyMore counts the failing claims, facts or entities left out of
	// Claims, Why or Nearest.
	WhyMore int `json:"why_more,omitempty"`
	// key is what the row is ranked by after Failing (keyValue).
	key float64
}

// TriageCell is one KG score of a row: Pass is nil when the value is null
// (Reason says why).
type TriageCell struct {
	Metric string   `json:"metric"`
	Value  *float64 `json:"value"`
	Pass   *bool    `json:"pass"`
	Reason string   `json:"reason,omitempty"`
}

// NearestEntity is an input entity of a failing row: the context entity its
// cheapest path reaches (Match), the path's cost and, when the path is one
// SIMILAR edge, its cosine (1 - cost).
type NearestEntity struct {
	Entity string   `json:"entity"`
	Match  string   `json:"match,omitempty"`
	Cost   *float64 `json:"cost"`
	Cosine *float64 `json:"cosine,omitempty"`
}

// TriageQuery filters and sorts the triage rows. Metric, Min and Max keep
// the rows whose value of Metric (a KG metric of the pair) is in range;
// Reason keeps the rows with that null reason (of the pair or of one of
// its scores); Sort orders by one column (nulls last) instead of worst
// first; Pair keeps one pair; Limit is the rows per pair.
type TriageQuery struct {
	Pair   string   `json:"pair,omitempty"`
	System *string  `json:"system,omitempty"`
	Metric string   `json:"metric,omitempty"`
	Min    *float64 `json:"min,omitempty"`
	Max    *float64 `json:"max,omitempty"`
	Reason *string  `json:"reason,omitempty"`
	Sort   string   `json:"sort,omitempty"`
	Desc   bool     `json:"desc,omitempty"`
	Limit  int      `json:"limit"`
}

// DefaultTriageLimit and MaxTriageLimit bound the rows per pair.
const (
	DefaultTriageLimit = 10
	MaxTriageLimit     = 200
)

// TriageMetrics are the KG metrics the triage tables show, in order: a
// pair's headline metric (Headline: score, or slot_coverage for a question
// pair) first, then the others the run has a value of for the pair.
var TriageMetrics = []string{metricreg.MetricClaimScore, metricreg.MetricMultihop, metricreg.MetricCommunityOverlap, metricreg.MetricSupport, metricreg.MetricContradiction,
	metricreg.MetricSlotCoverage, metricreg.MetricRecall, metricreg.MetricF1}

// DefaultThresholds are the pass marks used when the configuration
// (web.thresholds) names none for a metric: PassMark without the model,
// that is 0.5 for a higher-is-better KG score, 0 for a contradiction score
// (any contradicted fact fails) and the calibrated pass mark for score.
// The triage's score of a pair whose claims the model checked passes at
// the calibrated mark with the model (PairPassMark).
func DefaultThresholds() map[string]float64 {
	out := map[string]float64{}
	for _, m := range metricreg.KGMetricNames {
		out[m] = PassMark(m, false)
	}
	return out
}

// Passes reports whether v passes the threshold th of metric.
func Passes(metric string, v, th float64) bool {
	if metricreg.IsLowerBetter(metric) {
		return v <= th+1e-12
	}
	return v >= th-1e-12
}

// TriageIndex is what Triage queries: every row of every pair with its
// cells, built once per run (BuildTriageIndex) and filtered per request.
type TriageIndex struct {
	Thresholds map[string]float64
	// PassMarks are the pass marks of each pair's headline metric,
	// Spreads how sure a calibrated one is (MarkSpread).
	PassMarks map[string]float64
	Spreads   map[string]*[2]float64
	Pairs     []kgeval.Pair
	Columns   map[string][]string
	Rows      map[string][]TriageRow
	Systems   []string
	Reasons   []string
	Samples   int
}

// BuildTriageIndex marks every KG score of rows against thresholds (the
// defaults for metrics it does not name; a pair's headline against
// PairPassMark) and counts a row failing when its headline fails. A pair's
// columns are its headline, then the other TriageMetrics with at least one
// value in the run.
func BuildTriageIndex(rows []readmodel.SampleScores, pairs []kgeval.Pair, thresholds map[string]float64) *TriageIndex {
	th := DefaultThresholds()
	for k, v := range thresholds {
		th[k] = v
	}
	ix := &TriageIndex{Thresholds: th, PassMarks: map[string]float64{}, Spreads: map[string]*[2]float64{}, Pairs: pairs, Columns: map[string][]string{}, Rows: map[string][]TriageRow{}, Samples: len(rows)}
	systems, reasons := map[string]bool{}, map[string]bool{}
	for _, p := range pairs {
		head := HeadlineIn(rows, p)
		mark := PairPassMark(rows, p, thresholds)
		ix.PassMarks[p.Name] = mark
		if _, set := thresholds[head]; head == metricreg.MetricClaimScore && HasMark(p, head) && !set {
			if lo, hi, ok := MarkSpread(WithModel(rows, p.Name)); ok {
				ix.Spreads[p.Name] = &[2]float64{lo, hi}
			}
		}
		cols := []string{head}
		for _, m := range TriageMetrics {
			if m == head {
				continue
			}
			for _, r := range rows {
				if res, ok := r.Scores[p.Name]; ok && res.Value(m) != nil {
					cols = append(cols, m)
					break
				}
			}
		}
		ix.Columns[p.Name] = cols
		out := make([]TriageRow, 0, len(rows))
		for _, r := range rows {
			res, ok := r.Scores[p.Name]
			if !ok {
				continue
			}
			tr := TriageRow{ID: r.ID, Record: r.Record, System: r.System, Reason: res.Reason, Cells: make([]TriageCell, len(cols))}
			if res.Reason != "" {
				reasons[res.Reason] = true
			}
			for i, m := range cols {
				v, why, _ := HeadlineValue(r, p.Name, m)
				c := TriageCell{Metric: m, Value: v}
				if c.Value == nil {
					c.Reason = why
					if c.Reason != "" && !kgeval.NotApplicable(c.Reason) {
						reasons[c.Reason] = true
					}
				} else {
					mth := th[m]
					if i == 0 {
						mth = mark
					}
					if math.IsNaN(mth) {
						tr.Cells[i] = c
						continue
					}
					pass := Passes(m, *c.Value, mth)
					c.Pass = &pass
					if !pass && i == 0 {
						tr.Failing = 1
					}
				}
				tr.Cells[i] = c
			}
			tr.key = keyValue(tr)
			out = append(out, tr)
		}
		ix.Rows[p.Name] = out
	}
	for _, r := range rows {
		systems[r.System] = true
	}
	ix.Systems = sortedKeys(systems)
	ix.Reasons = sortedKeys(reasons)
	return ix
}

// keyValue is the value a row is ranked by after Failing: its headline
// (the first cell; a lower-is-better one turned round), NaN when null.
func keyValue(r TriageRow) float64 {
	if len(r.Cells) == 0 || r.Cells[0].Value == nil {
		return math.NaN()
	}
	if c := r.Cells[0]; metricreg.IsLowerBetter(c.Metric) {
		return 1 - *c.Value
	}
	return *r.Cells[0].Value
}

// Query filters and sorts the index. Errors: EINVALID for an unknown pair,
// sort column or filter metric.
func (ix *TriageIndex) Query(q TriageQuery) (*Triage, error) {
	if q.Limit == 0 {
		q.Limit = DefaultTriageLimit
	}
	if q.Limit < 0 || q.Limit > MaxTriageLimit {
		return nil, kgeval.Errorf(kgeval.EINVALID, "limit=%d: want 1 to %d", q.Limit, MaxTriageLimit)
	}
	if q.Pair != "" && !slices.ContainsFunc(ix.Pairs, func(p kgeval.Pair) bool { return p.Name == q.Pair }) {
		return nil, kgeval.Errorf(kgeval.EINVALID, "pair=%q: not a pair of this run", q.Pair)
	}
	for _, m := range []string{q.Sort, q.Metric} {
		if m != "" && metricreg.MetricFamily(m) != metricreg.FamilyKG {
			return nil, kgeval.Errorf(kgeval.EINVALID, "%q: not a KG metric (want one of %s)", m, strings.Join(metricreg.KGMetricNames, ", "))
		}
	}
	if (q.Min != nil || q.Max != nil) && q.Metric == "" {
		return nil, kgeval.Errorf(kgeval.EINVALID, "min and max need metric=")
	}
	t := &Triage{Query: q, Systems: ix.Systems, Reasons: ix.Reasons, Samples: ix.Samples, Pairs: []TriagePair{}}
	for _, m := range metricreg.KGMetricNames {
		info, _ := metricreg.LookupMetric(m)
		t.Thresholds = append(t.Thresholds, Threshold{Metric: m, Value: ix.Thresholds[m], Direction: info.Direction.String()})
	}
	seen := map[string]bool{}
	for _, p := range ix.Pairs {
		if q.Pair != "" && p.Name != q.Pair {
			continue
		}
		tp := TriagePair{Pair: p.Name, Input: string(p.Input), Context: string(p.Context), Headline: ix.Columns[p.Name][0], PassMark: finite(ix.PassMarks[p.Name]),
			Columns: ix.Columns[p.Name], Rows: []TriageRow{}}
		tp.MarkSpread = ix.Spreads[p.Name]
		if tp.Columns == nil {
			tp.Columns = []string{}
		}
		for _, m := range tp.Columns {
			if !seen[m] {
				seen[m] = true
				info, _ := metricreg.LookupMetric(m)
				t.Columns = append(t.Columns, TriageGloss{Metric: m, Meaning: info.Meaning, Direction: info.Direction.String(), Lo: info.Lo, Hi: info.Hi})
			}
		}
		rows := ix.Rows[p.Name]
		kept := make([]int32, 0, len(rows))
		filterCol := slices.Index(tp.Columns, q.Metric)
		for i := range rows {
			if keep(&rows[i], q, filterCol) {
				kept = append(kept, int32(i))
				if rows[i].Failing > 0 {
					tp.Failing++
				}
			}
		}
		tp.Total = len(kept)
		sortRows(rows, kept, q, slices.Index(tp.Columns, q.Sort))
		for _, i := range kept[:min(q.Limit, len(kept))] {
			r := rows[i]
			r.Cells = slices.Clone(r.Cells)
			tp.Rows = append(tp.Rows, r)
		}
		t.Pairs = append(t.Pairs, tp)
	}
	return t, nil
}

func keep(r *TriageRow, q TriageQuery, col int) bool {
	if q.System != nil && r.System != *q.System {
		return false
	}
	if q.Metric != "" && (q.Min != nil || q.Max != nil) {
		if col < 0 {
			return false
		}
		v := r.Cells[col].Value
		if v == nil || q.Min != nil && *v < *q.Min || q.Max != nil && *v > *q.Max {
			return false
		}
	}
	if q.Reason != nil {
		ok := r.Reason == *q.Reason
		for _, c := range r.Cells {
			ok = ok || c.Value == nil && c.Reason == *q.Reason
		}
		if !ok {
			return false
		}
	}
	return true
}

// cmpNaNLast compares a and b, NaN after every number; desc turns the
// order of numbers round.
func cmpNaNLast(a, b float64, desc bool) int {
	switch {
	case math.IsNaN(a) && math.IsNaN(b):
		return 0
	case math.IsNaN(a):
		return 1
	case math.IsNaN(b):
		return -1
	case desc:
		return cmp.Compare(b, a)
	}
	return cmp.Compare(a, b)
}

// sortRows orders the rows at idx worst first (a failing headline, then
// the lowest headline value, nulls last, then record), or, when q.Sort names a
// column (col), by it (nulls last, then record).
func sortRows(rows []TriageRow, idx []int32, q TriageQuery, col int) {
	value := func(i int32) float64 {
		if col >= 0 {
			if v := rows[i].Cells[col].Value; v != nil {
				return *v
			}
		}
		return math.NaN()
	}
	slices.SortStableFunc(idx, func(i, j int32) int {
		a, b := &rows[i], &rows[j]
		if q.Sort != "" {
			if c := cmpNaNLast(value(i), value(j), q.Desc); c != 0 {
				return c
			}
			return cmp.Compare(a.Record, b.Record)
		}
		if c := cmp.Compare(b.Failing, a.Failing); c != 0 {
			return c
		}
		if c := cmpNaNLast(a.key, b.key, false); c != 0 {
			return c
		}
		return cmp.Compare(a.Record, b.Record)
	})
}

// WhyRows is how many failing rows per pair AttachWhy explains, and
// WhyLines how many facts or entities it shows per row.
const (
	WhyRows        = 3
	WhyLinesPerRow = 3
)

// WhyTarget is a sample's pair whose why a triage row shows.
type WhyTarget struct{ ID, Pair string }

// WhyTargets returns what AttachWhy needs: the sample and pair of the
// first WhyRows failing rows of each pair.
func (t *Triage) WhyTargets() []WhyTarget {
	var out []WhyTarget
	for _, p := range t.Pairs {
		n := 0
		for _, r := range p.Rows {
			if n == WhyRows {
				break
			}
			if r.Failing == 0 {
				continue
			}
			n++
			out = append(out, WhyTarget{ID: r.ID, Pair: p.Pair})
		}
	}
	return out
}

// RowWhy is the why of one sample's pair as a triage row shows it: the
// failing claims, or the failing facts (at most WhyLinesPerRow), or the
// failed entities with their nearest match, and how many more there are.
type RowWhy struct {
	Claims  []ClaimLine
	Why     []VerdictLine
	Nearest []NearestEntity
	More    int
}

// ClaimLine is a claim of a triage row: its text, calibrated score and
// verdict, the model's P(supported) when it was asked, its first conflict
// and its best evidence sentence with what in the graph chose it.
type ClaimLine struct {
	Text     string   `json:"text"`
	Score    float64  `json:"score"`
	Verdict  string   `json:"verdict"`
	P        *float64 `json:"p_supported,omitempty"`
	Conflict string   `json:"conflict,omitempty"`
	Evidence string   `json:"evidence,omitempty"`
	Why      []string `json:"why,omitempty"`
}

// ClaimsWorstFirst returns the indices of cs lowest calibrated score first
// (ties in text order): the unsupported claims before the supported ones.
func ClaimsWorstFirst(cs []kgeval.ClaimCheck) []int {
	order := make([]int, len(cs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cs[a].Score, cs[b].Score) })
	return order
}

// failingClaims are the claims of a pair that are not supported, lowest
// score first, as claim lines.
func failingClaims(cs []kgeval.ClaimCheck) []ClaimLine {
	var out []ClaimLine
	for _, i := range ClaimsWorstFirst(cs) {
		c := cs[i]
		if c.Verdict == kgeval.ClaimSupported {
			continue
		}
		l := ClaimLine{Text: c.Text, Score: c.Score, Verdict: c.Verdict}
		if c.Model != nil {
			p := c.Model.P
			l.P = &p
		}
		if len(c.Conflicts) > 0 {
			x := c.Conflicts[0]
			l.Conflict = fmt.Sprintf("%s %q, the evidence says %q", x.Kind, x.Claim, x.Evidence)
		}
		if len(c.Evidence) > 0 {
			l.Evidence, l.Why = c.Evidence[0].Text, c.Evidence[0].Why
		}
		out = append(out, l)
	}
	return out
}

// WhyOfRow is the why of pair in a stored sample: the claims of the pair
// that are not supported, lowest score first (when its headline is the
// claim score); else the failing verdicts of the pair's input facts,
// contradicted first, with their evidence (SampleWhy); for a pair without
// either, the input entities that reach no context entity within delta,
// cheapest first, with their nearest context match.
func WhyOfRow(d *readmodel.SampleDetail, pair string) RowWhy {
	for _, pd := range d.Pairs {
		if pd.Pair.Name != pair || pd.Score == nil || Headline(pd.Pair) != metricreg.MetricClaimScore {
			continue
		}
		if cl := failingClaims(pd.Score.Claims); len(cl) > 0 {
			n := min(len(cl), WhyLinesPerRow)
			return RowWhy{Claims: cl[:n], More: len(cl) - n}
		}
	}
	_, _, lines := SampleWhy(d, []string{pair})
	var failing []VerdictLine
	for _, l := range lines {
		if o := l.Outcome(); o != kgeval.VerdictSupported && o != kgeval.VerdictAnswered || l.Conflict {
			failing = append(failing, l)
		}
	}
	if len(failing) > 0 {
		n := min(len(failing), WhyLinesPerRow)
		return RowWhy{Why: failing[:n], More: len(failing) - n}
	}
	near, more := nearest(d, pair)
	return RowWhy{Nearest: near, More: more}
}

// AttachWhy adds to the first WhyRows failing rows of each pair the why
// of their sample's pair (WhyOfRow) that why returns, if it has it.
func (t *Triage) AttachWhy(why func(id, pair string) (RowWhy, bool)) {
	for pi := range t.Pairs {
		p := &t.Pairs[pi]
		n := 0
		for ri := range p.Rows {
			r := &p.Rows[ri]
			if r.Failing == 0 || n == WhyRows {
				continue
			}
			n++
			if w, ok := why(r.ID, p.Pair); ok {
				r.Claims, r.Why, r.Nearest, r.WhyMore = w.Claims, w.Why, w.Nearest, w.More
			}
		}
	}
}

// nearest lists the input entities of a sample's pair graph that failed
// (no context entity within delta), cheapest path first.
func nearest(d *readmodel.SampleDetail, pair string) ([]NearestEntity, int) {
	var out []NearestEntity
	for _, pd := range d.Pairs {
		if pd.Pair.Name != pair {
			continue
		}
		for _, e := range pd.Paths {
			if e.Passed {
				continue
			}
			ne := NearestEntity{Entity: e.Label, Cost: e.Cost}
			if len(e.Path) > 1 {
				ne.Match = e.Path[len(e.Path)-1]
			}
			if e.Cost != nil && len(e.Path) == 2 {
				c := 1 - *e.Cost
				ne.Cosine = &c
			}
			out = append(out, ne)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Cost, out[j].Cost
		if a == nil || b == nil {
			return a != nil
		}
		return *a < *b
	})
	more := max(0, len(out)-WhyLinesPerRow)
	return out[:min(len(out), WhyLinesPerRow)], more
}

// finite is v, nil when it is NaN (no mark).
func finite(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	return &v
}
