package graphstoretest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/lexical"
	"github.com/kgeval/kgeval/scoring"
	"github.com/kgeval/kgeval/scoring/scoringtest"
)

// Hostile text of the verdict run's sample HostileSample: markup, a
// right-to-left override and a 10,000-character word, in a triplet and its
// evidence sentence.
const (
	HostileSample = "v99-hostile"
	HostileMarkup = "Tool <script>alert(1)</script>"
	HostileRLO    = "was made in \u202Eevil"
)

// HostileWord is the long word of HostileSample's evidence sentence.
var HostileWord = strings.Repeat("W", 10000)

// MustVerdictRun stores a run whose samples carry triplet verdicts (SPEC
// §4b, §4c) for the dashboard's "why": one sample per answer-against-
// contexts case of scoringtest.VerdictCases ("v00-supported", ...) and
// HostileSample, with pairs faithfulness (answer → contexts) and
// answer_relevancy (question → answer). Each sample's texts are the
// sentences of its triplets ("Acme founded in 2010."), and every relation
// node's span is its sentence, so evidence points at real text. The native
// engine scores the graphs; the not-found triplets then get the sentence
// check's verdict and support_text / contradiction_text as evaluate stores
// them; and every sample gets a grounding check that dropped one invented
// answer triplet (its reason from the lexical check). The run is deleted
// when the test ends.
func MustVerdictRun(tb testing.TB, db *graphstore.DB) *WebRun {
	tb.Helper()
	ctx := context.Background()
	name := fmt.Sprintf("test-why-%s-%d", strings.ReplaceAll(tb.Name(), "/", "_"), time.Now().UnixNano())
	pairs := []kgeval.Pair{{Name: "faithfulness", Input: kgeval.TextAnswer, Context: kgeval.TextContexts},
		{Name: "answer_relevancy", Input: kgeval.TextQuestion, Context: kgeval.TextAnswer}}
	cases := verdictRunCases()

	cfg, _ := json.Marshal(map[string]any{"Scoring": map[string]any{"Pairs": pairs, "Delta": 0.5, "Tau": 0.7, "Metrics": []string{"kg"}}})
	if err := db.CreateRun(ctx, kgeval.Run{Name: name, Config: string(cfg), Engine: "native", Status: kgeval.RunDone, Samples: len(cases), Started: time.Now().UTC()}); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := db.DeleteRun(context.Background(), name); err != nil {
			tb.Errorf("cleanup %s: %v", name, err)
		}
	})
	run, err := db.GetRun(ctx, name)
	if err != nil {
		tb.Fatal(err)
	}
	r := &WebRun{Name: name, Settings: analysis.DisplayOf(run), Results: map[string]map[string]kgeval.KGResult{}}

	var graphs []*kgeval.PairGraph
	var grounding []kgeval.Grounding
	for i, c := range cases {
		s, gs, gr := c.sample(i, pairs)
		r.Samples = append(r.Samples, s)
		graphs = append(graphs, gs...)
		grounding = append(grounding, gr...)
	}
	storeVerdictRun(tb, db, r, graphs, grounding)
	return r
}

// verdictCase is one sample of the verdict run: its answer and context
// triplets with the similarities and conflicts between them.
type verdictCase struct {
	id        string
	in, ctx   [][3]string
	sims      []scoringtest.Sim
	rels      []scoringtest.RelSim
	conflicts [][2]string
	invented  [3]string // the answer triplet the grounding check dropped
}

// verdictRunCases returns the answer-against-contexts cases of
// scoringtest.VerdictCases, then HostileSample.
func verdictRunCases() []verdictCase {
	var cases []verdictCase
	for _, c := range scoringtest.VerdictCases() {
		if c.Graph.Input != kgeval.TextAnswer || c.Graph.Context != kgeval.TextContexts {
			continue
		}
		in, ctxs, sims, rels, conflicts := unbuild(c.Graph)
		cases = append(cases, verdictCase{id: fmt.Sprintf("v%02d-%s", len(cases), strings.ToLower(c.Name)), in: in, ctx: ctxs, sims: sims, rels: rels, conflicts: conflicts})
	}
	return append(cases, verdictCase{id: HostileSample,
		in:        [][3]string{{HostileMarkup, HostileRLO, "2014"}},
		ctx:       [][3]string{{HostileMarkup, HostileRLO, "2010 " + HostileWord}},
		sims:      []scoringtest.Sim{{In: HostileMarkup, Ctx: HostileMarkup, Cos: 1}},
		rels:      []scoringtest.RelSim{{In: 0, Ctx: 0, Cos: 1}},
		conflicts: [][2]string{{"2014", "2010 " + HostileWord}},
		invented:  [3]string{HostileMarkup, "is sold \u202Eon", "<b>the Moon</b>"}})
}

// sample returns case c as record i+1: its sample, its two pair graphs
// (pairs[0]: answer against contexts, pairs[1]: question against answer)
// and its grounding checks.
func (c verdictCase) sample(i int, pairs []kgeval.Pair) (kgeval.Sample, []*kgeval.PairGraph, []kgeval.Grounding) {
	answer, inSpans := sentences(c.in)
	passages := [2][][3]string{}
	for k, t := range c.ctx {
		passages[k%2] = append(passages[k%2], t) // VerdictGraph puts context triplet k in passage k%2
	}
	var contexts []string
	var ctxSpans [][2]int
	for p := range passages {
		text, spans := sentences(passages[p])
		if text == "" {
			text = "Nothing is said here."
		}
		contexts = append(contexts, text)
		ctxSpans = append(ctxSpans, spans...)
	}
	// ctxSpans is in passage order; map it back to triplet order.
	byTriplet := make([][2]int, len(c.ctx))
	for k, n := 0, 0; k < 2; k++ {
		for j := range c.ctx {
			if j%2 == k {
				byTriplet[j] = ctxSpans[n]
				n++
			}
		}
	}
	first := c.in[0]
	s := kgeval.Sample{ID: c.id, Record: i + 1, Question: fmt.Sprintf("%s %s what?", first[0], first[1]), Answer: answer,
		Reference: answer, Contexts: contexts, System: []string{"a", "b"}[i%2]}

	g := scoringtest.VerdictGraph(s.ID, kgeval.TextAnswer, kgeval.TextContexts, c.in, c.ctx, c.sims, c.rels, c.conflicts)
	g.Pair = pairs[0].Name
	setSpans(g, kgeval.SideInput, inSpans, -1)
	setSpans(g, kgeval.SideContext, byTriplet, 0)
	// The question asks for the object of the first answer triplet; the
	// answer states it.
	q := scoringtest.VerdictGraph(s.ID, kgeval.TextQuestion, kgeval.TextAnswer, [][3]string{{first[0], first[1], kgeval.Slot}}, c.in,
		[]scoringtest.Sim{{In: first[0], Ctx: first[0], Cos: 1}}, []scoringtest.RelSim{{In: 0, Ctx: 0, Cos: 1}}, nil)
	q.Pair = pairs[1].Name
	setSpans(q, kgeval.SideContext, inSpans, -1)

	invented := c.invented
	if invented[0] == "" {
		invented = [3]string{first[0], "is sold on", "the Moon"}
	}
	_, why := lexical.GroundText(invented[0], invented[2], lexical.NewText(s.Answer), lexical.NewText(s.Question))
	grounding := []kgeval.Grounding{
		{Sample: s.ID, Text: kgeval.TextAnswer, Passage: -1, Kept: len(c.in),
			Dropped: []kgeval.DroppedTriplet{{Triplet: kgeval.Triplet{Subject: invented[0], Relation: invented[1], Object: invented[2]}, Reason: why}}},
		{Sample: s.ID, Text: kgeval.TextContexts, Passage: 0, Kept: len(passages[0])}}
	return s, []*kgeval.PairGraph{g, q}, grounding
}

// storeVerdictRun writes r's samples, graphs and grounding checks, scores
// the graphs with the native engine, gives the not-found triplets the
// sentence check's verdicts, and writes the scores and r.Results.
func storeVerdictRun(tb testing.TB, db *graphstore.DB, r *WebRun, graphs []*kgeval.PairGraph, grounding []kgeval.Grounding) {
	tb.Helper()
	ctx, name := context.Background(), r.Name
	if err := db.WriteSamples(ctx, name, r.Samples); err != nil {
		tb.Fatal(err)
	}
	if _, err := db.WritePairGraphs(ctx, name, graphs); err != nil {
		tb.Fatal(err)
	}
	res, err := (&scoring.Native{Seed: 42}).Score(ctx, name, graphs, kgeval.DefaultGraphParams())
	if err != nil {
		tb.Fatal(err)
	}
	byID := map[string]kgeval.Sample{}
	for _, smp := range r.Samples {
		byID[smp.ID] = smp
	}
	for i := range res {
		sentenceVerdicts(&res[i], byID[res[i].Sample])
	}
	if err := db.WriteKGResults(ctx, name, kgeval.DefaultVariant, "native", kgeval.DefaultGraphParams(), res); err != nil {
		tb.Fatal(err)
	}
	if err := db.WriteGrounding(ctx, name, grounding); err != nil {
		tb.Fatal(err)
	}
	for _, x := range res {
		if r.Results[x.Sample] == nil {
			r.Results[x.Sample] = map[string]kgeval.KGResult{}
		}
		r.Results[x.Sample][x.Pair] = x
	}
}

// unbuild recovers the hand-made inputs of a VerdictGraph graph: the
// triplets of both sides, the entity and relation SIMILAR edges and the
// CONFLICTS edges.
func unbuild(g *kgeval.PairGraph) (in, ctx [][3]string, sims []scoringtest.Sim, rels []scoringtest.RelSim, conflicts [][2]string) {
	inRel, ctxRel := g.Relations(kgeval.SideInput), g.Relations(kgeval.SideContext)
	index := func(rs []int, id int) int {
		for i, r := range rs {
			if r == id {
				return i
			}
		}
		return -1
	}
	ends := scoring.EndsOf(g)
	for _, side := range []struct {
		rels []int
		out  *[][3]string
	}{{inRel, &in}, {ctxRel, &ctx}} {
		for _, r := range side.rels {
			h, t, _ := ends.Get(r)
			*side.out = append(*side.out, [3]string{g.Nodes[h].Label, g.Nodes[r].Label, g.Nodes[t].Label})
		}
	}
	for _, e := range g.Edges {
		switch {
		case e.Type == kgeval.EdgeSimilar && g.Nodes[e.From].Kind == kgeval.KindRelation:
			rels = append(rels, scoringtest.RelSim{In: index(inRel, e.From), Ctx: index(ctxRel, e.To), Cos: e.Weight})
		case e.Type == kgeval.EdgeSimilar:
			sims = append(sims, scoringtest.Sim{In: g.Nodes[e.From].Label, Ctx: g.Nodes[e.To].Label, Cos: e.Weight})
		case e.Type == kgeval.EdgeConflict:
			conflicts = append(conflicts, [2]string{g.Nodes[e.From].Label, g.Nodes[e.To].Label})
		}
	}
	return in, ctx, sims, rels, conflicts
}

// sentences writes each triplet as a sentence ("Acme founded in 2010.") and
// returns the text with each sentence's byte span.
func sentences(ts [][3]string) (string, [][2]int) {
	var b strings.Builder
	var spans [][2]int
	for i, t := range ts {
		if i > 0 {
			b.WriteString(" ")
		}
		start := b.Len()
		b.WriteString(t[0] + " " + t[1] + " " + t[2] + ".")
		spans = append(spans, [2]int{start, b.Len()})
	}
	return b.String(), spans
}

// setSpans gives the relation nodes of one side of g, in order, the spans;
// passage -1 makes the side one text, 0 keeps the passages VerdictGraph set.
func setSpans(g *kgeval.PairGraph, side string, spans [][2]int, passage int) {
	for i, r := range g.Relations(side) {
		g.Nodes[r].Start, g.Nodes[r].End = spans[i][0], spans[i][1]
		if passage < 0 {
			g.Nodes[r].Passage = -1
		}
	}
}

// sentenceVerdicts gives the triplets the graph did not find the sentence
// check's verdict and computes support_text and contradiction_text, as
// evaluate does (scoring.SupportText, SPEC §4b).
func sentenceVerdicts(r *kgeval.KGResult, s kgeval.Sample) {
	if r.Pair != "faithfulness" || len(r.Verdicts) == 0 {
		return
	}
	srcs := make([]scoring.Source, len(s.Contexts))
	for i, c := range s.Contexts {
		srcs[i] = scoring.Source{Text: lexical.NewText(c), Passage: i}
	}
	scoring.SupportText(r, srcs)
}
