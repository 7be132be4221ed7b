package claims

import (
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
)

// conflictSentences is how many of the best ranked evidence sentences a
// claim's values are compared with.
const conflictSentences = 5

// anchorWords is how many words before a value name its slot ("born in
// 1948": born; "a budget of $3 million": budget).
const anchorWords = 3

// conflicts finds the claim's values and names that its evidence states
// otherwise in the same slot (SPEC §4d): a claim atom that no evidence
// sentence states, and an evidence sentence that has an atom of the same
// kind with another value (for money, the same amount in another currency
// too) after one of the claim atom's anchor words (the content words just
// before it). Names conflict only after an anchor that is a verb or
// preposition phrase of at least one content word, and only with a name
// the claim does not mention.
func conflicts(claim string, ranked []sentence) []kgeval.ClaimConflict {
	var ev []sentence
	for _, s := range ranked {
		if len(ev) == conflictSentences || s.weight <= 0 {
			break
		}
		ev = append(ev, s)
	}
	if len(ev) == 0 {
		return nil
	}
	texts := make([]*lexical.Text, len(ev))
	for i, s := range ev {
		texts[i] = s.lt
	}
	claimLower := strings.ToLower(claim)
	var out []kgeval.ClaimConflict
	for _, a := range lexical.Atoms(claim) {
		stated := false
		for _, t := range texts {
			if t.Backs(a) {
				stated = true
				break
			}
		}
		if stated {
			continue
		}
		anchors := anchorsBefore(claim, a.Span.Start, a.Kind == lexical.AtomName)
		if len(anchors) == 0 {
			continue
		}
		for i, s := range ev {
			for _, b := range lexical.Atoms(s.text) {
				if b.Kind != a.Kind || !sharesAnchor(anchors, anchorsBefore(s.text, b.Span.Start, b.Kind == lexical.AtomName)) {
					continue
				}
				kind, ok := differs(a, b, claimLower)
				if !ok {
					continue
				}
				out = append(out, kgeval.ClaimConflict{Kind: kind, Claim: a.Text, Evidence: b.Text, Sentence: ev[i].text})
				break
			}
			if len(out) > 0 && out[len(out)-1].Claim == a.Text {
				break
			}
		}
	}
	return out
}

// differs reports whether evidence atom b states another value than claim
// atom a in a's kind: a literal of the same kind with another value, money
// in another currency, or a name the claim does not mention.
func differs(a, b lexical.Atom, claimLower string) (kind string, ok bool) {
	if a.Kind == lexical.AtomName {
		if strings.Contains(claimLower, strings.ToLower(b.Text)) || lexical.SharesWord(lexical.NewLabel(a.Text), lexical.NewLabel(b.Text)) {
			return "", false
		}
		return "name", true
	}
	x, y := a.Literal, b.Literal
	if x.Kind != y.Kind {
		return "", false
	}
	if x.Kind == lexical.KindMoney && x.Unit != "" && y.Unit != "" && x.Unit != y.Unit {
		return "currency", true
	}
	eq, comparable := lexical.Equal(x, y)
	if !comparable || eq {
		return "", false
	}
	return string(x.Kind), true
}

// anchorsBefore returns the content words among the anchorWords words
// before byte offset at of s. For a name (lower), only the words in lower
// case count: a name right after another name ("Satish Dhawan Space Centre
// (SDSC)", "Centre, Sriharikota, Andhra Pradesh") is that name's
// abbreviation or a place in a list, not the same slot stated otherwise.
func anchorsBefore(s string, at int, lower bool) []string {
	fields := strings.Fields(s[:at])
	if len(fields) > anchorWords {
		fields = fields[len(fields)-anchorWords:]
	}
	if lower {
		kept := fields[:0:0]
		for _, f := range fields {
			if r := []rune(strings.TrimLeft(f, "(\"'“‘[")); len(r) > 0 && !unicode.IsUpper(r[0]) {
				kept = append(kept, f)
			}
		}
		fields = kept
	}
	return lexical.ContentWords(strings.Join(fields, " "))
}

func sharesAnchor(a, b []string) bool {
	for _, w := range a {
		if slices.Contains(b, w) {
			return true
		}
	}
	return false
}

// features computes the claim's signals that need no model (see
// kgeval.CalibrationFeatures).
func features(c *kgeval.ClaimCheck, in Input, cl lexical.Claim, rels, ents []int, ctxTexts []*lexical.Text, sents []sentence) {
	f := c.Features
	// Word overlap: the claim's content words any context text holds;
	// novel: how many none holds; sentence: the best one sentence's share,
	// sentence_f1: the best F1 of the claim's words against a sentence's.
	words := lexical.ContentWords(cl.Text)
	f[kgeval.FeatureSentenceF1] = 0
	if len(words) > 0 {
		n := held(words, ctxTexts, (*lexical.Text).HasWord)
		f[kgeval.FeatureOverlap] = float64(n) / float64(len(words))
		f[kgeval.FeatureNovel] = math.Log1p(float64(len(words) - n))
		best := 0
		for _, s := range sents {
			k := 0
			for _, w := range words {
				if s.lt.HasWord(w) {
					k++
				}
			}
			best = max(best, k)
			f[kgeval.FeatureSentenceF1] = max(f[kgeval.FeatureSentenceF1], 2*float64(k)/float64(len(words)+s.words))
		}
		f[kgeval.FeatureSentence] = float64(best) / float64(len(words))
	}
	// Trigrams: the claim's wording that a context text states.
	f[kgeval.FeatureTrigrams] = 0
	if grams := lexical.WordTrigrams(cl.Text); len(grams) > 0 {
		f[kgeval.FeatureTrigrams] = float64(held(grams, ctxTexts, (*lexical.Text).HasGram)) / float64(len(grams))
	}
	// Atoms: the claim's names and values the context states.
	atoms := lexical.Atoms(cl.Text)
	f[kgeval.FeatureAtoms] = 1
	if len(atoms) > 0 {
		n := held(atoms, ctxTexts, (*lexical.Text).Backs)
		f[kgeval.FeatureAtoms] = float64(n) / float64(len(atoms))
	}
	// Graph: the claim's triplets supported (graph or sentence verdict),
	// and its entities within multihop's delta.
	f[kgeval.FeatureSupport], f[kgeval.FeatureReach] = 0, 0
	if in.Result != nil && len(rels) > 0 {
		isRel := map[int]bool{}
		for _, id := range rels {
			isRel[id] = true
		}
		n, sup := 0, 0
		for _, v := range in.Result.Verdicts {
			if !isRel[v.Node] || v.Asked {
				continue
			}
			n++
			if v.Verdict == kgeval.VerdictSupported || v.Text == kgeval.VerdictSupported {
				sup++
			}
		}
		if n > 0 {
			f[kgeval.FeatureSupport] = float64(sup) / float64(n)
		}
	}
	if in.Result != nil && len(ents) > 0 {
		isEnt := map[int]bool{}
		for _, id := range ents {
			isEnt[id] = true
		}
		n, passed := 0, 0
		for _, ep := range in.Result.Paths {
			if isEnt[ep.Node] {
				n++
				if ep.Passed {
					passed++
				}
			}
		}
		if n > 0 {
			f[kgeval.FeatureReach] = float64(passed) / float64(n)
		}
	}
	f[kgeval.FeatureConflict] = 0
	if len(c.Conflicts) > 0 {
		f[kgeval.FeatureConflict] = 1
	}
}

// Logit is log(p/(1-p)) with p kept within [1e-4, 1-1e-4], the model
// feature of the calibration.
func Logit(p float64) float64 {
	p = math.Min(math.Max(p, 1e-4), 1-1e-4)
	return math.Log(p / (1 - p))
}

// pairsShare is FeaturePairs: the share of claim's word pairs that one of
// texts (the context side and the question) holds (1 when it has none).
func pairsShare(claim string, texts []*lexical.Text) float64 {
	pairs := lexical.WordPairs(claim)
	if len(pairs) == 0 {
		return 1
	}
	return float64(held(pairs, texts, (*lexical.Text).HasPair)) / float64(len(pairs))
}

// held counts the items that at least one of texts holds (has).
func held[T any](items []T, texts []*lexical.Text, has func(*lexical.Text, T) bool) int {
	n := 0
	for _, x := range items {
		if slices.ContainsFunc(texts, func(t *lexical.Text) bool { return has(t, x) }) {
			n++
		}
	}
	return n
}
