package check

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/stats"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
)

// WinRate is a paired comparison of a good and a bad system on one metric,
// over the questions both answered with both values present.
type WinRate struct {
	N      int `json:"n"`
	Wins   int `json:"wins"`
	Ties   int `json:"ties"`
	Losses int `json:"losses"`
	// NullGood and NullBad count the paired questions where the good or the
	// bad system's value is null (both may be).
	NullGood int `json:"null_good"`
	NullBad  int `json:"null_bad"`
	// Rate is (wins + ties/2) / N, and Lo, Hi its 95% percentile-bootstrap
	// interval over questions; all null when N is 0.
	Rate *float64 `json:"win_rate"`
	Lo   *float64 `json:"ci_lo"`
	Hi   *float64 `json:"ci_hi"`
}

// Bootstrap defaults of `kgeval validity`.
const (
	BootstrapResamples = 10000
	BootstrapSeed      = 1
)

// PairedWinRate compares good[i] with bad[i] (the two systems' values for
// question i; nil is null): a win when good is better in direction dir, a
// tie when equal, else a loss. The interval is Bootstrap's with resamples
// and seed.
func PairedWinRate(good, bad []*float64, dir metricreg.Direction, resamples int, seed uint64) WinRate {
	var w WinRate
	var outcomes []float64
	for i := range good {
		g, b := good[i], bad[i]
		gok, bok := g != nil && stats.Finite(*g), b != nil && stats.Finite(*b)
		if !gok {
			w.NullGood++
		}
		if !bok {
			w.NullBad++
		}
		if !gok || !bok {
			continue
		}
		d := *g - *b
		if dir == metricreg.LowerIsBetter {
			d = -d
		}
		switch {
		case d > 0:
			w.Wins++
			outcomes = append(outcomes, 1)
		case d < 0:
			w.Losses++
			outcomes = append(outcomes, 0)
		default:
			w.Ties++
			outcomes = append(outcomes, 0.5)
		}
	}
	w.N = len(outcomes)
	if w.N == 0 {
		return w
	}
	w.Rate = stats.Ptr((float64(w.Wins) + float64(w.Ties)/2) / float64(w.N))
	lo, hi := Bootstrap(outcomes, resamples, seed)
	w.Lo, w.Hi = stats.Ptr(lo), stats.Ptr(hi)
	return w
}

// Bootstrap returns the 95% percentile-bootstrap interval of the mean of
// outcomes (one per question: 1 win, ½ tie, 0 loss): resamples times, draw
// len(outcomes) questions with replacement (PCG seeded with seed) and take
// the mean; sort the means m_1 <= … <= m_B and return m_k for k =
// ceil(0.025·B) and k = ceil(0.975·B) (1-based). The same outcomes, B and
// seed give the same interval. It must not be called with no outcome.
func Bootstrap(outcomes []float64, resamples int, seed uint64) (lo, hi float64) {
	n := len(outcomes)
	if resamples < 1 {
		resamples = 1
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	means := make([]float64, resamples)
	for b := range means {
		var s float64
		for range n {
			s += outcomes[rng.IntN(n)]
		}
		means[b] = s / float64(n)
	}
	sort.Float64s(means)
	k := func(per1000 int) int { return (per1000*resamples + 999) / 1000 } // ceil(per1000/1000 · B)
	return means[max(k(25), 1)-1], means[k(975)-1]
}

// ValidityOptions names the systems of a WikiEval-style run: Good answers
// every question well; BadFaithfulness answers it fluently without support
// in the contexts (faithfulness metrics should prefer Good to it);
// BadRelevance answers off the question (relevance metrics should prefer
// Good to it). Resamples and Seed are the bootstrap's (0: the defaults).
// Sensitivity, when set, is a sensitivity experiment's separations
// (Separate), joined to the rows by metric name.
type ValidityOptions struct {
	Good, BadFaithfulness, BadRelevance string
	Resamples                           int
	Seed                                uint64
	Sensitivity                         []analysis.Separation
}

// ValidityRow is one metric compared against one bad system.
type ValidityRow struct {
	Metric    string `json:"metric"`
	Type      string `json:"type"`
	Direction string `json:"direction"`
	Note      string `json:"note,omitempty"`
	// Against is the bad system Good is compared with.
	Against string `json:"against"`
	WinRate
	// AUROC and CohensD come from the sensitivity experiment
	// (reference_as_answer against wrong_answer), turned round for a
	// lower-is-better metric (1 − AUROC, −d) so that above 0.5 and above 0
	// are right for every metric; null when not asked for or not computed.
	AUROC   *float64 `json:"auroc,omitempty"`
	CohensD *float64 `json:"cohens_d,omitempty"`
	Reason  string   `json:"reason,omitempty"`
}

// ValidityReport is the validity table of a run.
type ValidityReport struct {
	Good            string `json:"good"`
	BadFaithfulness string `json:"bad_faithfulness"`
	BadRelevance    string `json:"bad_relevance"`
	// Questions counts the questions each pair of systems answered once
	// each, by bad system.
	Questions map[string]int `json:"questions"`
	Resamples int            `json:"bootstrap_resamples"`
	Seed      uint64         `json:"bootstrap_seed"`
	// Rows holds, in this order, the faithfulness-type metrics against
	// BadFaithfulness, the relevance-type against BadRelevance, then the
	// reference-based, other, unclassified and answer-blind metrics
	// against both; within a type by win rate, best first, then by name.
	Rows []ValidityRow `json:"rows"`
}

// validityOrder is the order of the types in a report.
var validityOrder = []string{metricreg.TypeFaithfulness, metricreg.TypeRelevance, metricreg.TypeReference, metricreg.TypeOther,
	metricreg.TypeUnclassified, metricreg.TypeNoAnswer}

// Validity compares, for each named variable of v (one value per row), the
// Good system with the bad system(s) its type calls for (ValidityOf),
// paired by question: the questions each system answered exactly once.
// Errors: EINVALID when a system is missing from rows.
func Validity(rows []analysis.Row, v analysis.Vectors, names []string, o ValidityOptions) (ValidityReport, error) {
	if o.Resamples <= 0 {
		o.Resamples = BootstrapResamples
	}
	if o.Seed == 0 {
		o.Seed = BootstrapSeed
	}
	rep := ValidityReport{Good: o.Good, BadFaithfulness: o.BadFaithfulness, BadRelevance: o.BadRelevance,
		Questions: map[string]int{}, Resamples: o.Resamples, Seed: o.Seed, Rows: []ValidityRow{}}
	bySystem := map[string][]int{}
	for i, r := range rows {
		bySystem[analysis.SystemOf(r)] = append(bySystem[analysis.SystemOf(r)], i)
	}
	for _, s := range []string{o.Good, o.BadFaithfulness, o.BadRelevance} {
		if bySystem[s] == nil {
			return rep, kgeval.Errorf(kgeval.EINVALID, "the run has no system %q (it has: %s)", s, strings.Join(sortedSystems(bySystem), ", "))
		}
	}
	// paired[bad] lists, per question both answered once, the row of Good
	// and the row of bad.
	good := analysis.ByQuestion(rows, bySystem[o.Good])
	paired := map[string][][2]int{}
	for _, bad := range []string{o.BadFaithfulness, o.BadRelevance} {
		qb := analysis.ByQuestion(rows, bySystem[bad])
		var qs []string
		for q, is := range good {
			if len(is) == 1 && len(qb[q]) == 1 {
				qs = append(qs, q)
			}
		}
		sort.Strings(qs)
		for _, q := range qs {
			paired[bad] = append(paired[bad], [2]int{good[q][0], qb[q][0]})
		}
		rep.Questions[bad] = len(qs)
	}
	sens := map[string]analysis.Separation{}
	for _, s := range o.Sensitivity {
		sens[s.Metric] = s
	}
	for _, name := range names {
		c := metricreg.ValidityOf(name)
		against := []string{o.BadFaithfulness, o.BadRelevance}
		switch c.Type {
		case metricreg.TypeFaithfulness:
			against = against[:1]
		case metricreg.TypeRelevance:
			against = against[1:]
		}
		for _, bad := range against {
			x := v[name]
			gv, bv := make([]*float64, len(paired[bad])), make([]*float64, len(paired[bad]))
			for i, p := range paired[bad] {
				gv[i], bv[i] = x[p[0]], x[p[1]]
			}
			r := ValidityRow{Metric: name, Type: c.Type, Direction: c.Direction.String(), Note: c.Note, Against: bad,
				WinRate: PairedWinRate(gv, bv, c.Direction, o.Resamples, o.Seed)}
			if r.N == 0 {
				r.Reason = fmt.Sprintf("no question with values for both %s and %s", o.Good, bad)
			}
			if s, ok := sens[name]; ok {
				r.AUROC, r.CohensD = s.AUROC, s.CohensD
				if c.Direction == metricreg.LowerIsBetter {
					if r.AUROC != nil {
						r.AUROC = stats.Ptr(1 - *r.AUROC)
					}
					if r.CohensD != nil {
						r.CohensD = stats.Ptr(-*r.CohensD)
					}
				}
			}
			rep.Rows = append(rep.Rows, r)
		}
	}
	rank := map[string]int{}
	for i, t := range validityOrder {
		rank[t] = i
	}
	sort.SliceStable(rep.Rows, func(i, j int) bool {
		a, b := rep.Rows[i], rep.Rows[j]
		switch {
		case rank[a.Type] != rank[b.Type]:
			return rank[a.Type] < rank[b.Type]
		case (a.Rate == nil) != (b.Rate == nil):
			return a.Rate != nil
		case a.Rate != nil && *a.Rate != *b.Rate:
			return *a.Rate > *b.Rate
		case a.Metric != b.Metric:
			return a.Metric < b.Metric
		}
		return a.Against == o.BadFaithfulness && b.Against != o.BadFaithfulness
	})
	return rep, nil
}

func sortedSystems(m map[string][]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
