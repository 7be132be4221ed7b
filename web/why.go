package web

import (
	"slices"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// WhyPair is one pair of the sample page's "why": its verdict scores and
// the verdict of every input triplet, contradictions first.
type WhyPair struct {
	Pair   kgeval.Pair
	Scores []WhyScore
	Lines  []WhyLine
	// Atoms and Slots are the pair's rule-read checks (atom_support,
	// typed_slot_coverage), failed ones first.
	Atoms, Slots []analysis.CheckLine
	// Reason says why the pair has no verdict (no triplet on a side).
	Reason string
}

// WhyScore is a verdict score of a pair; Reason says why a null one is
// null. Scores that do not apply to the pair are left out.
type WhyScore struct {
	Metric string
	Value  *float64
	Reason string
	// Lower marks a score whose smaller value is the better one.
	Lower bool
}

// WhyLine is a verdict line as the page draws it: Class names its colour
// (contradicted, conflict, not_found, supported, answered, unanswered) and
// ModelClass the model verdict's; Label is the verdict in words.
type WhyLine struct {
	analysis.VerdictLine
	Class, ModelClass, Label string
}

// whyPairs groups the why of v by pair, for the pairs that have a score
// with something to show: the pair of the first (worst) line first, and so
// on, then the pairs without a line in the run's order.
func whyPairs(v *analysis.SampleView) []WhyPair {
	order := map[string]int{}
	for _, l := range v.Why {
		if _, ok := order[l.Pair]; !ok {
			order[l.Pair] = len(order)
		}
	}
	pairs := slices.Clone(v.Pairs)
	slices.SortStableFunc(pairs, func(a, b readmodel.PairDetail) int {
		i, oka := order[a.Pair.Name]
		j, okb := order[b.Pair.Name]
		switch {
		case oka && okb:
			return i - j
		case oka:
			return -1
		case okb:
			return 1
		}
		return 0
	})
	var out []WhyPair
	for _, p := range pairs {
		if p.Score == nil {
			continue
		}
		wp := WhyPair{Pair: p.Pair}
		for _, m := range metricreg.KGMetricNames {
			if metricreg.GraphMetric(m) {
				continue
			}
			val, why := p.Score.Value(m), p.Score.ReasonFor(m)
			if val != nil || why != "" && !kgeval.NotApplicable(why) {
				wp.Scores = append(wp.Scores, WhyScore{Metric: m, Value: val, Reason: why, Lower: metricreg.IsLowerBetter(m)})
			}
		}
		for _, l := range v.Why {
			if l.Pair == p.Pair.Name {
				wp.Lines = append(wp.Lines, whyLine(l))
			}
		}
		for _, c := range v.Checks {
			if c.Pair != p.Pair.Name {
				continue
			}
			if c.Metric == metricreg.MetricAtomSupport {
				wp.Atoms = append(wp.Atoms, c)
			} else {
				wp.Slots = append(wp.Slots, c)
			}
		}
		if len(wp.Lines) == 0 {
			wp.Reason = p.Score.Reason
		}
		if len(wp.Lines) > 0 || len(wp.Scores) > 0 || len(wp.Atoms)+len(wp.Slots) > 0 {
			out = append(out, wp)
		}
	}
	return out
}

func whyLine(l analysis.VerdictLine) WhyLine {
	w := WhyLine{VerdictLine: l, Class: l.Outcome(), Label: strings.ReplaceAll(l.Verdict, "_", " ")}
	if l.Conflict {
		w.Class, w.Label = "conflict", w.Label+" · conflict"
	}
	if l.Model != "" {
		w.ModelClass = l.Model
	}
	return w
}

// DroppedRow is a triplet the grounding check dropped: the text it was
// extracted from ("answer", "passage 2"), the triplet and why.
type DroppedRow struct {
	Text    string
	Triplet string
	Reason  string
}

// Grounding is the sample page's summary of the grounding check: whether
// one was stored, how many triplets it kept, and those it dropped.
type Grounding struct {
	Checked bool
	Kept    int
	Dropped []DroppedRow
}

func groundingOf(gs []kgeval.Grounding) Grounding {
	out := Grounding{Checked: len(gs) > 0}
	for _, g := range gs {
		out.Kept += g.Kept
		where := analysis.Where(g.Text, g.Passage)
		for _, t := range g.Dropped {
			out.Dropped = append(out.Dropped, DroppedRow{Text: where, Triplet: analysis.Triplet(t.Subject, t.Relation, t.Object), Reason: t.Reason})
		}
	}
	return out
}
