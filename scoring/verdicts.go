package scoring

import (
	"fmt"
	"slices"
	"sort"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
)

// MatchTriplets finds the verdict matches of g from its edges (SPEC §4b,
// §4c): for input relation r (h, t) and context relation r' (h', t') joined
// by a relation SIMILAR edge, with ~ an entity SIMILAR edge and ≠ a
// CONFLICTS edge (input to context):
//
//	support:    (h~h' and t~t') or (h~t' and t~h')
//	contradict: (h~h' and t≠t') or (t~t' and h≠h') or (h~t' and t≠h') or (t~h' and h≠t')
//	answer:     an asked fact's known end k (the other is a slot): k~h' and t' is
//	            new, or k~t' and h' is new; a filler is new when it is no
//	            non-answer ("unknown") and no input entity is SIMILAR to it
//	            (an answer that restates the question fills no slot)
//	unfilled:   k~h' and t' is not new, or k~t' and h' is not new
//	typed:      an asked fact whose relation names the kind of value asked
//	            ("mission date": a date; Node.Want) is also answered by a
//	            context triplet whose relation does not match: k~h' and t'
//	            is new and of that type (Node.Fits), or k~t' and h' is
//	            (the question's "mission date" is the answer's "is
//	            scheduled to be launched on 30 July 2023"); a literal type
//	            (kgeval.LiteralWant) is answered only by a filler of that type,
//	            whatever the relation (a matching relation with another
//	            filler is unfilled)
//
// It is the native engine's half of the verdicts; the GDS engine asks the
// same of the stored graph in cypher/kgscore_verdicts.cypher.
func MatchTriplets(g *kgeval.PairGraph) []kgeval.VerdictMatch {
	x := newMatchIndex(g)
	ends := EndsOf(g)
	ctxRels := g.Relations(kgeval.SideContext)
	var out []kgeval.VerdictMatch
	for _, r := range g.Relations(kgeval.SideInput) {
		h, t, ok := ends.Get(r)
		if !ok {
			continue
		}
		// A typed asked fact is compared with every context triplet, the
		// others with those their relation matches.
		known, want := askedEnd(g, h, t)
		cands := x.relSim[r]
		if want != "" {
			cands = ctxRels
		}
		for _, c := range cands {
			h2, t2, ok := ends.Get(c)
			if !ok {
				continue
			}
			similar := x.relSimilar[nodePair{r, c}]
			m := kgeval.VerdictMatch{In: r, Ctx: c}
			if known >= 0 {
				m.Answer, m.Unfilled = x.slot(known, h2, t2, similar, want)
			} else {
				sim, conf := x.sim, x.conf
				m.Support = (sim[nodePair{h, h2}] && sim[nodePair{t, t2}]) || (sim[nodePair{h, t2}] && sim[nodePair{t, h2}])
				m.Contradict = (sim[nodePair{h, h2}] && conf[nodePair{t, t2}]) || (sim[nodePair{t, t2}] && conf[nodePair{h, h2}]) ||
					(sim[nodePair{h, t2}] && conf[nodePair{t, h2}]) || (sim[nodePair{t, h2}] && conf[nodePair{h, t2}])
			}
			if m.Support || m.Contradict || m.Answer || m.Unfilled {
				out = append(out, m)
			}
		}
	}
	SortMatches(out)
	return out
}

// nodePair is a directed pair of node IDs (an edge's ends).
type nodePair struct{ a, b int }

// matchIndex is the SIMILAR and CONFLICTS edges of a pair graph, indexed
// for MatchTriplets.
type matchIndex struct {
	g *kgeval.PairGraph
	// sim and conf: entity SIMILAR and CONFLICTS edges; named: the context
	// entities an input entity is SIMILAR to.
	sim, conf map[nodePair]bool
	named     map[int]bool
	// relSim lists the context relations each input relation is SIMILAR
	// to; relSimilar holds the same edges as pairs.
	relSim     map[int][]int
	relSimilar map[nodePair]bool
}

func newMatchIndex(g *kgeval.PairGraph) matchIndex {
	x := matchIndex{g: g, sim: map[nodePair]bool{}, conf: map[nodePair]bool{}, named: map[int]bool{},
		relSim: map[int][]int{}, relSimilar: map[nodePair]bool{}}
	for _, e := range g.Edges {
		switch {
		case e.Type == kgeval.EdgeConflict:
			x.conf[nodePair{e.From, e.To}] = true
		case e.Type == kgeval.EdgeSimilar && g.Nodes[e.From].Kind == kgeval.KindRelation:
			x.relSim[e.From] = append(x.relSim[e.From], e.To)
			x.relSimilar[nodePair{e.From, e.To}] = true
		case e.Type == kgeval.EdgeSimilar:
			x.sim[nodePair{e.From, e.To}] = true
			x.named[e.To] = true
		}
	}
	return x
}

// fills reports whether node n answers a slot at all. A filler answers
// only when it is new: not a non-answer ("unknown"), and not a node the
// input itself names (a context entity reached by an entity SIMILAR edge):
// restating the question does not answer it.
func (x matchIndex) fills(n int) bool { return !x.g.Nodes[n].NonAnswer && !x.named[n] }

// fits reports whether n is a filler of the type the asked relation names
// (want): any filler through a matching relation (similar) unless the type
// is a literal one, and through another relation only one of the type.
func (x matchIndex) fits(n int, want string, similar bool) bool {
	if similar && !kgeval.LiteralWant(want) {
		return true
	}
	return want != "" && slices.Contains(x.g.Nodes[n].Fits, want)
}

// slot matches an asked fact's known end k with one end of the context
// triplet (h2, t2); the other end fills the slot, with something new of
// the asked type (answer) or not (unfilled, when the relations match: why
// the asked fact stays unanswered).
func (x matchIndex) slot(k, h2, t2 int, similar bool, want string) (answer, unfilled bool) {
	for _, e := range [2][2]int{{h2, t2}, {t2, h2}} {
		if !x.sim[nodePair{k, e[0]}] {
			continue
		}
		switch {
		case x.fills(e[1]) && x.fits(e[1], want, similar):
			answer = true
		case similar:
			unfilled = true
		}
	}
	return answer, unfilled
}

// askedEnd returns, for the triplet (h, t) of an asked fact, its known end
// and the answer type its slot asks for (Node.Want, "" for none); known is
// -1 for a full triplet.
func askedEnd(g *kgeval.PairGraph, h, t int) (known int, want string) {
	switch {
	case g.Nodes[h].Kind == kgeval.KindSlot:
		return t, g.Nodes[h].Want
	case g.Nodes[t].Kind == kgeval.KindSlot:
		return h, g.Nodes[t].Want
	}
	return -1, ""
}

// SortMatches orders matches by input then context relation node.
func SortMatches(ms []kgeval.VerdictMatch) {
	sort.Slice(ms, func(i, j int) bool {
		if ms[i].In != ms[j].In {
			return ms[i].In < ms[j].In
		}
		return ms[i].Ctx < ms[j].Ctx
	})
}

// AssembleVerdicts turns an engine's matches into the verdict of every input
// triplet and the verdict scores of r (SPEC §4b, §4c), so that every engine
// shares one definition. A full triplet is supported when some match
// supports it (Conflict when another contradicts it), contradicted when
// matches only contradict it, else not_found; an asked fact is answered by
// an answering match (one whose filler is new, see MatchTriplets), or,
// when it is a full triplet of a question, by a
// supporting or contradicting one. Evidence is the match whose relations
// are most similar (lowest context node on a tie).
//
// support and contradiction count full triplets of an input that is not a
// question; slot_coverage counts the triplets of a question that the model
// extracted as asked facts (a rule-read triplet of a question, Source
// kgeval.SourceRules, states what the question gives and is no asked fact; it
// stays in the graph for multihop and communities); recall and F1
// are computed only against the reference (support is then precision).
func AssembleVerdicts(g *kgeval.PairGraph, matches []kgeval.VerdictMatch, r *kgeval.KGResult) {
	inRel, ctxRel := g.Relations(kgeval.SideInput), g.Relations(kgeval.SideContext)
	nullReasons(g, r, len(inRel) == 0 || len(ctxRel) == 0)
	if len(inRel) == 0 || len(ctxRel) == 0 {
		if r.Reason == "" {
			r.Reason = g.EmptyReason
		}
		return
	}
	ends := EndsOf(g)
	pick := newEvidencePicker(g, ends)
	byIn := map[int][]kgeval.VerdictMatch{}
	supportedCtx := map[int]bool{}
	for _, m := range matches {
		byIn[m.In] = append(byIn[m.In], m)
		if m.Support {
			supportedCtx[m.Ctx] = true
		}
	}
	question := g.Input == kgeval.TextQuestion
	var n verdictCounts
	for _, rel := range inRel {
		h, t, ok := ends.Get(rel)
		if !ok {
			continue
		}
		if question && g.Nodes[rel].Source == kgeval.SourceRules {
			// A statement of the question read by rule says what the
			// question gives, not what it asks: no asked fact.
			continue
		}
		known, want := askedEnd(g, h, t)
		v := kgeval.TripletVerdict{Node: rel, Subject: g.Nodes[h].Label, Relation: g.Nodes[rel].Label, Object: g.Nodes[t].Label,
			Asked: known >= 0, Source: g.Nodes[rel].Source, Want: want}
		ev := pick.best(rel, byIn[rel])
		switch {
		case question:
			askedVerdict(&v, ev, &n)
		case v.Asked:
			continue // a slot outside a question: not a fact
		default:
			fullVerdict(&v, ev, &n)
		}
		r.Verdicts = append(r.Verdicts, v)
	}
	if question {
		if n.asked > 0 {
			r.SetValue(metricreg.MetricSlotCoverage, kgeval.Float(float64(n.answered)/float64(n.asked)))
		} else {
			setReason(r, metricreg.MetricSlotCoverage, "no asked fact extracted from the question")
		}
		return
	}
	if n.full == 0 {
		return
	}
	p := float64(n.supported) / float64(n.full)
	r.SetValue(metricreg.MetricSupport, kgeval.Float(p))
	r.SetValue(metricreg.MetricContradiction, kgeval.Float(float64(n.contradicted)/float64(n.full)))
	if g.Context == kgeval.TextReference {
		recallF1(g, ends, ctxRel, supportedCtx, p, r)
	}
}

// setReason sets why metric m of r is null.
func setReason(r *kgeval.KGResult, m, why string) {
	if r.Reasons == nil {
		r.Reasons = map[string]string{}
	}
	r.Reasons[m] = why
}

// nullReasons sets the reasons of the KG metrics of r that AssembleVerdicts
// does not compute: those evaluate computes later from the sample texts or
// the model (the reason stands until it does), and those that do not apply
// to g's pair. empty says a side of g has no triplets: the sentence-evidence
// and model-checked metrics then have none either, for the graph's reason.
func nullReasons(g *kgeval.PairGraph, r *kgeval.KGResult, empty bool) {
	textWhy := kgeval.ReasonNotApplicable + "sentence evidence needs the sample texts (evaluate computes it)"
	verifyWhy := kgeval.ReasonNotApplicable + "scoring.verify is off"
	if empty && g.EmptyReason != "" {
		textWhy, verifyWhy = g.EmptyReason, g.EmptyReason
	}
	question := g.Input == kgeval.TextQuestion
	if r.Value(metricreg.MetricSupportVerified) == nil {
		setReason(r, metricreg.MetricSupportVerified, verifyWhy)
		setReason(r, metricreg.MetricContradictionVerified, verifyWhy)
	}
	if r.Value(metricreg.MetricClaimScore) == nil && !question {
		claimWhy := kgeval.ReasonNotApplicable + "claim verdicts need the sample texts (evaluate computes them)"
		for _, m := range []string{metricreg.MetricClaimScore, metricreg.MetricClaimScoreMin, metricreg.MetricPSupported, metricreg.MetricClaimContradiction} {
			setReason(r, m, claimWhy)
		}
	}
	if r.Value(metricreg.MetricSupportText) == nil {
		setReason(r, metricreg.MetricSupportText, textWhy)
		setReason(r, metricreg.MetricContradictionText, textWhy)
	}
	if r.Value(metricreg.MetricAtomSupport) == nil && !question {
		setReason(r, metricreg.MetricAtomSupport, kgeval.ReasonNotApplicable+"atoms need the sample texts (evaluate computes them)")
	}
	if r.Value(metricreg.MetricSlotCoverageText) == nil && question {
		setReason(r, metricreg.MetricSlotCoverageText, textWhy)
	}
	if r.Value(metricreg.MetricTypedSlotCoverage) == nil && question {
		setReason(r, metricreg.MetricTypedSlotCoverage, kgeval.ReasonNotApplicable+"typed asked facts need the sample texts (evaluate computes them)")
	}
	if !question {
		why := fmt.Sprintf("%sthe input is the %s, not a question", kgeval.ReasonNotApplicable, g.Input)
		for _, m := range []string{metricreg.MetricSlotCoverage, metricreg.MetricSlotCoverageText, metricreg.MetricTypedSlotCoverage} {
			setReason(r, m, why)
		}
	} else {
		why := kgeval.ReasonNotApplicable + "the input is a question: see slot_coverage"
		for _, m := range []string{metricreg.MetricSupport, metricreg.MetricContradiction, metricreg.MetricSupportText, metricreg.MetricContradictionText, metricreg.MetricAtomSupport,
			metricreg.MetricSupportVerified, metricreg.MetricContradictionVerified,
			metricreg.MetricClaimScore, metricreg.MetricClaimScoreMin, metricreg.MetricPSupported, metricreg.MetricClaimContradiction} {
			setReason(r, m, why)
		}
	}
	if g.Context != kgeval.TextReference || question {
		why := kgeval.ReasonNotApplicable + "only against the reference"
		setReason(r, metricreg.MetricRecall, why)
		setReason(r, metricreg.MetricF1, why)
	}
}

// evidencePicker chooses a triplet's evidence among its matches: the
// context triplet whose relation is most similar to the input's (relation
// SIMILAR weight; lowest context node on a tie).
type evidencePicker struct {
	g         *kgeval.PairGraph
	ends      TripletEnds
	relWeight map[[2]int]float64
}

func newEvidencePicker(g *kgeval.PairGraph, ends TripletEnds) evidencePicker {
	relWeight := map[[2]int]float64{}
	for _, e := range g.Edges {
		if e.Type == kgeval.EdgeSimilar && g.Nodes[e.From].Kind == kgeval.KindRelation {
			relWeight[[2]int{e.From, e.To}] = e.Weight
		}
	}
	return evidencePicker{g: g, ends: ends, relWeight: relWeight}
}

// evidence returns context triplet c as the evidence for input relation in.
func (x evidencePicker) evidence(in, c int) *kgeval.Evidence {
	h, t, _ := x.ends.Get(c)
	n := x.g.Nodes[c]
	w, related := x.relWeight[[2]int{in, c}]
	return &kgeval.Evidence{Node: c, Subject: x.g.Nodes[h].Label, Relation: n.Label, Object: x.g.Nodes[t].Label,
		Passage: n.Passage, Start: n.Start, End: n.End, Weight: w, ByType: !related}
}

// better reports whether context triplet c beats cur as in's evidence.
func (x evidencePicker) better(cur *kgeval.Evidence, in, c int) bool {
	w := x.relWeight[[2]int{in, c}]
	return cur == nil || w > cur.Weight || (w == cur.Weight && c < cur.Node)
}

// matchEvidence is the best evidence of each kind of match of one input
// triplet (nil: no such match).
type matchEvidence struct{ sup, con, ans, unf *kgeval.Evidence }

// best picks the evidence of input relation rel among its matches ms.
func (x evidencePicker) best(rel int, ms []kgeval.VerdictMatch) matchEvidence {
	var ev matchEvidence
	for _, m := range ms {
		if m.Unfilled && x.better(ev.unf, rel, m.Ctx) {
			ev.unf = x.evidence(rel, m.Ctx)
		}
		if m.Support && x.better(ev.sup, rel, m.Ctx) {
			ev.sup = x.evidence(rel, m.Ctx)
		}
		if m.Contradict && x.better(ev.con, rel, m.Ctx) {
			ev.con = x.evidence(rel, m.Ctx)
		}
		if m.Answer && x.better(ev.ans, rel, m.Ctx) {
			ev.ans = x.evidence(rel, m.Ctx)
		}
	}
	return ev
}

// verdictCounts counts the verdicts of one pair graph's input triplets.
type verdictCounts struct{ full, supported, contradicted, asked, answered int }

// askedVerdict gives v, a triplet of a question, its verdict: answered by
// an answering match, else by a supporting or contradicting one (a full
// triplet of the question), else unanswered with the unfilled match.
func askedVerdict(v *kgeval.TripletVerdict, ev matchEvidence, n *verdictCounts) {
	n.asked++
	switch {
	case ev.ans != nil:
		v.Verdict, v.Evidence = kgeval.VerdictAnswered, ev.ans
	case ev.sup != nil:
		v.Verdict, v.Evidence = kgeval.VerdictAnswered, ev.sup
	case ev.con != nil:
		v.Verdict, v.Evidence = kgeval.VerdictAnswered, ev.con
	default:
		v.Verdict, v.Unfilled = kgeval.VerdictUnanswered, ev.unf
	}
	if v.Verdict == kgeval.VerdictAnswered {
		n.answered++
	}
}

// fullVerdict gives v, a full triplet of an input that is not a question,
// its verdict: supported (with a conflict when a match also contradicts
// it), contradicted or not_found.
func fullVerdict(v *kgeval.TripletVerdict, ev matchEvidence, n *verdictCounts) {
	n.full++
	switch {
	case ev.sup != nil:
		v.Verdict, v.Evidence = kgeval.VerdictSupported, ev.sup
		if ev.con != nil {
			v.Conflict, v.Contradiction = true, ev.con
		}
		n.supported++
	case ev.con != nil:
		v.Verdict, v.Evidence = kgeval.VerdictContradicted, ev.con
		n.contradicted++
	default:
		v.Verdict = kgeval.VerdictNotFound
	}
}

// recallF1 sets recall (the share of the reference's full triplets that a
// match supports) and F1 with precision p, against the reference.
func recallF1(g *kgeval.PairGraph, ends TripletEnds, ctxRel []int, supportedCtx map[int]bool, p float64, r *kgeval.KGResult) {
	var ctxFull, covered int
	for _, c := range ctxRel {
		h, t, ok := ends.Get(c)
		if !ok || g.Nodes[h].Kind == kgeval.KindSlot || g.Nodes[t].Kind == kgeval.KindSlot {
			continue
		}
		ctxFull++
		if supportedCtx[c] {
			covered++
		}
	}
	if ctxFull == 0 {
		return
	}
	rec := float64(covered) / float64(ctxFull)
	r.SetValue(metricreg.MetricRecall, kgeval.Float(rec))
	f1 := 0.0
	if p+rec > 0 {
		f1 = 2 * p * rec / (p + rec)
	}
	r.SetValue(metricreg.MetricF1, kgeval.Float(f1))
}

// ApplyModelVerdicts records the model's verdicts on the open triplets of r
// (in the order OpenVerdicts returned them) and computes support_verified
// and contradiction_verified: the graph's verdict where the graph decided,
// the model's where it did not. The graph's own verdicts stay as they are.
func ApplyModelVerdicts(r *kgeval.KGResult, open []int, verdicts []kgeval.ModelVerdict) {
	for k, i := range open {
		if k < len(verdicts) {
			r.Verdicts[i].Model, r.Verdicts[i].ModelReason = verdicts[k].Verdict, verdicts[k].Reason
		}
	}
	full, sup, con := 0, 0, 0
	for _, v := range r.Verdicts {
		if v.Asked {
			continue
		}
		full++
		verdict := v.Verdict
		if v.Model != "" {
			verdict = v.Model
		}
		switch verdict {
		case kgeval.VerdictSupported:
			sup++
		case kgeval.VerdictContradicted:
			con++
		}
	}
	if full == 0 {
		return
	}
	r.SetValue(metricreg.MetricSupportVerified, kgeval.Float(float64(sup)/float64(full)))
	r.SetValue(metricreg.MetricContradictionVerified, kgeval.Float(float64(con)/float64(full)))
	delete(r.Reasons, metricreg.MetricSupportVerified)
	delete(r.Reasons, metricreg.MetricContradictionVerified)
}

// OpenVerdicts returns the indexes in r.Verdicts of the triplets the graph
// left open: not_found, or supported with a conflict. Asked facts are not
// checked, nor are triplets read by rule (extraction.method both or rules):
// their relation is the words between two phrases ("and", "for the"), no
// claim to put to the model, and asking about them multiplied the model
// check's prompts (see docs/SPEC-NOTES.md, §4b).
func OpenVerdicts(r *kgeval.KGResult) []int {
	var out []int
	for i, v := range r.Verdicts {
		if !v.Asked && v.Source != kgeval.SourceRules && (v.Verdict == kgeval.VerdictNotFound || v.Conflict) {
			out = append(out, i)
		}
	}
	return out
}
