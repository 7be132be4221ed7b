package lexical

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Verdict of comparing two labels lexically, before any cosine.
type Verdict int

// The verdicts of Compare.
const (
	// Undecided: no literal evidence either way and not a spelling variant;
	// the caller decides by cosine >= tau.
	Undecided Verdict = iota
	// Same: identical keys, equal literals, or spelling variants; a match
	// with weight 1.
	Same
	// Conflict: a literal of one contradicts a literal of the same kind in
	// the other; never a match, whatever the cosine.
	Conflict
	// TextOnly: no literal contradicts and at least one agrees, but a text
	// part beyond the literals must still match: by cosine of the whole
	// labels, or by near-identical text parts.
	TextOnly
)

// String names the verdict: "undecided", "same", "conflict", "text-only".
func (v Verdict) String() string {
	switch v {
	case Same:
		return "same"
	case Conflict:
		return "conflict"
	case TextOnly:
		return "text-only"
	}
	return "undecided"
}

// Compare applies SPEC §3b's lexical rules, in this order (its cost grows
// with the product of the two labels' literal counts, which is small for
// labels capped at a few hundred characters):
//
//  1. Conflict when, for some kind, the two labels hold comparable literals
//     of that kind and no pair of them is Equal: "2010" vs "2014", "573-km"
//     vs "600 km", "founded in 2010 by Theodore Wolf" vs "2014 by Theodore
//     Scott". One agreeing pair settles a kind: "06:30 IST / 01:00 UTC" vs
//     "06:30" does not conflict. Literals that are not comparable (other
//     kind, currency, unit or zone) are no evidence either way. This comes
//     before key identity because kgeval.Key trims surrounding punctuation:
//     "-5" and "5" have one key but conflict.
//  2. Identical non-empty keys: Same. "70%" and "70" have one key (the "%"
//     is trimmed), so they are Same, as they are one node of a side.
//  3. Spelling variants (NearIdentical): Same. "PharmaCann" / "Pharma Cann";
//     "P SLV -C 56" / "PSLV-C56".
//  4. No agreeing literal: Undecided (the caller uses cosine). This includes
//     two labels whose literals are of different kinds only ("2010" vs
//     "$3.2 billion"): the parser cannot always tell a year from a count or
//     a bare number from an amount whose unit was dropped, so cosine decides.
//  5. Some literal agrees and neither label has a text part beyond filler
//     words (a weekday, "at", "on", "about", ...): Same when all the
//     literals of one label are Equal to literals of the other ("July 2023"
//     / "30 July 2023"; "573-km" / "573 km"; "Sunday, 30 July 2023 at 06:30
//     IST" / "30 July 2023": the time is extra but contradicts nothing);
//     otherwise Undecided.
//  6. Some literal agrees and a label has a text part: TextOnly ("launched on
//     30 July 2023" / "30 July 2023").
func Compare(a, b Label) Verdict {
	agree, conflict := evidence(a.Literals, b.Literals)
	if conflict {
		return Conflict
	}
	if a.Key != "" && a.Key == b.Key {
		return Same
	}
	if NearIdentical(a, b) {
		return Same
	}
	if !agree {
		return Undecided
	}
	if !a.content && !b.content {
		if covers(a.Literals, b.Literals) || covers(b.Literals, a.Literals) {
			return Same
		}
		return Undecided
	}
	return TextOnly
}

// evidence compares every literal of a with every literal of b: agree when
// some pair is Equal; conflict when some kind has comparable pairs and none
// of them Equal.
func evidence(a, b []Literal) (agree, conflict bool) {
	if len(a) == 0 || len(b) == 0 {
		return false, false
	}
	var eqKinds, neKinds uint8
	for _, x := range a {
		for _, y := range b {
			eq, cmp := Equal(x, y)
			switch {
			case eq:
				eqKinds |= kindBit(x.Kind) | kindBit(y.Kind)
			case cmp:
				neKinds |= kindBit(x.Kind)
			}
		}
	}
	return eqKinds != 0, neKinds&^eqKinds != 0
}

func kindBit(k Kind) uint8 {
	switch k {
	case KindNumber:
		return 1
	case KindDate:
		return 2
	case KindTime:
		return 4
	case KindDuration:
		return 8
	case KindPercent:
		return 16
	case KindMoney:
		return 32
	case KindQuantity:
		return 64
	}
	return 128
}

// covers reports whether every literal of a has an Equal literal in b.
func covers(a, b []Literal) bool {
	for _, x := range a {
		found := false
		for _, y := range b {
			if eq, _ := Equal(x, y); eq {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return len(a) > 0
}

// Match is the full SPEC §3b rule given the cosine of the two labels'
// embeddings: whether they match, and the weight of the match.
//
//   - Same: a match of weight 1, whatever the cosine.
//   - Conflict: no match, whatever the cosine (literal-only labels of the same
//     kind that are not Equal never match).
//   - TextOnly: a match of weight cos when cos >= tau; else a match of weight
//     1 when both labels have text parts and those are spelling variants.
//   - Undecided: a match of weight cos when cos >= tau. Literal-only labels of
//     different kinds only (a year vs a money amount) are Undecided, so they
//     match only when cos >= tau.
//
// When there is no match the weight is 0.
func Match(a, b Label, cos, tau float64) (ok bool, weight float64) {
	switch Compare(a, b) {
	case Same:
		return true, 1
	case Conflict:
		return false, 0
	case TextOnly:
		if cos >= tau {
			return true, cos
		}
		if a.content && b.content && nearRunes(a.text, b.text) {
			return true, 1
		}
		return false, 0
	}
	if cos >= tau {
		return true, cos
	}
	return false, 0
}

// Similar is a normalised string similarity in [0, 1] over the compact forms
// of a and b: 1 - Levenshtein(a, b) / max(len(a), len(b)), in runes; 1 for two
// empty strings. Levenshtein rather than Jaro-Winkler because Jaro-Winkler
// adds a bonus for a shared prefix, which different names of one family or
// series share ("Theodore Wolf" / "Theodore Scott"), while the variants this
// is for (spacing, hyphens, punctuation) are already identical after
// compaction. It is written here (a banded dynamic programme, a few lines)
// rather than imported.
func Similar(a, b string) float64 {
	ra := []rune(compactOf(a, false).s)
	rb := []rune(compactOf(b, false).s)
	m := max(len(ra), len(rb))
	if m == 0 {
		return 1
	}
	return 1 - float64(levenshtein(ra, rb, m))/float64(m)
}

// NearIdentical reports whether two labels are spelling variants: Similar of
// their compact keys >= 0.9, both at least 4 runes long ("CO" and "CA" are
// not variants), and the same digits in the same order ("Apollo 11" and
// "Apollo 12" are not variants, whatever their similarity).
func NearIdentical(a, b Label) bool {
	return a.digits == b.digits && nearRunes(a.compact, b.compact)
}

func nearRunes(a, b []rune) bool {
	if len(a) < 4 || len(b) < 4 {
		return false
	}
	m := max(len(a), len(b))
	k := m / 10 // Similar >= 0.9  <=>  distance*10 <= m
	if len(a)-len(b) > k || len(b)-len(a) > k {
		return false
	}
	return levenshtein(a, b, k) <= k
}

// levenshtein is the edit distance of a and b when it is at most k, else
// k+1. Only the band of cells within k of the diagonal is computed, so the
// cost is O(len·k).
func levenshtein(a, b []rune, k int) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	inf := k + 1
	if len(a)-len(b) > k {
		return inf
	}
	prev := make([]int, len(b)+2)
	cur := make([]int, len(b)+2)
	for j := 0; j <= len(b); j++ {
		prev[j] = min(j, inf)
	}
	prev[len(b)+1] = inf
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		low := inf
		if lo == 1 {
			cur[0] = min(i, inf)
			low = cur[0]
		} else {
			cur[lo-1] = inf
		}
		for j := lo; j <= hi; j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c = 1 + min(c, prev[j], cur[j-1])
			}
			c = min(c, inf)
			cur[j] = c
			low = min(low, c)
		}
		cur[hi+1] = inf
		if low >= inf {
			return inf
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// quote is a label as quoted text, for reasons.
func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// derivations are the suffixes SharesWord strips: inflections and the
// commonest derivations of a verb ("completed" / "completion",
// "expanded" / "expansion" share no inflected form but one stem).
var derivations = []string{"ations", "ation", "ions", "ion", "ments", "ment", "ings", "ing", "ers", "er", "ed", "es", "s", "e"}

// root is a token with one derivational suffix removed, keeping at least
// five characters; the token itself when none applies.
func root(tok string) string {
	for _, suf := range derivations {
		if strings.HasSuffix(tok, suf) && utf8.RuneCountInString(tok)-utf8.RuneCountInString(suf) >= 5 {
			return tok[:len(tok)-len(suf)]
		}
	}
	return tok
}

// SharesWord reports whether two relation labels share a content word up to
// its inflection or derivation ("was completed in" / "completion",
// "expanded" / "expansion over the years"): the same predicate in other
// words, which a small model's relation phrases often are and a sentence
// encoder does not always see (cos("completion", "completed") is below 0.6
// with all-MiniLM-L6-v2). Stop words never count.
func SharesWord(a, b Label) bool {
	roots := map[string]bool{}
	for _, t := range a.tokens {
		if utf8.RuneCountInString(t) >= 5 {
			roots[root(t)] = true
		}
	}
	for _, t := range b.tokens {
		if utf8.RuneCountInString(t) >= 5 && roots[root(t)] {
			return true
		}
	}
	return false
}

// NonAnswer reports whether a label says only that a value is not known:
// it holds one of the non-answer phrases and at most two other words, or
// ends with one ("the schedule date and time is not provided").
func NonAnswer(label string) bool {
	k := " " + strings.Join(strings.FieldsFunc(normFold(label), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '/')
	}), " ") + " "
	for _, p := range nonAnswers {
		if i := strings.Index(k, " "+p+" "); i >= 0 {
			if strings.HasSuffix(k, " "+p+" ") {
				return true
			}
			rest := strings.Fields(k[:i] + " " + k[i+len(p)+2:])
			var content int
			for _, w := range rest {
				if !stopWords[w] {
					content++
				}
			}
			return content <= 2
		}
	}
	return false
}
