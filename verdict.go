package kgeval

import (
	"context"
	"fmt"
	"slices"
	"sort"
)

// Verdicts of an input triplet (SPEC §4b, §4c).
const (
	VerdictSupported    = "supported"
	VerdictContradicted = "contradicted"
	VerdictNotFound     = "not_found"
	// An asked fact of a question (SPEC §4c) is answered or unanswered.
	VerdictAnswered   = "answered"
	VerdictUnanswered = "unanswered"
)

// Evidence is the context triplet behind a verdict, and where it came from.
type Evidence struct {
	// Node is the context relation node of the triplet.
	Node     int    `json:"node"`
	Subject  string `json:"subject"`
	Relation string `json:"relation"`
	Object   string `json:"object"`
	// Passage is the context passage (-1 when the context side is one text);
	// Start and End the byte span of the triplet's window or sentence in it.
	Passage int `json:"passage"`
	Start   int `json:"start,omitempty"`
	End     int `json:"end,omitempty"`
	// Weight is the cosine of the two relations (1 for identical keys).
	Weight float64 `json:"weight"`
	// ByType marks the evidence of an asked fact answered through another
	// relation by a new value of the type it asks for (SPEC §4c; Weight is
	// then 0: no relation SIMILAR edge joins the two).
	ByType bool `json:"by_type,omitempty"`
}

// TripletVerdict is the verdict on one input triplet of a pair graph.
type TripletVerdict struct {
	// Node is the input relation node of the triplet.
	Node     int    `json:"node"`
	Subject  string `json:"subject"`
	Relation string `json:"relation"`
	Object   string `json:"object"`
	// Asked marks an asked fact with a slot "?" (SPEC §4c).
	Asked bool `json:"asked,omitempty"`
	// Want is an asked fact's answer type, the kind of value its relation
	// names ("date" for "mission date"; Node.Want), "" for none.
	Want string `json:"want,omitempty"`
	// Source is the triplet's Source (SourceRules: read by rule).
	Source  string `json:"source,omitempty"`
	Verdict string `json:"verdict"`
	// Conflict is set when the context side both supports and contradicts
	// the triplet (the verdict is then supported).
	Conflict bool      `json:"conflict,omitempty"`
	Evidence *Evidence `json:"evidence,omitempty"`
	// Contradiction is the contradicting context triplet of a conflict.
	Contradiction *Evidence `json:"contradiction,omitempty"`
	// Unfilled is, for an unanswered asked fact, the context triplet that
	// matched its known end and relation but filled the slot with nothing
	// new (it repeats a name the question gives, or says the value is
	// unknown) or with no value of the literal type asked (LiteralWant):
	// why it is unanswered.
	Unfilled *Evidence `json:"unfilled,omitempty"`
	// Text is the verdict of the sentence check on a triplet the graph did
	// not find (supported, contradicted or ""), with its evidence sentence.
	Text         string    `json:"text,omitempty"`
	TextEvidence *Evidence `json:"text_evidence,omitempty"`
	// Model is the verdict of the model check (scoring.verify: llm) on a
	// triplet the graph left open, with its reason; empty otherwise.
	Model       string `json:"model,omitempty"`
	ModelReason string `json:"model_reason,omitempty"`
}

// VerdictMatch is one raw finding of an engine: input relation In and
// context relation Ctx state the same fact (Support), contradict each other
// (Contradict), Ctx answers the asked fact In (Answer), or Ctx matches the
// asked fact's known end and relation but fills its slot with nothing new
// (Unfilled: a name the question gives itself, a non-answer such as
// "unknown", or no value of the literal type asked). Every engine reports all matches; AssembleVerdicts picks the
// evidence, so engines agree exactly when their matches do.
type VerdictMatch struct {
	In, Ctx    int
	Support    bool
	Contradict bool
	Answer     bool
	Unfilled   bool
}

// Triplet returns the triplet of relation node r: the node with a
// structural edge into r and the node r points to.
func (g *PairGraph) Triplet(r int) (head, tail int, ok bool) {
	return g.tripletIndex().get(r)
}

// Triplets recovers the triplets of both sides: one per relation node, its
// subject the node with an edge into it and its object the node it points
// to, with the stored labels, passage (-1 on the input side), span and source. Build on the recovered sides
// gives the same nodes again, so sweeps rebuild stored graphs under other
// parameters without the original extraction.
func (g *PairGraph) Triplets() (in, ctx []Triplet) {
	ends := g.tripletIndex()
	for _, n := range g.Nodes {
		if n.Kind != KindRelation {
			continue
		}
		h, t, ok := ends.get(n.ID)
		if !ok {
			continue
		}
		tr := Triplet{Subject: g.Nodes[h].Label, Relation: n.Label, Object: g.Nodes[t].Label, Passage: n.Passage, Start: n.Start, End: n.End, Source: n.Source}
		if n.Side == SideInput {
			in = append(in, tr)
		} else {
			ctx = append(ctx, tr)
		}
	}
	return in, ctx
}

// tripletEnds maps each relation node to its head and tail.
type tripletEnds struct{ head, tail map[int]int }

func (g *PairGraph) tripletIndex() tripletEnds {
	x := tripletEnds{head: map[int]int{}, tail: map[int]int{}}
	for _, e := range g.Edges {
		if e.Type != EdgeStructural {
			continue
		}
		if g.Nodes[e.To].Kind == KindRelation {
			x.head[e.To] = e.From
		} else {
			x.tail[e.From] = e.To
		}
	}
	return x
}

func (x tripletEnds) get(r int) (head, tail int, ok bool) {
	h, okh := x.head[r]
	t, okt := x.tail[r]
	return h, t, okh && okt
}

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
//	            (LiteralWant) is answered only by a filler of that type,
//	            whatever the relation (a matching relation with another
//	            filler is unfilled)
//
// It is the native engine's half of the verdicts; the GDS engine asks the
// same of the stored graph in cypher/kgscore_verdicts.cypher.
func (g *PairGraph) MatchTriplets() []VerdictMatch {
	type pair struct{ a, b int }
	sim, conf, relSim, named := map[pair]bool{}, map[pair]bool{}, map[int][]int{}, map[int]bool{}
	relSimilar := map[pair]bool{}
	for _, e := range g.Edges {
		switch {
		case e.Type == EdgeConflict:
			conf[pair{e.From, e.To}] = true
		case e.Type == EdgeSimilar && g.Nodes[e.From].Kind == KindRelation:
			relSim[e.From] = append(relSim[e.From], e.To)
			relSimilar[pair{e.From, e.To}] = true
		case e.Type == EdgeSimilar:
			sim[pair{e.From, e.To}] = true
			named[e.To] = true
		}
	}
	// A filler answers only when it is new: not a non-answer ("unknown"),
	// and not a node the input itself names (a context entity reached by an
	// entity SIMILAR edge): restating the question does not answer it.
	fills := func(n int) bool { return !g.Nodes[n].NonAnswer && !named[n] }
	// fits: n is a filler of the type the asked relation names (want):
	// any filler through a matching relation (similar) unless the type is
	// a literal one, and through another relation only one of the type.
	fits := func(n int, want string, similar bool) bool {
		if similar && !LiteralWant(want) {
			return true
		}
		return want != "" && slices.Contains(g.Nodes[n].Fits, want)
	}
	// slot: an asked fact's known end k matches one end of the context
	// triplet (h2, t2); the other end fills the slot, with something new
	// of the asked type (answer) or not (unfilled, when the relations
	// match: why the asked fact stays unanswered).
	slot := func(k, h2, t2 int, similar bool, want string) (answer, unfilled bool) {
		for _, e := range [2][2]int{{h2, t2}, {t2, h2}} {
			if !sim[pair{k, e[0]}] {
				continue
			}
			switch {
			case fills(e[1]) && fits(e[1], want, similar):
				answer = true
			case similar:
				unfilled = true
			}
		}
		return answer, unfilled
	}
	ends := g.tripletIndex()
	ctxRels := g.Relations(SideContext)
	var out []VerdictMatch
	for _, r := range g.Relations(SideInput) {
		h, t, ok := ends.get(r)
		if !ok {
			continue
		}
		// A typed asked fact is compared with every context triplet, the
		// others with those their relation matches.
		known, want := g.askedEnd(h, t)
		cands := relSim[r]
		if want != "" {
			cands = ctxRels
		}
		for _, c := range cands {
			h2, t2, ok := ends.get(c)
			if !ok {
				continue
			}
			similar := relSimilar[pair{r, c}]
			m := VerdictMatch{In: r, Ctx: c}
			if known >= 0 {
				m.Answer, m.Unfilled = slot(known, h2, t2, similar, want)
			} else {
				m.Support = (sim[pair{h, h2}] && sim[pair{t, t2}]) || (sim[pair{h, t2}] && sim[pair{t, h2}])
				m.Contradict = (sim[pair{h, h2}] && conf[pair{t, t2}]) || (sim[pair{t, t2}] && conf[pair{h, h2}]) ||
					(sim[pair{h, t2}] && conf[pair{t, h2}]) || (sim[pair{t, h2}] && conf[pair{h, t2}])
			}
			if m.Support || m.Contradict || m.Answer || m.Unfilled {
				out = append(out, m)
			}
		}
	}
	SortMatches(out)
	return out
}

// askedEnd returns, for the triplet (h, t) of an asked fact, its known end
// and the answer type its slot asks for (Node.Want, "" for none); known is
// -1 for a full triplet.
func (g *PairGraph) askedEnd(h, t int) (known int, want string) {
	switch {
	case g.Nodes[h].Kind == KindSlot:
		return t, g.Nodes[h].Want
	case g.Nodes[t].Kind == KindSlot:
		return h, g.Nodes[t].Want
	}
	return -1, ""
}

// SortMatches orders matches by input then context relation node.
func SortMatches(ms []VerdictMatch) {
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
// SourceRules, states what the question gives and is no asked fact; it
// stays in the graph for multihop and communities); recall and F1
// are computed only against the reference (support is then precision).
func AssembleVerdicts(g *PairGraph, matches []VerdictMatch, r *KGResult) {
	setReason := func(m, why string) {
		if r.Reasons == nil {
			r.Reasons = map[string]string{}
		}
		r.Reasons[m] = why
	}
	inRel, ctxRel := g.Relations(SideInput), g.Relations(SideContext)
	// The sentence-evidence and model-checked metrics are computed by
	// evaluate from the verdicts: without triplets on a side there are
	// none, for the graph's reason.
	textWhy := ReasonNotApplicable + "sentence evidence needs the sample texts (evaluate computes it)"
	verifyWhy := ReasonNotApplicable + "scoring.verify is off"
	if (len(inRel) == 0 || len(ctxRel) == 0) && g.EmptyReason != "" {
		textWhy, verifyWhy = g.EmptyReason, g.EmptyReason
	}
	if r.SupportVerified == nil {
		setReason(MetricSupportVerified, verifyWhy)
		setReason(MetricContradictionVerified, verifyWhy)
	}
	if r.Score == nil && g.Input != TextQuestion {
		claimWhy := ReasonNotApplicable + "claim verdicts need the sample texts (evaluate computes them)"
		for _, m := range []string{MetricClaimScore, MetricClaimScoreMin, MetricPSupported, MetricClaimContradiction} {
			setReason(m, claimWhy)
		}
	}
	if r.SupportText == nil {
		setReason(MetricSupportText, textWhy)
		setReason(MetricContradictionText, textWhy)
	}
	question := g.Input == TextQuestion
	if r.AtomSupport == nil && !question {
		setReason(MetricAtomSupport, ReasonNotApplicable+"atoms need the sample texts (evaluate computes them)")
	}
	if r.SlotCoverageText == nil && question {
		setReason(MetricSlotCoverageText, textWhy)
	}
	if r.TypedSlotCoverage == nil && question {
		setReason(MetricTypedSlotCoverage, ReasonNotApplicable+"typed asked facts need the sample texts (evaluate computes them)")
	}
	if !question {
		setReason(MetricSlotCoverage, fmt.Sprintf("%sthe input is the %s, not a question", ReasonNotApplicable, g.Input))
		setReason(MetricSlotCoverageText, fmt.Sprintf("%sthe input is the %s, not a question", ReasonNotApplicable, g.Input))
		setReason(MetricTypedSlotCoverage, fmt.Sprintf("%sthe input is the %s, not a question", ReasonNotApplicable, g.Input))
	} else {
		why := ReasonNotApplicable + "the input is a question: see slot_coverage"
		for _, m := range []string{MetricSupport, MetricContradiction, MetricSupportText, MetricContradictionText, MetricAtomSupport, MetricSupportVerified, MetricContradictionVerified,
			MetricClaimScore, MetricClaimScoreMin, MetricPSupported, MetricClaimContradiction} {
			setReason(m, why)
		}
	}
	if g.Context != TextReference || question {
		why := ReasonNotApplicable + "only against the reference"
		setReason(MetricRecall, why)
		setReason(MetricF1, why)
	}
	if len(inRel) == 0 || len(ctxRel) == 0 {
		if r.Reason == "" {
			r.Reason = g.EmptyReason
		}
		return
	}
	ends := g.tripletIndex()
	relWeight := map[[2]int]float64{}
	for _, e := range g.Edges {
		if e.Type == EdgeSimilar && g.Nodes[e.From].Kind == KindRelation {
			relWeight[[2]int{e.From, e.To}] = e.Weight
		}
	}
	evidence := func(in, c int) *Evidence {
		h, t, _ := ends.get(c)
		n := g.Nodes[c]
		w, related := relWeight[[2]int{in, c}]
		return &Evidence{Node: c, Subject: g.Nodes[h].Label, Relation: n.Label, Object: g.Nodes[t].Label,
			Passage: n.Passage, Start: n.Start, End: n.End, Weight: w, ByType: !related}
	}
	better := func(cur *Evidence, in, c int) bool {
		w := relWeight[[2]int{in, c}]
		return cur == nil || w > cur.Weight || (w == cur.Weight && c < cur.Node)
	}
	byIn := map[int][]VerdictMatch{}
	supportedCtx := map[int]bool{}
	for _, m := range matches {
		byIn[m.In] = append(byIn[m.In], m)
		if m.Support {
			supportedCtx[m.Ctx] = true
		}
	}
	var full, supported, contradicted, asked, answered int
	for _, rel := range inRel {
		h, t, ok := ends.get(rel)
		if !ok {
			continue
		}
		if question && g.Nodes[rel].Source == SourceRules {
			// A statement of the question read by rule says what the
			// question gives, not what it asks: no asked fact.
			continue
		}
		known, want := g.askedEnd(h, t)
		v := TripletVerdict{Node: rel, Subject: g.Nodes[h].Label, Relation: g.Nodes[rel].Label, Object: g.Nodes[t].Label,
			Asked: known >= 0, Source: g.Nodes[rel].Source, Want: want}
		var sup, con, ans, unf *Evidence
		for _, m := range byIn[rel] {
			if m.Unfilled && better(unf, rel, m.Ctx) {
				unf = evidence(rel, m.Ctx)
			}
			if m.Support && better(sup, rel, m.Ctx) {
				sup = evidence(rel, m.Ctx)
			}
			if m.Contradict && better(con, rel, m.Ctx) {
				con = evidence(rel, m.Ctx)
			}
			if m.Answer && better(ans, rel, m.Ctx) {
				ans = evidence(rel, m.Ctx)
			}
		}
		if question {
			asked++
			switch {
			case ans != nil:
				v.Verdict, v.Evidence = VerdictAnswered, ans
			case sup != nil:
				v.Verdict, v.Evidence = VerdictAnswered, sup
			case con != nil:
				v.Verdict, v.Evidence = VerdictAnswered, con
			default:
				v.Verdict, v.Unfilled = VerdictUnanswered, unf
			}
			if v.Verdict == VerdictAnswered {
				answered++
			}
			r.Verdicts = append(r.Verdicts, v)
			continue
		}
		if v.Asked {
			continue // a slot outside a question: not a fact
		}
		full++
		switch {
		case sup != nil:
			v.Verdict, v.Evidence = VerdictSupported, sup
			if con != nil {
				v.Conflict, v.Contradiction = true, con
			}
			supported++
		case con != nil:
			v.Verdict, v.Evidence = VerdictContradicted, con
			contradicted++
		default:
			v.Verdict = VerdictNotFound
		}
		r.Verdicts = append(r.Verdicts, v)
	}
	if question {
		if asked > 0 {
			r.SlotCoverage = Float(float64(answered) / float64(asked))
		} else {
			setReason(MetricSlotCoverage, "no asked fact extracted from the question")
		}
		return
	}
	if full == 0 {
		return
	}
	p := float64(supported) / float64(full)
	r.Support = Float(p)
	r.Contradiction = Float(float64(contradicted) / float64(full))
	if g.Context == TextReference {
		var ctxFull, covered int
		for _, c := range ctxRel {
			h, t, ok := ends.get(c)
			if !ok || g.Nodes[h].Kind == KindSlot || g.Nodes[t].Kind == KindSlot {
				continue
			}
			ctxFull++
			if supportedCtx[c] {
				covered++
			}
		}
		if ctxFull > 0 {
			rec := float64(covered) / float64(ctxFull)
			r.Recall = Float(rec)
			f1 := 0.0
			if p+rec > 0 {
				f1 = 2 * p * rec / (p + rec)
			}
			r.F1 = Float(f1)
		}
	}
}

// FactCheck is one input triplet the graph left open (not_found, or both
// supported and contradicted), with the context sentences most likely to
// settle it (SPEC §4b, scoring.verify: llm).
type FactCheck struct {
	Subject  string   `json:"subject"`
	Relation string   `json:"relation"`
	Object   string   `json:"object"`
	Evidence []string `json:"evidence"`
}

// ModelVerdict is a model's verdict on a FactCheck: supported,
// contradicted or not_found, with its short reason.
type ModelVerdict struct {
	Verdict string `json:"verdict"`
	Reason  string `json:"reason"`
}

// Verifier asks a model about the triplets the graph left open.
type Verifier interface {
	// Verify checks each batch (the open triplets of one answer and pair) in
	// one cached question and returns one verdict per fact; a batch the
	// model could not answer has its error in errs (its verdicts nil).
	// progress, if not nil, is called after each batch. Errors:
	// EUNAVAILABLE when the cache cannot be reached; the context's error
	// when it ends.
	Verify(ctx context.Context, batches [][]FactCheck, progress func(done, total int)) (verdicts [][]ModelVerdict, errs []error, err error)
}

// ApplyModelVerdicts records the model's verdicts on the open triplets of r
// (in the order OpenVerdicts returned them) and computes support_verified
// and contradiction_verified: the graph's verdict where the graph decided,
// the model's where it did not. The graph's own verdicts stay as they are.
func ApplyModelVerdicts(r *KGResult, open []int, verdicts []ModelVerdict) {
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
		case VerdictSupported:
			sup++
		case VerdictContradicted:
			con++
		}
	}
	if full == 0 {
		return
	}
	r.SupportVerified, r.ContradictionVerified = Float(float64(sup)/float64(full)), Float(float64(con)/float64(full))
	delete(r.Reasons, MetricSupportVerified)
	delete(r.Reasons, MetricContradictionVerified)
}

// OpenVerdicts returns the indexes in r.Verdicts of the triplets the graph
// left open: not_found, or supported with a conflict. Asked facts are not
// checked, nor are triplets read by rule (extraction.method both or rules):
// their relation is the words between two phrases ("and", "for the"), no
// claim to put to the model, and asking about them multiplied the model
// check's prompts (see docs/SPEC-NOTES.md, §4b).
func OpenVerdicts(r *KGResult) []int {
	var out []int
	for i, v := range r.Verdicts {
		if !v.Asked && v.Source != SourceRules && (v.Verdict == VerdictNotFound || v.Conflict) {
			out = append(out, i)
		}
	}
	return out
}
