package claims_test

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
	"github.com/kgeval/kgeval/scoring"
	"github.com/kgeval/kgeval/scoring/claims"
)

// paris is a context side of two passages in which one sentence, and only
// one, mentions the Eiffel Tower and 1889.
var paris = []string{
	"Paris is the capital of France. The city has many museums and parks along the river.",
	"The Louvre is the largest art museum in the world. The Eiffel Tower was completed in 1889 for the World's Fair.",
}

const towerSentence = "The Eiffel Tower was completed in 1889 for the World's Fair."

// MustInput builds the claim work of text against passages the way
// `extraction.method: rules` does: both sides' triplets read by rule
// (lexical.Chain) with the span of their sentence, the faithfulness pair
// graph built by scoring.Build with one orthogonal vector per label key (so
// only equal keys and spelling variants are SIMILAR: no encoder in the
// test), and scored by the native engine.
func MustInput(tb testing.TB, text string, passages ...string) (claims.Input, kgeval.GraphParams) {
	tb.Helper()
	read := func(s string, passage int) []kgeval.Triplet {
		var ts []kgeval.Triplet
		for _, f := range lexical.Chain(s) {
			ts = append(ts, kgeval.Triplet{Subject: f.Subject.Text, Relation: f.Relation.Text, Object: f.Object.Text,
				Passage: passage, Start: f.Sentence.Start, End: f.Sentence.End, Source: kgeval.SourceRules})
		}
		return ts
	}
	in := read(text, 0)
	var ctx []kgeval.Triplet
	var ps []claims.Passage
	for i, p := range passages {
		ctx = append(ctx, read(p, i)...)
		ps = append(ps, claims.Passage{Index: i, Text: p})
	}
	keys := scoring.LabelKeys(in, ctx)
	vec := scoring.Vectors{}
	for i, k := range keys {
		v := make([]float32, len(keys))
		v[i] = 1
		vec[k] = v
	}
	p := kgeval.DefaultGraphParams()
	g, err := scoring.Build("s", kgeval.Pair{Name: "faithfulness", Input: kgeval.TextAnswer, Context: kgeval.TextContexts},
		scoring.Side{Text: kgeval.TextAnswer, Triplets: in}, scoring.Side{Text: kgeval.TextContexts, Triplets: ctx}, vec, p)
	if err != nil {
		tb.Fatal(err)
	}
	r := (&scoring.Native{Seed: 1}).ScoreOne(g, p)
	return claims.Input{Text: text, Passages: ps, Graph: g, Result: &r}, p
}

// MustCheck runs claims.Check and fails tb on error.
func MustCheck(tb testing.TB, in claims.Input, p claims.Params) []kgeval.ClaimCheck {
	tb.Helper()
	cs, err := claims.Check(in, p)
	if err != nil {
		tb.Fatal(err)
	}
	return cs
}

// TestCheck_Window checks the evidence window: a context side that fits
// the budget is shown whole, as it is; one that does not is cut to the
// sentences the claim reaches, in context order, and each says why.
func TestCheck_Window(t *testing.T) {
	louvre := func(claim string, sents []string) ([]float64, error) {
		out := make([]float64, len(sents))
		for i, s := range sents {
			if strings.Contains(s, "Louvre") {
				out[i] = 0.9
			}
		}
		return out, nil
	}
	for _, tc := range []struct {
		name     string
		text     string
		params   claims.Params
		noGraph  bool
		cosine   func(string, []string) ([]float64, error)
		wantMode string
		// wantWindow nil: the passages as they are.
		wantWindow []string
		// wantWhy are substrings of the best evidence sentence's reasons.
		wantWhy []string
	}{
		{name: "fits whole", text: "The Eiffel Tower was completed in 1889.", params: claims.Params{Mode: claims.ModeGraph, Budget: 1000},
			wantMode: claims.ModeWhole, wantWhy: []string{"entity Eiffel Tower ~ Eiffel Tower", "literal 1889"}},
		{name: "fits whole in cosine mode", text: "The Eiffel Tower was completed in 1889.", params: claims.Params{Mode: claims.ModeCosine, Budget: 1000},
			cosine: louvre, wantMode: claims.ModeWhole, wantWhy: []string{"entity Eiffel Tower ~ Eiffel Tower"}},
		{name: "graph chooses the sentence", text: "The Eiffel Tower was completed in 1889.", params: claims.Params{Mode: claims.ModeGraph, Budget: 30},
			wantMode: claims.ModeGraph, wantWindow: []string{towerSentence},
			wantWhy: []string{"entity Eiffel Tower ~ Eiffel Tower", "entity 1889 ~ 1889", "verdict supported (Eiffel Tower; was; completed)", "literal 1889"}},
		{name: "two reached sentences in context order", text: "The Eiffel Tower was completed in 1889 and Paris is the capital of France.",
			params: claims.Params{Mode: claims.ModeGraph, Budget: 40}, wantMode: claims.ModeGraph,
			wantWindow: []string{"Paris is the capital of France.", towerSentence}, wantWhy: []string{"entity Eiffel Tower ~ Eiffel Tower"}},
		{name: "budget keeps the best only", text: "The Eiffel Tower was completed in 1889 and Paris is the capital of France.",
			params: claims.Params{Mode: claims.ModeGraph, Budget: 30}, wantMode: claims.ModeGraph, wantWindow: []string{towerSentence}},
		{name: "room to spare: unreached sentences stay out", text: "The Eiffel Tower was completed in 1889.", params: claims.Params{Mode: claims.ModeGraph, Budget: 60},
			wantMode: claims.ModeGraph, wantWindow: []string{towerSentence}},
		{name: "no graph: the literal reaches", text: "The Eiffel Tower was completed in 1889.", params: claims.Params{Mode: claims.ModeGraph, Budget: 30},
			noGraph: true, wantMode: claims.ModeGraph, wantWindow: []string{towerSentence}, wantWhy: []string{"literal 1889"}},
		{name: "cosine chooses", text: "The Eiffel Tower was completed in 1889.", params: claims.Params{Mode: claims.ModeCosine, Budget: 30},
			cosine: louvre, wantMode: claims.ModeCosine, wantWindow: []string{"The Louvre is the largest art museum in the world."}, wantWhy: []string{"cosine"}},
		{name: "whole mode does not cut", text: "The Eiffel Tower was completed in 1889.", params: claims.Params{Mode: claims.ModeWhole, Budget: 30},
			wantMode: claims.ModeWhole, wantWhy: []string{"literal 1889"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, gp := MustInput(t, tc.text, paris...)
			if tc.noGraph {
				in.Graph, in.Result = nil, nil
			}
			in.Cosine = tc.cosine
			tc.params.Delta = gp.Delta
			cs := MustCheck(t, in, tc.params)
			if len(cs) != 1 {
				t.Fatalf("%d claims, want 1: %+v", len(cs), cs)
			}
			c := cs[0]
			if c.Text != tc.text || c.Start != 0 || c.End != len(tc.text) {
				t.Errorf("claim %q [%d, %d), want the whole text", c.Text, c.Start, c.End)
			}
			if c.EvidenceMode != tc.wantMode {
				t.Errorf("EvidenceMode %q, want %q", c.EvidenceMode, tc.wantMode)
			}
			want := tc.wantWindow
			if want == nil {
				want = paris
			}
			got := claims.Window(c, in.Passages)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Window:\n%q\nwant\n%q", got, want)
			}
			if c.EvidenceMode != claims.ModeWhole {
				used := 0
				for _, e := range c.Evidence {
					used += claims.EstimateTokens(e.Text) + 1
				}
				if used > tc.params.Budget {
					t.Errorf("window of %d estimated tokens, budget %d", used, tc.params.Budget)
				}
			}
			if len(c.Evidence) == 0 {
				t.Fatal("no evidence")
			}
			for i, e := range c.Evidence {
				if p := paris[e.Passage]; e.Start < 0 || e.End > len(p) || strings.TrimSpace(p[e.Start:e.End]) != e.Text {
					t.Errorf("evidence %d: passage %d [%d, %d) is not %q", i, e.Passage, e.Start, e.End, e.Text)
				}
				if i > 0 && e.Weight > c.Evidence[i-1].Weight {
					t.Errorf("evidence %d weighs %v, more than the one before (%v): not best first", i, e.Weight, c.Evidence[i-1].Weight)
				}
			}
			why := strings.Join(c.Evidence[0].Why, "\n")
			for _, w := range tc.wantWhy {
				if !strings.Contains(why, w) {
					t.Errorf("best evidence %q: why\n%s\nwant it to name %q", c.Evidence[0].Text, why, w)
				}
			}
			t.Logf("%s: %q ← %s", c.EvidenceMode, got, strings.Join(c.Evidence[0].Why, " | "))
		})
	}
}

// TestWindow checks the order Window shows a cut window in: context order
// (passage, then offset), whatever the rank order; a whole one is the
// passages.
func TestWindow(t *testing.T) {
	ps := []claims.Passage{{Index: 0, Text: "a. b."}, {Index: 1, Text: "c. d."}}
	c := kgeval.ClaimCheck{EvidenceMode: claims.ModeGraph, Evidence: []kgeval.ClaimEvidence{
		{Passage: 1, Start: 3, End: 5, Text: "d.", Weight: 3},
		{Passage: 0, Start: 3, End: 5, Text: "b.", Weight: 2},
		{Passage: 1, Start: 0, End: 2, Text: "c.", Weight: 1},
	}}
	if got, want := claims.Window(c, ps), []string{"b.", "c.", "d."}; !reflect.DeepEqual(got, want) {
		t.Errorf("graph window %q, want %q", got, want)
	}
	if c.Evidence[0].Text != "d." {
		t.Errorf("Window reordered the claim's evidence: %+v", c.Evidence)
	}
	c.EvidenceMode = claims.ModeWhole
	if got, want := claims.Window(c, ps), []string{"a. b.", "c. d."}; !reflect.DeepEqual(got, want) {
		t.Errorf("whole window %q, want %q", got, want)
	}
}

// TestCheck_Claims checks that each claim of a text gets its own span and
// the triplets stated in it.
func TestCheck_Claims(t *testing.T) {
	text := "The Eiffel Tower was completed in 1889 [1]. Paris is the capital of France."
	in, gp := MustInput(t, text, paris...)
	cs := MustCheck(t, in, claims.Params{Mode: claims.ModeGraph, Budget: 30, Delta: gp.Delta})
	if len(cs) != 2 {
		t.Fatalf("%d claims, want 2", len(cs))
	}
	for i, want := range []struct{ text, span, subject string }{
		{"The Eiffel Tower was completed in 1889.", "The Eiffel Tower was completed in 1889 [1].", "Eiffel Tower"},
		{"Paris is the capital of France.", "Paris is the capital of France.", "Paris"},
	} {
		c := cs[i]
		if c.Text != want.text || text[c.Start:c.End] != want.span {
			t.Errorf("claim %d: %q at %q, want %q at %q", i, c.Text, text[c.Start:c.End], want.text, want.span)
		}
		if len(c.Triplets) == 0 {
			t.Errorf("claim %d: no triplets", i)
		}
		subjects := map[string]bool{}
		for _, id := range c.Triplets {
			n := in.Graph.Nodes[id]
			if n.Kind != kgeval.KindRelation || n.Side != kgeval.SideInput || n.End <= c.Start || n.Start >= c.End {
				t.Errorf("claim %d: triplet node %d %+v is not an input relation within the claim", i, id, n)
			}
			for _, e := range in.Graph.Edges {
				if e.Type == kgeval.EdgeStructural && e.To == id {
					subjects[in.Graph.Nodes[e.From].Label] = true
				}
			}
		}
		if !subjects[want.subject] {
			t.Errorf("claim %d: triplet subjects %v, want %q among them", i, subjects, want.subject)
		}
	}
	if got := claims.Window(cs[1], in.Passages); !reflect.DeepEqual(got, []string{"Paris is the capital of France."}) {
		t.Errorf("second claim's window %q", got)
	}
	// A dataset's own triplets have no span: a claim takes those whose
	// subject or object it names.
	for i := range in.Graph.Nodes {
		if n := &in.Graph.Nodes[i]; n.Side == kgeval.SideInput {
			n.Start, n.End = 0, 0
		}
	}
	spanless := MustCheck(t, in, claims.Params{Mode: claims.ModeGraph, Budget: 30, Delta: gp.Delta})
	for i := range cs {
		if !reflect.DeepEqual(spanless[i].Triplets, cs[i].Triplets) {
			t.Errorf("claim %d without spans: triplets %v, want %v", i, spanless[i].Triplets, cs[i].Triplets)
		}
	}
}

// TestCheck_WindowShare: a triplet read from a window of several sentences
// (a model's extraction window) gives each sentence its share of what the
// claim reaches through it, by length: the shares add up to what one
// sentence gets when the triplets carry their sentence's span.
func TestCheck_WindowShare(t *testing.T) {
	in, gp := MustInput(t, "The Eiffel Tower was completed in 1889.", paris...)
	p := claims.Params{Mode: claims.ModeGraph, Budget: 60, Delta: gp.Delta}
	one := MustCheck(t, in, p)[0].Evidence
	if len(one) != 1 || one[0].Text != towerSentence {
		t.Fatalf("sentence spans: evidence %+v, want the tower sentence alone", one)
	}
	for i := range in.Graph.Nodes {
		if n := &in.Graph.Nodes[i]; n.Side == kgeval.SideContext && n.Kind == kgeval.KindRelation && n.Passage == 1 {
			n.Start, n.End = 0, len(paris[1])
		}
	}
	two := MustCheck(t, in, p)[0].Evidence
	if len(two) != 2 || two[0].Text != towerSentence || !strings.HasPrefix(two[1].Text, "The Louvre") {
		t.Fatalf("passage-wide spans: evidence %+v, want the tower sentence, then the Louvre's", two)
	}
	if sum := two[0].Weight + two[1].Weight; abs(sum-one[0].Weight) > 2e-4 || two[1].Weight <= 0 {
		t.Errorf("weights %v + %v = %v, want shares of %v", two[0].Weight, two[1].Weight, sum, one[0].Weight)
	}
}

// TestCheck_PathReach: a claim none of whose entities is SIMILAR to a
// context entity reaches the sentence its multihop path ends in, and the
// evidence names the path.
func TestCheck_PathReach(t *testing.T) {
	text := "The engineer built the famous landmark. The famous landmark is the Eiffel Tower."
	in, gp := MustInput(t, text, paris...)
	cs := MustCheck(t, in, claims.Params{Mode: claims.ModeGraph, Budget: 30, Delta: gp.Delta})
	if len(cs) != 2 {
		t.Fatalf("%d claims, want 2", len(cs))
	}
	c := cs[0]
	if got := claims.Window(c, in.Passages); !reflect.DeepEqual(got, []string{towerSentence}) {
		t.Fatalf("window %q, want the tower sentence", got)
	}
	// famous landmark → is the → Eiffel Tower (input) ~ Eiffel Tower
	// (context): cost 0.1 + 0.1 + 0.
	e := c.Evidence[0]
	if want := "entity path famous landmark → is the → Eiffel Tower → Eiffel Tower"; !reflect.DeepEqual(e.Why, []string{want}) || e.Weight != 0.8 {
		t.Errorf("evidence weight %v, why %q; want 0.8, %q", e.Weight, e.Why, want)
	}
	if c.Features[kgeval.FeatureReach] != 1 {
		t.Errorf("reach %v, want 1", c.Features[kgeval.FeatureReach])
	}
}

// TestCheck_Conflicts checks the literal and name conflicts of a claim
// with its evidence: another value after the same anchor word conflicts,
// the same value or another slot does not.
func TestCheck_Conflicts(t *testing.T) {
	for _, tc := range []struct {
		name, claim, evidence string
		want                  []kgeval.ClaimConflict
	}{
		{"currency", "The budget was €2.5 million.", "The budget was $2.5 million.",
			[]kgeval.ClaimConflict{{Kind: "currency", Claim: "€2.5 million", Evidence: "$2.5 million", Sentence: "The budget was $2.5 million."}}},
		{"amount", "The budget was $3 million.", "The budget was $2.5 million.",
			[]kgeval.ClaimConflict{{Kind: "money", Claim: "$3 million", Evidence: "$2.5 million", Sentence: "The budget was $2.5 million."}}},
		{"date", "The tower was completed in 1925.", "The tower was completed in 1889.",
			[]kgeval.ClaimConflict{{Kind: "date", Claim: "1925", Evidence: "1889", Sentence: "The tower was completed in 1889."}}},
		{"name", "The film was directed by Steven Spielberg.", "The film was directed by Christopher Nolan.",
			[]kgeval.ClaimConflict{{Kind: "name", Claim: "Steven Spielberg", Evidence: "Christopher Nolan", Sentence: "The film was directed by Christopher Nolan."}}},
		{"value stated", "The tower was completed in 1889.", "The tower was completed in 1889.", nil},
		{"date written otherwise", "The launch was on 30 July 2023.", "The launch was on 2023-07-30.", nil},
		{"name stated", "The film was directed by Christopher Nolan.", "The film was directed by Christopher Nolan.", nil},
		{"another slot", "The tower opened in 1889.", "The tower was painted in 1968.", nil},
		// The evidence names one of the claim's two directors.
		{"a name the claim names too", "The film was directed by Steven Spielberg with Christopher Nolan.", "The film was directed by Christopher Nolan.", nil},
		// An abbreviation after the name it abbreviates, and a place in a
		// list of places, are not the same slot stated otherwise.
		{"abbreviation after a name", "The launch will take place from the Satish Dhawan Space Centre (SDSC) SHAR, located in Sriharikota, India.",
			"It is scheduled to get launched from Satish Dhawan Space Centre, Sriharikota, Andhra Pradesh, India.", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, gp := MustInput(t, tc.claim, tc.evidence)
			cs := MustCheck(t, in, claims.Params{Mode: claims.ModeGraph, Budget: 1500, Delta: gp.Delta})
			if len(cs) != 1 {
				t.Fatalf("%d claims", len(cs))
			}
			c := cs[0]
			if !reflect.DeepEqual(c.Conflicts, tc.want) {
				t.Errorf("conflicts %+v, want %+v (evidence %+v)", c.Conflicts, tc.want, c.Evidence)
			}
			if want := map[bool]float64{true: 1, false: 0}[len(tc.want) > 0]; c.Features[kgeval.FeatureConflict] != want {
				t.Errorf("conflict feature %v, want %v", c.Features[kgeval.FeatureConflict], want)
			}
		})
	}
}

// TestCheck_Features checks that every claim has the features that need
// no model, each in [0, 1] (novel, a log count, at least 0), and their values on claims worked out by
// hand.
func TestCheck_Features(t *testing.T) {
	for _, tc := range []struct {
		name, claim string
		passages    []string
		noGraph     bool
		want        map[string]float64
	}{
		// Every word, value, triplet and entity is in the passage.
		{"grounded", "The Eiffel Tower was completed in 1889.", paris, false,
			map[string]float64{kgeval.FeatureOverlap: 1, kgeval.FeatureAtoms: 1, kgeval.FeatureSupport: 1, kgeval.FeatureReach: 1, kgeval.FeatureConflict: 0, kgeval.FeatureNovel: 0, kgeval.FeatureSentence: 1, kgeval.FeaturePairs: 1,
				kgeval.FeatureTrigrams: 1, kgeval.FeatureSentenceF1: 0.8}}, // 4 words against the sentence's 6
		// Without a graph the graph's signals are 0.
		{"no graph", "The Eiffel Tower was completed in 1889.", paris, true,
			map[string]float64{kgeval.FeatureOverlap: 1, kgeval.FeatureAtoms: 1, kgeval.FeatureSupport: 0, kgeval.FeatureReach: 0, kgeval.FeatureConflict: 0, kgeval.FeatureNovel: 0, kgeval.FeatureSentence: 1, kgeval.FeaturePairs: 1,
				kgeval.FeatureTrigrams: 1, kgeval.FeatureSentenceF1: 0.8}}, // 4 words against the sentence's 6
		// tower and completed are stated, 1925 is not: (tower, was,
		// completed) is supported, (completed, in, 1925) contradicted;
		// 1925 reaches nothing.
		{"another year", "The tower was completed in 1925.", []string{"The tower was completed in 1889."}, false,
			map[string]float64{kgeval.FeatureOverlap: 2.0 / 3, kgeval.FeatureAtoms: 0, kgeval.FeatureSupport: 0.5, kgeval.FeatureReach: 2.0 / 3, kgeval.FeatureConflict: 1,
				kgeval.FeatureNovel: math.Log(2), kgeval.FeatureSentence: 2.0 / 3, kgeval.FeaturePairs: 0.5,
				// 3 of the trigrams, "completed in 1925" not; 2 of 3 words
				// against the sentence's 3.
				kgeval.FeatureTrigrams: 0.75, kgeval.FeatureSentenceF1: 2.0 / 3}},
		// Nothing of the claim in the passage.
		{"unrelated", "The Colosseum is in Rome.", paris, false,
			map[string]float64{kgeval.FeatureOverlap: 0, kgeval.FeatureAtoms: 0, kgeval.FeatureSupport: 0, kgeval.FeatureReach: 0, kgeval.FeatureConflict: 0,
				kgeval.FeatureNovel: math.Log(3), kgeval.FeatureSentence: 0, kgeval.FeaturePairs: 0, kgeval.FeatureTrigrams: 0, kgeval.FeatureSentenceF1: 0}},
		// Every word is in the passage, but not as the claim puts them
		// together: of "tower completed", "completed 1889", "1889
		// world", "world fair" only the first is a pair the passage has
		// ("fair of the world" gives "fair world").
		{"recombined", "The tower completed 1889 the world fair.", []string{"The fair of the world opened in 1889; the tower was completed later."}, true,
			map[string]float64{kgeval.FeatureOverlap: 1, kgeval.FeatureAtoms: 1, kgeval.FeatureSupport: 0, kgeval.FeatureReach: 0, kgeval.FeatureConflict: 0,
				kgeval.FeatureNovel: 0, kgeval.FeatureSentence: 1, kgeval.FeaturePairs: 0.25,
				// No trigram is the passage's wording; all 5 words against
				// the sentence's 7.
				kgeval.FeatureTrigrams: 0, kgeval.FeatureSentenceF1: 10.0 / 12}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, gp := MustInput(t, tc.claim, tc.passages...)
			if tc.noGraph {
				in.Graph, in.Result = nil, nil
			}
			cs := MustCheck(t, in, claims.Params{Mode: claims.ModeGraph, Budget: 30, Delta: gp.Delta})
			if len(cs) != 1 {
				t.Fatalf("%d claims", len(cs))
			}
			f := cs[0].Features
			noModel := append(slices.Clone(kgeval.CalibrationFeaturesNoModel), kgeval.FeatureNovel, kgeval.FeatureSentence, kgeval.FeaturePairs, kgeval.FeatureSentenceF1, kgeval.FeatureTrigrams)
			if len(f) != len(noModel) {
				t.Errorf("features %v, want exactly %v", f, noModel)
			}
			for _, n := range noModel {
				v, ok := f[n]
				if !ok || v < 0 || (v > 1 && n != kgeval.FeatureNovel) {
					t.Errorf("feature %s = %v (present %v), want in [0, 1]", n, v, ok)
				}
				if w := tc.want[n]; abs(v-w) > 1e-12 {
					t.Errorf("feature %s = %v, want %v", n, v, w)
				}
			}
			if _, ok := f[kgeval.FeatureModel]; ok {
				t.Errorf("model feature set before the model was asked")
			}
		})
	}
}

// TestCheck_PairsQuestion checks that the question's word pairs count as
// stated for its answer's claims (FeaturePairs), and only for pairs.
func TestCheck_PairsQuestion(t *testing.T) {
	claim := "The Eiffel Tower was completed in 1889 for Gustave Eiffel."
	in, gp := MustInput(t, claim, paris...)
	p := claims.Params{Mode: claims.ModeGraph, Budget: 30, Delta: gp.Delta}
	// eiffel tower, tower completed, completed 1889 are in the passage;
	// 1889 gustave and gustave eiffel are not.
	if got := MustCheck(t, in, p)[0].Features[kgeval.FeaturePairs]; abs(got-3.0/5) > 1e-12 {
		t.Errorf("pairs without the question = %v, want 3/5", got)
	}
	in.Question = "Was the tower built in 1889 for Gustave Eiffel?"
	f := MustCheck(t, in, p)[0].Features
	// The question states "1889 gustave" and "gustave eiffel".
	if got := f[kgeval.FeaturePairs]; got != 1 {
		t.Errorf("pairs with the question = %v, want 1", got)
	}
	// gustave is in no passage: overlap reads the context side alone.
	if got := f[kgeval.FeatureOverlap]; abs(got-4.0/5) > 1e-12 {
		t.Errorf("overlap = %v, want 4/5: the question does not change it", got)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
