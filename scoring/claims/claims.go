// Package claims turns an input text and its pair graph into claim checks
// (SPEC §4d): the text's claims (lexical.Claims), each with the triplets it
// states, an evidence window chosen by the pair graph, the literal and name
// conflicts with that evidence, and the signals (Features) that the
// calibrated faithfulness score combines. It is pure: the model's
// probability comes in from the caller (pipeline asks the ClaimVerifier
// with the windows Windows returns) and the calibration from Calibration.
package claims

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
)

// Evidence modes (scoring.evidence).
const (
	ModeGraph  = "graph"  // context sentences the claim's triplets reach in the pair graph
	ModeCosine = "cosine" // context sentences by encoder cosine with the claim
	ModeWhole  = "whole"  // the whole context side, in chunks when it does not fit
)

// Params are the evidence window's settings.
type Params struct {
	// Mode is ModeGraph, ModeCosine or ModeWhole. In every mode a context
	// side that fits Budget whole is the window whole, in its own order
	// (EvidenceMode "whole"): the graph chooses only what must be left out.
	Mode string
	// Budget is the window's size in estimated tokens (EstimateTokens).
	Budget int
	// Delta is multihop's path-cost bound (a path within it reaches).
	Delta float64
}

// EstimateTokens is a conservative token count of s: one token per three
// bytes (English runs at about four bytes a token in the bundled model's
// tokenizer; digits and other scripts at fewer).
func EstimateTokens(s string) int { return (len(s) + 2) / 3 }

// Passage is one text of a pair's context side: a retrieved passage (Index
// its position) or the reference (Index -1).
type Passage struct {
	Index int
	Text  string
}

// Input is one pair graph's claim work: the input text, the context side,
// the graph and the engine's result (nil when the graph had no triplets on
// a side: the claims are then chosen by words alone).
type Input struct {
	Text     string
	Passages []Passage
	// Question is the sample's question when Text answers it ("" for
	// none): the words and phrases it gives are not new in the answer.
	Question string
	Graph    *kgeval.PairGraph
	Result   *kgeval.KGResult
	// Prepared, when set, returns a text prepared for the lexical checks
	// (the caller's cache: a passage shared by many samples is prepared
	// once); nil prepares each passage here.
	Prepared func(string) *lexical.Text
	// Cosine, when set (ModeCosine), returns the encoder cosine of the
	// claim with each sentence.
	Cosine func(claim string, sentences []string) ([]float64, error)
}

// sentence is one context sentence.
type sentence struct {
	passage, start, end int
	text                string
	lt                  *lexical.Text
	weight              float64
	why                 []string
	words               int // its distinct content words
	pos                 int // order in the context side
}

// Check builds the claim checks of in: claims, their triplets, evidence
// windows, conflicts and the features that need no model. The model's
// answer and the calibrated score are added by Score.
func Check(in Input, p Params) ([]kgeval.ClaimCheck, error) {
	var sents []sentence
	total := 0
	for _, ps := range in.Passages {
		for _, sp := range lexical.Sentences(ps.Text) {
			t := strings.TrimSpace(ps.Text[sp.Start:sp.End])
			if t == "" {
				continue
			}
			sents = append(sents, sentence{passage: ps.Index, start: sp.Start, end: sp.End, text: t, lt: lexical.NewText(t), words: len(lexical.ContentWords(t)), pos: len(sents)})
		}
		total += EstimateTokens(ps.Text) + 1
	}
	whole := total <= p.Budget
	ctxTexts := make([]*lexical.Text, len(in.Passages))
	for i, ps := range in.Passages {
		if in.Prepared != nil {
			ctxTexts[i] = in.Prepared(ps.Text)
		} else {
			ctxTexts[i] = lexical.NewText(ps.Text)
		}
	}
	// The question's phrases are not new in its answer (FeaturePairs).
	pairTexts := ctxTexts
	if in.Question != "" {
		pairTexts = append(slices.Clip(ctxTexts), lexical.NewText(in.Question))
	}
	ends := relationEnds(in.Graph)
	var out []kgeval.ClaimCheck
	for _, cl := range lexical.Claims(in.Text) {
		c := kgeval.ClaimCheck{Text: cl.Text, Start: cl.Span.Start, End: cl.Span.End, Features: map[string]float64{}}
		rels, ents := claimNodes(in, cl, ends)
		c.Triplets = rels
		ranked := rank(in, cl, rels, ents, sents, ends)
		mode := p.Mode
		if mode == ModeCosine && in.Cosine != nil && !whole {
			if err := cosineRank(in, cl, ranked); err != nil {
				return nil, err
			}
		}
		switch {
		case whole || mode == ModeWhole:
			c.EvidenceMode = ModeWhole
			c.Evidence = top(ranked, 5)
		default:
			c.EvidenceMode = mode
			c.Evidence = window(ranked, p.Budget)
		}
		c.Conflicts = conflicts(cl.Text, ranked)
		features(&c, in, cl, rels, ents, ctxTexts, sents)
		c.Features[kgeval.FeaturePairs] = pairsShare(cl.Text, pairTexts)
		out = append(out, c)
	}
	return out, nil
}

// Window returns the texts a claim's evidence window shows the checker, in
// order: the whole context side (its passages) when the claim's window is
// whole, else the chosen sentences in context order.
func Window(c kgeval.ClaimCheck, passages []Passage) []string {
	if c.EvidenceMode == ModeWhole {
		out := make([]string, len(passages))
		for i, p := range passages {
			out[i] = p.Text
		}
		return out
	}
	ev := slices.Clone(c.Evidence)
	sort.SliceStable(ev, func(a, b int) bool {
		if ev[a].Passage != ev[b].Passage {
			return ev[a].Passage < ev[b].Passage
		}
		return ev[a].Start < ev[b].Start
	})
	out := make([]string, 0, len(ev))
	for _, e := range ev {
		out = append(out, e.Text)
	}
	return out
}

// claimNodes returns the input relation nodes whose triplets the claim
// states (the triplet's span overlaps the claim's sentence and its subject
// or object occurs in the claim) and their entity nodes.
func claimNodes(in Input, cl lexical.Claim, ends map[int][2]int) (rels, ents []int) {
	g := in.Graph
	if g == nil {
		return nil, nil
	}
	claimText := lexical.NewText(cl.Text)
	seen := map[int]bool{}
	for _, n := range g.Nodes {
		if n.Kind != kgeval.KindRelation || n.Side != kgeval.SideInput {
			continue
		}
		if !(n.Start == 0 && n.End == 0) && (n.End <= cl.Span.Start || n.Start >= cl.Span.End) {
			continue
		}
		x := ends[n.ID]
		h, t := x[0], x[1]
		in := func(id int) bool {
			return id >= 0 && !kgeval.IsSlot(g.Nodes[id].Label) && claimText.Occurs(g.Nodes[id].Label)
		}
		if !in(h) && !in(t) {
			continue
		}
		rels = append(rels, n.ID)
		for _, id := range []int{h, t} {
			if id >= 0 && !seen[id] {
				seen[id] = true
				ents = append(ents, id)
			}
		}
	}
	sort.Ints(ents)
	return rels, ents
}

// relationEnds maps each relation node of g to its head and tail entity
// (-1 when missing), from the structural edges, once per graph.
func relationEnds(g *kgeval.PairGraph) map[int][2]int {
	out := map[int][2]int{}
	if g == nil {
		return out
	}
	at := func(id int) [2]int {
		if x, ok := out[id]; ok {
			return x
		}
		return [2]int{-1, -1}
	}
	for _, e := range g.Edges {
		if e.Type != kgeval.EdgeStructural {
			continue
		}
		switch {
		case g.Nodes[e.To].Kind == kgeval.KindRelation:
			x := at(e.To)
			x[0] = e.From
			out[e.To] = x
		case g.Nodes[e.From].Kind == kgeval.KindRelation:
			x := at(e.From)
			x[1] = e.To
			out[e.From] = x
		}
	}
	return out
}

// rank scores every context sentence for one claim: what the claim's
// entities and relations reach in the graph (SIMILAR edges, multihop paths
// within delta, the graph's verdict evidence), the claim's literal values
// the sentence states, and, weakly, the share of the claim's content words
// it holds (which orders sentences the graph leaves tied). Best first.
func rank(in Input, cl lexical.Claim, rels, ents []int, sents []sentence, ends map[int][2]int) []sentence {
	out := slices.Clone(sents)
	var spans []reachSpan
	if in.Graph != nil {
		reach, why := reached(in, rels, ents)
		spans = reachSpans(in, rels, ends, reach, why)
	}
	weighSpans(out, spans)
	weighLiterals(out, cl)
	weighWords(out, cl)
	sort.SliceStable(out, func(a, b int) bool {
		if out[a].weight != out[b].weight {
			return out[a].weight > out[b].weight
		}
		return out[a].pos < out[b].pos
	})
	return out
}

// reached returns the context entities and relations that the claim's
// entities ents and relations rels reach in in.Graph (not nil), by a SIMILAR
// edge or a multihop path within delta, with their best weight and why.
func reached(in Input, rels, ents []int) (reach map[int]float64, why map[int]string) {
	g := in.Graph
	reach, why = map[int]float64{}, map[int]string{}
	set := func(id int, w float64, how string) {
		if w > reach[id] {
			reach[id], why[id] = w, how
		}
	}
	isEnt := map[int]bool{}
	for _, id := range ents {
		isEnt[id] = true
	}
	isRel := map[int]bool{}
	for _, id := range rels {
		isRel[id] = true
	}
	for _, e := range g.Edges {
		if e.Type != kgeval.EdgeSimilar || g.Nodes[e.To].Side != kgeval.SideContext {
			continue
		}
		// A relation reaches only when it says something: the rule-read
		// relations are often glue words ("the", "with") that match
		// every sentence.
		if isEnt[e.From] || isRel[e.From] && len(lexical.ContentWords(g.Nodes[e.From].Label)) > 0 && len(lexical.ContentWords(g.Nodes[e.To].Label)) > 0 {
			set(e.To, e.Weight, g.Nodes[e.From].Label+" ~ "+g.Nodes[e.To].Label)
		}
	}
	if in.Result != nil {
		for _, ep := range in.Result.Paths {
			if !isEnt[ep.Node] || !ep.Passed || ep.Cost == nil || len(ep.PathIDs) < 2 {
				continue
			}
			last := ep.PathIDs[len(ep.PathIDs)-1]
			set(last, 1-*ep.Cost, "path "+strings.Join(ep.Path, " → "))
		}
	}
	return reach, why
}

// reachSpan is a span of a context passage that the claim reaches, with
// its weight and why.
type reachSpan struct {
	passage, start, end int
	w                   float64
	why                 string
}

// reachSpans returns the spans of the context relation nodes of in.Graph
// (not nil) weighted by the reach of their ends and their own, and the
// evidence of the graph's verdicts on the claim's relations rels.
func reachSpans(in Input, rels []int, ends map[int][2]int, reach map[int]float64, why map[int]string) []reachSpan {
	var spans []reachSpan
	for _, n := range in.Graph.Nodes {
		if n.Kind != kgeval.KindRelation || n.Side != kgeval.SideContext {
			continue
		}
		w, whys := reach[n.ID], []string{}
		if w > 0 {
			whys = append(whys, "relation "+why[n.ID])
		}
		for _, x := range ends[n.ID] {
			if x >= 0 && reach[x] > 0 {
				w += reach[x]
				if y := "entity " + why[x]; !slices.Contains(whys, y) {
					whys = append(whys, y)
				}
			}
		}
		if w > 0 {
			spans = append(spans, reachSpan{n.Passage, n.Start, n.End, w, strings.Join(whys, "; ")})
		}
	}
	if in.Result != nil {
		isRel := map[int]bool{}
		for _, id := range rels {
			isRel[id] = true
		}
		for _, v := range in.Result.Verdicts {
			if isRel[v.Node] && v.Evidence != nil && (v.Verdict == kgeval.VerdictSupported || v.Verdict == kgeval.VerdictContradicted) {
				spans = append(spans, reachSpan{v.Evidence.Passage, v.Evidence.Start, v.Evidence.End, 1, "verdict " + v.Verdict + " (" + v.Subject + "; " + v.Relation + "; " + v.Object + ")"})
			}
		}
	}
	return spans
}

// weighSpans adds to each sentence the weight of the spans it overlaps.
func weighSpans(out []sentence, spans []reachSpan) {
	for i := range out {
		s := &out[i]
		for _, sp := range spans {
			if sp.passage != s.passage || (sp.start == 0 && sp.end == 0) || sp.end <= s.start || sp.start >= s.end {
				continue
			}
			// A window that spans several sentences gives each its share.
			share := float64(min(sp.end, s.end)-max(sp.start, s.start)) / float64(sp.end-sp.start)
			s.weight += float64(sp.w * share) // rounded, not fused: ties between sentences stay ties on every architecture
			if len(s.why) < 4 && !slices.Contains(s.why, sp.why) {
				s.why = append(s.why, sp.why)
			}
		}
	}
}

// weighLiterals adds 1 to a sentence per literal value of the claim it
// states.
func weighLiterals(out []sentence, cl lexical.Claim) {
	for _, a := range lexical.Atoms(cl.Text) {
		if a.Kind != lexical.AtomLiteral {
			continue
		}
		for i := range out {
			s := &out[i]
			if s.lt.Backs(a) {
				s.weight++
				s.why = append(s.why, "literal "+a.Text)
			}
		}
	}
}

// weighWords adds the share of the claim's content words a sentence holds,
// scaled to a tie-breaker below any graph reach.
func weighWords(out []sentence, cl lexical.Claim) {
	words := lexical.ContentWords(cl.Text)
	if len(words) == 0 {
		return
	}
	for i := range out {
		s := &out[i]
		n := 0
		for _, w := range words {
			if s.lt.HasWord(w) {
				n++
			}
		}
		if n > 0 {
			s.weight += 0.01 * float64(n) / float64(len(words))
			if len(s.why) == 0 {
				s.why = append(s.why, "words")
			}
		}
	}
}

// cosineRank reorders ranked by the encoder's cosine with the claim alone.
func cosineRank(in Input, cl lexical.Claim, ranked []sentence) error {
	texts := make([]string, len(ranked))
	for i, s := range ranked {
		texts[i] = s.text
	}
	cos, err := in.Cosine(cl.Text, texts)
	if err != nil {
		return err
	}
	for i := range ranked {
		ranked[i].weight = cos[i]
		ranked[i].why = []string{"cosine"}
	}
	sort.SliceStable(ranked, func(a, b int) bool {
		if ranked[a].weight != ranked[b].weight {
			return ranked[a].weight > ranked[b].weight
		}
		return ranked[a].pos < ranked[b].pos
	})
	return nil
}

// window takes the best sentences up to budget estimated tokens; sentences
// nothing reached are taken only when nothing was.
func window(ranked []sentence, budget int) []kgeval.ClaimEvidence {
	var out []kgeval.ClaimEvidence
	used := 0
	for _, s := range ranked {
		if s.weight <= 0 && len(out) > 0 {
			break
		}
		n := EstimateTokens(s.text) + 1
		if used+n > budget {
			if len(out) == 0 {
				// One sentence longer than the budget: the checker cuts it.
				out = append(out, evidenceOf(s))
			}
			continue
		}
		used += n
		out = append(out, evidenceOf(s))
	}
	return out
}

// top returns the best n reached sentences, for the view.
func top(ranked []sentence, n int) []kgeval.ClaimEvidence {
	var out []kgeval.ClaimEvidence
	for _, s := range ranked {
		if len(out) == n || s.weight <= 0 {
			break
		}
		out = append(out, evidenceOf(s))
	}
	return out
}

func evidenceOf(s sentence) kgeval.ClaimEvidence {
	return kgeval.ClaimEvidence{Passage: s.passage, Start: s.start, End: s.end, Text: s.text, Weight: round(s.weight), Why: s.why}
}

func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }
