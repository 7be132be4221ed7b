package scoringtest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
	"github.com/kgeval/kgeval/metricreg"
)

// RelSim is a SIMILAR edge from input relation In to context relation Ctx
// (indexes into the triplet lists).
type RelSim struct {
	In, Ctx int
	Cos     float64
}

// VerdictGraph builds a pair graph for the triplet verdicts (SPEC §4b, §4c):
// like Graph, plus relation SIMILAR edges, CONFLICTS edges (input entity,
// context entity) and slots: a "?" subject or object is a slot node of its
// own, with the answer type its relation names (lexical.WantOf); context
// entities carry the types their labels are values of (lexical.FitsOf), as
// pair-graph building gives them. input and context name the two texts.
func VerdictGraph(name string, input, context kgeval.Text, in, ctx [][3]string, sims []Sim, rels []RelSim, conflicts [][2]string) *kgeval.PairGraph {
	g := &kgeval.PairGraph{Sample: name, Pair: "test", Input: input, Context: context}
	ids := map[string]int{}
	relIDs := map[string][]int{}
	node := func(side, label string) int {
		if label == kgeval.Slot {
			id := len(g.Nodes)
			g.Nodes = append(g.Nodes, kgeval.Node{ID: id, Kind: kgeval.KindSlot, Side: side, Key: kgeval.Slot, Label: kgeval.Slot, Passage: -1})
			return id
		}
		k := side + "\x00" + label
		if id, ok := ids[k]; ok {
			return id
		}
		id := len(g.Nodes)
		g.Nodes = append(g.Nodes, kgeval.Node{ID: id, Kind: kgeval.KindEntity, Side: side, Key: label, Label: label, Passage: -1, NonAnswer: lexical.NonAnswer(label)})
		if side == kgeval.SideContext {
			g.Nodes[id].Fits = lexical.FitsOf(label)
		}
		ids[k] = id
		return id
	}
	add := func(side string, ts [][3]string) {
		for i, t := range ts {
			h, o := node(side, t[0]), node(side, t[2])
			for _, s := range []int{h, o} {
				if g.Nodes[s].Kind == kgeval.KindSlot {
					g.Nodes[s].Want = string(lexical.WantOf(t[1]))
				}
			}
			r := len(g.Nodes)
			passage := -1
			if side == kgeval.SideContext {
				passage = i % 2
			}
			g.Nodes = append(g.Nodes, kgeval.Node{ID: r, Kind: kgeval.KindRelation, Side: side, Key: t[1], Label: t[1], Passage: passage, Start: 10 * i, End: 10*i + 9})
			relIDs[side] = append(relIDs[side], r)
			g.Edges = append(g.Edges,
				kgeval.Edge{From: h, To: r, Type: kgeval.EdgeStructural, Weight: 0.9, Cost: 0.1},
				kgeval.Edge{From: r, To: o, Type: kgeval.EdgeStructural, Weight: 0.9, Cost: 0.1})
		}
	}
	add(kgeval.SideInput, in)
	add(kgeval.SideContext, ctx)
	entity := func(side, label string) int {
		id, ok := ids[side+"\x00"+label]
		if !ok {
			panic(fmt.Sprintf("scoringtest: %s names an unknown %s entity", label, side))
		}
		return id
	}
	for _, s := range sims {
		g.Edges = append(g.Edges, kgeval.Edge{From: entity(kgeval.SideInput, s.In), To: entity(kgeval.SideContext, s.Ctx), Type: kgeval.EdgeSimilar, Weight: s.Cos, Cost: 1 - s.Cos})
	}
	for _, r := range rels {
		g.Edges = append(g.Edges, kgeval.Edge{From: relIDs[kgeval.SideInput][r.In], To: relIDs[kgeval.SideContext][r.Ctx], Type: kgeval.EdgeSimilar, Weight: r.Cos, Cost: 1 - r.Cos})
	}
	for _, c := range conflicts {
		g.Edges = append(g.Edges, kgeval.Edge{From: entity(kgeval.SideInput, c[0]), To: entity(kgeval.SideContext, c[1]), Type: kgeval.EdgeConflict, Weight: 0, Cost: 1})
	}
	switch {
	case len(g.InputEntities()) == 0:
		g.EmptyReason = "no triplets extracted from input"
	case len(g.ContextEntities()) == 0:
		g.EmptyReason = "no triplets extracted from context"
	}
	return g
}

// VerdictCase is a hand-worked verdict graph: the verdict of each input
// triplet (in order), the index of its evidence context triplet (-1: none)
// and the verdict scores (nil: null; NaN: not checked).
type VerdictCase struct {
	Name     string
	Graph    *kgeval.PairGraph
	Verdicts []string
	Evidence []int
	Conflict []bool
	// Unfilled is the index of each triplet's unfilled evidence (-1: none;
	// nil: none for every triplet).
	Unfilled []int
	Want     map[string]*float64
}

// VerdictCases returns the hand-worked cases of SPEC §4b and §4c.
func VerdictCases() []VerdictCase {
	return slices.Concat(factCases(), askedCases(), referenceCases())
}

// factCases are the full triplets of an answer against the contexts.
func factCases() []VerdictCase {
	A, C := kgeval.TextAnswer, kgeval.TextContexts
	sup, con, nf := kgeval.VerdictSupported, kgeval.VerdictContradicted, kgeval.VerdictNotFound
	scores := func(support, contradiction float64) map[string]*float64 {
		return map[string]*float64{metricreg.MetricSupport: f(support), metricreg.MetricContradiction: f(contradiction),
			metricreg.MetricRecall: nil, metricreg.MetricF1: nil, metricreg.MetricSlotCoverage: nil}
	}
	return []VerdictCase{
		{Name: "Supported", Graph: VerdictGraph("v-sup", A, C,
			[][3]string{{"Acme", "was founded in", "2010"}}, [][3]string{{"Acme", "founded in", "2010"}},
			[]Sim{{"Acme", "Acme", 1}, {"2010", "2010", 1}}, []RelSim{{0, 0, 0.9}}, nil),
			Verdicts: []string{sup}, Evidence: []int{0}, Want: scores(1, 0)},
		// "X founded Y" and "Y was founded by X" state one fact.
		{Name: "SupportedReversed", Graph: VerdictGraph("v-rev", A, C,
			[][3]string{{"Theodore Wolf", "founded", "PharmaCann"}}, [][3]string{{"PharmaCann", "was founded by", "Theodore Wolf"}},
			[]Sim{{"Theodore Wolf", "Theodore Wolf", 1}, {"PharmaCann", "PharmaCann", 1}}, []RelSim{{0, 0, 0.8}}, nil),
			Verdicts: []string{sup}, Evidence: []int{0}, Want: scores(1, 0)},
		// Same subject and relation, a year of another value: contradicted.
		{Name: "Contradicted", Graph: VerdictGraph("v-con", A, C,
			[][3]string{{"PharmaCann", "was founded in", "2014"}}, [][3]string{{"PharmaCann", "was founded in", "2010"}},
			[]Sim{{"PharmaCann", "PharmaCann", 1}}, []RelSim{{0, 0, 1}}, [][2]string{{"2014", "2010"}}),
			Verdicts: []string{con}, Evidence: []int{0}, Want: scores(0, 1)},
		// Both ends match but the relations do not: not found.
		{Name: "RelationMismatch", Graph: VerdictGraph("v-rel", A, C,
			[][3]string{{"Ada", "was born in", "London"}}, [][3]string{{"Ada", "died in", "London"}},
			[]Sim{{"Ada", "Ada", 1}, {"London", "London", 1}}, nil, nil),
			Verdicts: []string{nf}, Evidence: []int{-1}, Want: scores(0, 0)},
		// One end matches, the other differs but is not a literal: not found.
		{Name: "OneEndOnly", Graph: VerdictGraph("v-one", A, C,
			[][3]string{{"Ada", "married", "Byron"}}, [][3]string{{"Ada", "married", "King"}},
			[]Sim{{"Ada", "Ada", 1}}, []RelSim{{0, 0, 1}}, nil),
			Verdicts: []string{nf}, Evidence: []int{-1}, Want: scores(0, 0)},
		// The context says both: supported, flagged as a conflict.
		{Name: "SupportedAndContradicted", Graph: VerdictGraph("v-both", A, C,
			[][3]string{{"Acme", "founded in", "2010"}}, [][3]string{{"Acme", "founded in", "2014"}, {"Acme", "founded in", "2010"}},
			[]Sim{{"Acme", "Acme", 1}, {"2010", "2010", 1}}, []RelSim{{0, 0, 1}, {0, 1, 1}}, [][2]string{{"2010", "2014"}}),
			Verdicts: []string{sup}, Evidence: []int{1}, Conflict: []bool{true}, Want: scores(1, 0)},
		// A conflict in the reversed orientation: (2010, is founding year of, Acme) vs (Acme, founded in, 2014).
		{Name: "ContradictedReversed", Graph: VerdictGraph("v-conrev", A, C,
			[][3]string{{"2010", "is the founding year of", "Acme"}}, [][3]string{{"Acme", "founded in", "2014"}},
			[]Sim{{"Acme", "Acme", 1}}, []RelSim{{0, 0, 0.65}}, [][2]string{{"2010", "2014"}}),
			Verdicts: []string{con}, Evidence: []int{0}, Want: scores(0, 1)},
		// Four facts: one supported, one contradicted, two not found.
		{Name: "Mixed", Graph: VerdictGraph("v-mixed", A, C,
			[][3]string{{"a", "r", "b"}, {"a", "s", "2010"}, {"c", "r", "d"}, {"e", "t", "f"}},
			[][3]string{{"a", "r", "b"}, {"a", "s", "2011"}},
			[]Sim{{"a", "a", 1}, {"b", "b", 0.75}, {"c", "a", 0.8}}, []RelSim{{0, 0, 1}, {1, 1, 1}, {2, 0, 1}},
			[][2]string{{"2010", "2011"}}),
			Verdicts: []string{sup, con, nf, nf}, Evidence: []int{0, 1, -1, -1}, Want: scores(0.25, 0.25)},
		// The most similar relation is the evidence.
		{Name: "BestEvidence", Graph: VerdictGraph("v-best", A, C,
			[][3]string{{"a", "r", "b"}}, [][3]string{{"a", "r1", "b"}, {"a", "r2", "b"}, {"a", "r3", "b"}},
			[]Sim{{"a", "a", 1}, {"b", "b", 1}}, []RelSim{{0, 0, 0.7}, {0, 1, 0.9}, {0, 2, 0.9}}, nil),
			Verdicts: []string{sup}, Evidence: []int{1}, Want: scores(1, 0)},
	}
}

// askedCases are the asked facts of a question (SPEC §4c).
func askedCases() []VerdictCase {
	A, C := kgeval.TextAnswer, kgeval.TextContexts
	ans, una := kgeval.VerdictAnswered, kgeval.VerdictUnanswered
	return []VerdictCase{
		// Asked facts (SPEC §4c): the answer says when the tower was
		// completed, not after whom it was named.
		{Name: "AskedFacts", Graph: VerdictGraph("v-asked", kgeval.TextQuestion, A,
			[][3]string{{"Chimnabai Clock Tower", "was completed in", "?"}, {"Chimnabai Clock Tower", "was named after", "?"}},
			[][3]string{{"Chimnabai Clock Tower", "was completed in", "1896"}, {"Chimnabai Clock Tower", "is located in", "Vadodara"}},
			[]Sim{{"Chimnabai Clock Tower", "Chimnabai Clock Tower", 1}}, []RelSim{{0, 0, 1}}, nil),
			Verdicts: []string{ans, una}, Evidence: []int{0, -1},
			Want: map[string]*float64{metricreg.MetricSlotCoverage: f(0.5), metricreg.MetricSupport: nil, metricreg.MetricContradiction: nil}},
		// A slot as subject: (?, founded, PharmaCann) is answered by
		// (Theodore Wolf, founded, PharmaCann); a yes/no question's full
		// triplet is answered when the text takes a position.
		{Name: "AskedSubjectAndYesNo", Graph: VerdictGraph("v-asked2", kgeval.TextQuestion, C,
			[][3]string{{"?", "founded", "PharmaCann"}, {"Paris", "is capital of", "France"}, {"Paris", "has population", "?"}},
			[][3]string{{"Theodore Wolf", "founded", "PharmaCann"}, {"Paris", "is the capital of", "France"}},
			[]Sim{{"PharmaCann", "PharmaCann", 1}, {"Paris", "Paris", 1}, {"France", "France", 1}},
			[]RelSim{{0, 0, 1}, {1, 1, 0.95}}, nil),
			Verdicts: []string{ans, ans, una}, Evidence: []int{0, 1, -1},
			Want: map[string]*float64{metricreg.MetricSlotCoverage: f(2.0 / 3)}},
		// A non-answer fills no slot: "the taxonomy is currently unknown"
		// takes no position on the taxonomy.
		{Name: "AskedNonAnswer", Graph: VerdictGraph("v-nonanswer", kgeval.TextQuestion, A,
			[][3]string{{"Dasypoda radchenkoi", "taxonomy", "?"}, {"Dasypoda radchenkoi", "related to", "?"}},
			[][3]string{{"Dasypoda radchenkoi", "has taxonomy", "currently unknown"}, {"Dasypoda morotei", "is related to", "Dasypoda radchenkoi"}},
			[]Sim{{"Dasypoda radchenkoi", "Dasypoda radchenkoi", 1}}, []RelSim{{0, 0, 0.9}, {1, 1, 0.9}}, nil),
			Verdicts: []string{una, ans}, Evidence: []int{-1, 1}, Unfilled: []int{0, -1},
			Want: map[string]*float64{metricreg.MetricSlotCoverage: f(0.5)}},
		// Restating is not answering: the poor answer's "The Chimnabai
		// Clock Tower was named ..." fills the slot with a name the question
		// gives itself (an entity SIMILAR edge reaches it), so the asked fact
		// stays unanswered; the completion date is new and answers.
		{Name: "AskedRestated", Graph: VerdictGraph("v-restated", kgeval.TextQuestion, A,
			[][3]string{{"Chimnabai Clock Tower", "was completed in", "?"}, {"Chimnabai Clock Tower", "was named after", "?"}},
			[][3]string{{"The Chimnabai Clock Tower", "was completed in", "1878"}, {"The Chimnabai Clock Tower", "named", "Chimnabai Clock"}},
			[]Sim{{"Chimnabai Clock Tower", "The Chimnabai Clock Tower", 0.98}, {"Chimnabai Clock Tower", "Chimnabai Clock", 0.93}},
			[]RelSim{{0, 0, 1}, {1, 1, 0.8}}, nil),
			Verdicts: []string{ans, una}, Evidence: []int{0, -1}, Unfilled: []int{-1, 1},
			Want: map[string]*float64{metricreg.MetricSlotCoverage: f(0.5)}},
		// Typed asked facts: a relation that names the kind of value asked
		// ("mission date", "launch site") is answered by a new filler of
		// that type whatever the answer's relation (no relation SIMILAR
		// edge here); the name the question gives itself (PSLV-C56) fills
		// nothing, and an asked fact of no type ("objective") still needs a
		// matching relation.
		{Name: "AskedTyped", Graph: VerdictGraph("v-typed", kgeval.TextQuestion, A,
			[][3]string{{"PSLV-C56", "mission date", "?"}, {"PSLV-C56", "launch site", "?"}, {"PSLV-C56", "objective", "?"}},
			[][3]string{{"The PSLV-C56 mission", "is scheduled to be launched on", "Sunday, 30 July 2023"}, {"The PSLV-C56 mission", "is also called", "PSLV-C56"},
				{"The PSLV-C56 mission", "aims to", "study weather patterns"}, {"The PSLV-C56 mission", "will be launched from", "Satish Dhawan Space Centre"}},
			[]Sim{{"PSLV-C56", "The PSLV-C56 mission", 0.9}, {"PSLV-C56", "PSLV-C56", 1}}, nil, nil),
			Verdicts: []string{ans, ans, una}, Evidence: []int{0, 3, -1},
			Want: map[string]*float64{metricreg.MetricSlotCoverage: f(2.0 / 3)}},
		// A literal type is answered only by a value of that type: "was
		// released a while ago" matches the relation of "release date" but
		// states no date (unfilled); a place may be a description, so a
		// matching relation answers "headquarters location" with "the
		// cloud".
		{Name: "AskedTypedRelation", Graph: VerdictGraph("v-typedrel", kgeval.TextQuestion, A,
			[][3]string{{"GPT-4", "release date", "?"}, {"GPT-4", "headquarters location", "?"}},
			[][3]string{{"GPT-4", "was released", "a while ago"}, {"GPT-4", "is located in", "the cloud"}},
			[]Sim{{"GPT-4", "GPT-4", 1}}, []RelSim{{0, 0, 0.9}, {1, 1, 0.9}}, nil),
			Verdicts: []string{una, ans}, Evidence: []int{-1, 1}, Unfilled: []int{0, -1},
			Want: map[string]*float64{metricreg.MetricSlotCoverage: f(0.5)}},
		// A question's statement read by rule (extraction.method both) is
		// what the question gives, not what it asks: only the model's asked
		// fact counts, and the answer that repeats the question's words
		// answers nothing.
		{Name: "QuestionRuleFacts", Graph: ruleRead(VerdictGraph("v-qrules", kgeval.TextQuestion, A,
			[][3]string{{"PSLV-C56", "launch date", "?"}, {"scheduled launch date", "and", "time"}},
			[][3]string{{"scheduled launch date", "and", "time"}, {"PSLV-C56 mission", "is", "important space mission"}},
			[]Sim{{"scheduled launch date", "scheduled launch date", 1}, {"time", "time", 1}, {"PSLV-C56", "PSLV-C56 mission", 0.9}},
			[]RelSim{{1, 0, 1}}, nil), 1),
			Verdicts: []string{una}, Evidence: []int{-1},
			Want: map[string]*float64{metricreg.MetricSlotCoverage: f(0)}},
	}
}

// referenceCases are an answer against the reference, and an empty context.
func referenceCases() []VerdictCase {
	A, C := kgeval.TextAnswer, kgeval.TextContexts
	sup, nf := kgeval.VerdictSupported, kgeval.VerdictNotFound
	return []VerdictCase{
		// Against the reference: precision = support, recall = reference
		// triplets the answer supports, F1.
		{Name: "ReferenceF1", Graph: VerdictGraph("v-ref", A, kgeval.TextReference,
			[][3]string{{"a", "r", "b"}, {"c", "r", "d"}}, [][3]string{{"a", "r", "b"}, {"e", "r", "f"}, {"g", "r", "h"}},
			[]Sim{{"a", "a", 1}, {"b", "b", 1}}, []RelSim{{0, 0, 1}, {1, 1, 1}}, nil),
			Verdicts: []string{sup, nf}, Evidence: []int{0, -1},
			Want: map[string]*float64{metricreg.MetricSupport: f(0.5), metricreg.MetricContradiction: f(0), metricreg.MetricRecall: f(1.0 / 3), metricreg.MetricF1: f(0.4)}},
		// No context triplet: every verdict score is null.
		{Name: "EmptyContext", Graph: VerdictGraph("v-empty", A, C, [][3]string{{"a", "r", "b"}}, nil, nil, nil, nil),
			Want: map[string]*float64{metricreg.MetricSupport: nil, metricreg.MetricContradiction: nil}},
	}
}

// ruleRead marks the input triplets at the given indexes read by rule
// (kgeval.SourceRules).
func ruleRead(g *kgeval.PairGraph, idx ...int) *kgeval.PairGraph {
	rels := g.Relations(kgeval.SideInput)
	for _, i := range idx {
		g.Nodes[rels[i]].Source = kgeval.SourceRules
	}
	return g
}

// AddVerdictEdges gives random graphs (Random) relation SIMILAR edges and
// CONFLICTS edges, so that engines can be compared on verdicts too: about a
// third of the input relations get one to three similar context relations,
// and some input entities conflict with a context entity they are not
// similar to. About a third of the graphs become question graphs with asked
// facts (a slot, typed or not, on an input entity), and some context
// entities get answer types (Node.Fits), so that typed answering (SPEC §4c)
// is compared too.
func AddVerdictEdges(graphs []*kgeval.PairGraph, seed uint64) {
	r := rand.New(rand.NewPCG(seed, seed^7))
	wants := []string{"", lexicalDate, lexicalPlace}
	for _, g := range graphs {
		g.Input, g.Context = kgeval.TextAnswer, kgeval.TextReference
		if ins := g.InputEntities(); len(ins) > 0 && r.Float64() < 0.35 {
			g.Input = kgeval.TextQuestion
			for k := 0; k < 1+r.IntN(2); k++ {
				a := ins[r.IntN(len(ins))]
				slot, rel := len(g.Nodes), len(g.Nodes)+1
				g.Nodes = append(g.Nodes,
					kgeval.Node{ID: slot, Kind: kgeval.KindSlot, Side: kgeval.SideInput, Key: kgeval.Slot, Label: kgeval.Slot, Passage: -1, Want: wants[r.IntN(len(wants))]},
					kgeval.Node{ID: rel, Kind: kgeval.KindRelation, Side: kgeval.SideInput, Key: fmt.Sprintf("asked%d", k), Label: fmt.Sprintf("asked%d", k), Passage: -1})
				from, to := a, slot
				if r.IntN(2) == 0 {
					from, to = slot, a
				}
				g.Edges = append(g.Edges,
					kgeval.Edge{From: from, To: rel, Type: kgeval.EdgeStructural, Weight: 0.9, Cost: 0.1},
					kgeval.Edge{From: rel, To: to, Type: kgeval.EdgeStructural, Weight: 0.9, Cost: 0.1})
			}
			for _, c := range g.ContextEntities() {
				switch x := r.Float64(); {
				case x < 0.2:
					g.Nodes[c].Fits = []string{lexicalDate}
				case x < 0.35:
					g.Nodes[c].Fits = []string{lexicalPlace, string(lexical.WantPerson)}
				}
			}
		}
		inRel, ctxRel := g.Relations(kgeval.SideInput), g.Relations(kgeval.SideContext)
		for _, i := range inRel {
			if r.Float64() > 0.35 || len(ctxRel) == 0 {
				continue
			}
			picked := map[int]bool{}
			for k := 0; k < 1+r.IntN(3); k++ {
				j := ctxRel[r.IntN(len(ctxRel))]
				if picked[j] {
					continue
				}
				picked[j] = true
				cos := 0.6 + 0.4*r.Float64()
				g.Edges = append(g.Edges, kgeval.Edge{From: i, To: j, Type: kgeval.EdgeSimilar, Weight: cos, Cost: 1 - cos})
			}
		}
		similar := map[[2]int]bool{}
		for _, e := range g.Edges {
			if e.Type == kgeval.EdgeSimilar {
				similar[[2]int{e.From, e.To}] = true
			}
		}
		ins, cs := g.InputEntities(), g.ContextEntities()
		for _, a := range ins {
			for _, b := range cs {
				if !similar[[2]int{a, b}] && r.Float64() < 0.02 {
					g.Edges = append(g.Edges, kgeval.Edge{From: a, To: b, Type: kgeval.EdgeConflict, Weight: 0, Cost: 1})
				}
			}
		}
	}
}

const (
	lexicalDate  = string(lexical.WantDate)
	lexicalPlace = string(lexical.WantPlace)
)

// CheckVerdicts compares an engine's result on a verdict case with the
// hand-worked verdicts, evidence and scores.
func CheckVerdicts(tb testing.TB, c VerdictCase, r kgeval.KGResult) {
	tb.Helper()
	for m, want := range c.Want {
		got := r.Value(m)
		switch {
		case want == nil && got != nil:
			tb.Errorf("%s: %s = %v, want null", c.Name, m, *got)
		case want != nil && math.IsNaN(*want):
		case want != nil && got == nil:
			tb.Errorf("%s: %s = null (%s), want %v", c.Name, m, r.ReasonFor(m), *want)
		case want != nil && math.Abs(*got-*want) > 1e-12:
			tb.Errorf("%s: %s = %v, want %v", c.Name, m, *got, *want)
		}
	}
	if len(r.Verdicts) != len(c.Verdicts) {
		tb.Fatalf("%s: %d verdicts, want %d: %+v", c.Name, len(r.Verdicts), len(c.Verdicts), r.Verdicts)
	}
	ctxRel := c.Graph.Relations(kgeval.SideContext)
	for i, v := range r.Verdicts {
		if v.Verdict != c.Verdicts[i] {
			tb.Errorf("%s: triplet %d (%s %s %s) is %s, want %s", c.Name, i, v.Subject, v.Relation, v.Object, v.Verdict, c.Verdicts[i])
		}
		checkEvidence(tb, c, i, "evidence", c.Evidence, v.Evidence, ctxRel)
		checkEvidence(tb, c, i, "unfilled evidence", c.Unfilled, v.Unfilled, ctxRel)
		conflict := c.Conflict != nil && c.Conflict[i]
		if v.Conflict != conflict {
			tb.Errorf("%s: triplet %d conflict = %v, want %v", c.Name, i, v.Conflict, conflict)
		}
	}
}

// checkEvidence checks triplet i's evidence of one kind against the case's
// expected context triplet indexes (nil or -1: none): the context triplet,
// with its relation, passage and span.
func checkEvidence(tb testing.TB, c VerdictCase, i int, what string, wantIdx []int, got *kgeval.Evidence, ctxRel []int) {
	tb.Helper()
	want := -1
	if wantIdx != nil {
		want = wantIdx[i]
	}
	switch {
	case want < 0 && got != nil:
		tb.Errorf("%s: triplet %d has %s %+v, want none", c.Name, i, what, *got)
	case want >= 0 && (got == nil || got.Node != ctxRel[want]):
		tb.Errorf("%s: triplet %d %s %+v, want context triplet %d (node %d)", c.Name, i, what, got, want, ctxRel[want])
	case want >= 0:
		n := c.Graph.Nodes[ctxRel[want]]
		if got.Passage != n.Passage || got.Start != n.Start || got.End != n.End || got.Relation != n.Label {
			tb.Errorf("%s: triplet %d %s %+v does not carry its triplet's relation, passage and span", c.Name, i, what, *got)
		}
	}
}
