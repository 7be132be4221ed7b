package lexical

import (
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Text is a passage prepared for Occurs: its compact form, sentences, tokens
// and literals are computed once, since one passage is checked against
// dozens of labels. A Text is read-only after NewText and safe for
// concurrent use.
type Text struct {
	raw      string
	compact  string
	brk      []bool // per compact byte: something was removed before it
	ident    []bool // per compact byte: a digit of an identifier ("56" of "PSLV-C56")
	literals []Literal
	// tokens maps each token of the text, and each token with a suffix
	// stripped (see stem), to the sentences holding it, in order.
	tokens    map[string][]int32
	sentences int
	spans     []Span // the sentences
	atoms     []Atom // Atoms of raw, computed on first use (atomsOnce)
	atomsOnce sync.Once
}

// NewText prepares text for Occurs.
func NewText(text string) *Text {
	var p parser
	if text != "" {
		p.parse(text)
	}
	t := &Text{raw: text, literals: p.out, tokens: map[string][]int32{}}
	f := compactOf(text, true)
	t.compact, t.brk = f.s, f.brk
	t.ident = make([]bool, len(f.s))
	k := 0
	for i, r := range f.raw {
		for k < len(p.ids) && p.ids[k].End <= int(r) {
			k++
		}
		t.ident[i] = k < len(p.ids) && p.ids[k].Start <= int(r)
	}
	t.spans = Sentences(text)
	for si, s := range t.spans {
		t.sentences++
		for _, tok := range tokensOf(text[s.Start:s.End]) {
			t.add(tok, int32(si))
			for _, st := range stems(tok) {
				t.add(st, int32(si))
			}
		}
	}
	return t
}

func (t *Text) add(tok string, s int32) {
	l := t.tokens[tok]
	if len(l) > 0 && l[len(l)-1] == s {
		return
	}
	t.tokens[tok] = append(l, s)
}

// suffixes stripped for the light plural and inflection tolerance of the
// token rule: "satellites" ~ "satellite", "launched" ~ "launch" ~ "launches".
var inflections = []string{"'s", "ing", "ed", "es", "s", "d"}

// stems are tok with one inflection removed, keeping at least three runes.
func stems(tok string) []string {
	var out []string
	for _, suf := range inflections {
		if strings.HasSuffix(tok, suf) && utf8.RuneCountInString(tok)-len(suf) >= 3 {
			out = append(out, tok[:len(tok)-len(suf)])
		}
	}
	return out
}

// Occurs reports whether label occurs in text per SPEC §2b. See
// (*Text).Occurs.
func Occurs(label, text string) bool {
	return NewText(text).Occurs(label)
}

// Occurs reports whether label occurs in the text per SPEC §2b.
//
// Every literal of the label must be stated in the text: an Equal literal
// somewhere in it ("5 August 2023" does not occur in a text that says 30 July
// 2023; "70" not in a text without the number 70; "$3.2 billion" occurs in
// "3.2 billion dollars"). The one exception is a number whose digits the
// compact match below finds inside an identifier of the text: "P SLV -C 56"
// occurs in "PSLV-C56". Then the label occurs when one of these holds:
//
//   - compact containment: the label's compact form is a substring of the
//     text's, starting and ending on a word boundary of the text (a removed
//     space or punctuation, a change between letters and digits, a Han/kana/
//     Hangul rune, or either end), so "art" does not occur in "start" nor
//     "70" in "1970" (a deliberate strengthening of SPEC §2b's plain
//     substring, which the token rule's inflection tolerance makes up for);
//   - the label is only literals (and filler words), all stated;
//   - the token rule: at least 80 % of the label's content tokens (its words
//     outside its literals, English stop words out) occur in one sentence of
//     the text. Tokens are compared after NFKC and case folding, with a light
//     inflection tolerance: a token matches one with an "s", "es", "d",
//     "ed", "ing" or "'s" added or removed, the stem kept at three runes or
//     more ("launch" ~ "launched", "satellites" ~ "satellite").
//
// An empty label occurs nowhere.
func (t *Text) Occurs(label string) bool {
	ok, _ := t.occurs(NewLabel(label))
	return ok
}

// OccursLabel is Occurs for a label already parsed.
func (t *Text) OccursLabel(l Label) bool {
	ok, _ := t.occurs(l)
	return ok
}

// occurs returns, when the label does not occur, the literals it states
// that the text does not.
func (t *Text) occurs(l Label) (bool, []Literal) {
	if l.Compact == "" {
		return false, nil
	}
	var missing []int
	for i, x := range l.Literals {
		if !t.states(x) {
			missing = append(missing, i)
		}
	}
	if t.contains(l, missing) {
		return true, nil
	}
	if len(missing) > 0 {
		out := make([]Literal, len(missing))
		for k, i := range missing {
			out[k] = l.Literals[i]
		}
		return false, out
	}
	if len(l.Literals) > 0 && !l.content {
		return true, nil // only literals (and filler), all stated
	}
	if len(l.tokens) == 0 {
		return false, nil
	}
	return t.tokenRule(l.tokens), nil
}

// states reports whether the text holds a literal Equal to x.
func (t *Text) states(x Literal) bool {
	for _, y := range t.literals {
		if eq, _ := Equal(x, y); eq && asPrecise(y, x) {
			return true
		}
	}
	return false
}

// asPrecise reports whether text literal y states at least what label
// literal x states: "2022" agrees with "April 5, 2022" (Equal: dates at the
// precision both state), but a text that says only 2022 does not state
// April 5, 2022.
func asPrecise(y, x Literal) bool {
	if x.Kind != KindDate || y.Kind != KindDate {
		return true
	}
	return (x.Month == 0 || y.Month != 0) && (x.Day == 0 || y.Day != 0) && (x.Decade || !y.Decade)
}

// contains is compact containment on word boundaries; the label's missing
// literals must fall on digits of identifiers of the text.
func (t *Text) contains(l Label, missing []int) bool {
	c := l.Compact
	for from := 0; from <= len(t.compact)-len(c); {
		k := strings.Index(t.compact[from:], c)
		if k < 0 {
			return false
		}
		p := from + k
		from = p + 1
		if !t.boundary(p) || !t.boundary(p+len(c)) {
			continue
		}
		ok := true
		for _, i := range missing {
			sp := l.litc[i]
			for b := p + sp.Start; b < p+sp.End && ok; b++ {
				ok = t.ident[b]
			}
			ok = ok && sp.End > sp.Start
		}
		if ok {
			return true
		}
	}
	return false
}

// boundary reports whether a word boundary of the text falls before compact
// byte b.
func (t *Text) boundary(b int) bool {
	if b <= 0 || b >= len(t.compact) {
		return true
	}
	if t.brk[b] {
		return true
	}
	if !utf8.RuneStart(t.compact[b]) {
		return false
	}
	r1, _ := utf8.DecodeLastRuneInString(t.compact[:b])
	r2, _ := utf8.DecodeRuneInString(t.compact[b:])
	if isCJK(r1) || isCJK(r2) {
		return true
	}
	return class(r1) != class(r2)
}

func class(r rune) int {
	switch {
	case unicode.IsDigit(r):
		return 1
	case unicode.IsLetter(r) || unicode.IsMark(r):
		return 2
	}
	return 3
}

// Locate returns the first sentence of the text that states both labels
// (an empty label is no constraint), else the first that states b (the
// object: what a triplet adds), else a: the evidence span of a triplet. A label is stated in a sentence that holds one
// of its literals (by value) or at least 80 % of its content tokens.
// ok is false when no sentence states either.
func (t *Text) Locate(a, b string) (sp Span, ok bool) {
	var in [2][]bool
	for k, raw := range [2]string{a, b} {
		if raw == "" {
			continue
		}
		in[k] = t.sentencesOf(NewLabel(raw))
	}
	holds := func(k, i int) bool { return in[k] != nil && in[k][i] }
	for i := range t.spans {
		if (a == "" || holds(0, i)) && (b == "" || holds(1, i)) && (a != "" || b != "") {
			return t.spans[i], true
		}
	}
	for _, k := range [2]int{1, 0} {
		for i := range t.spans {
			if holds(k, i) {
				return t.spans[i], true
			}
		}
	}
	return Span{}, false
}

// Mention is a sentence of a text that states a triplet's subject or
// object: Both when it states the two, else ObjectOnly or neither (the
// subject only).
type Mention struct {
	Span       Span
	Text       string
	Both       bool
	ObjectOnly bool
}

// Mentions returns the sentences of the text that state label a or b (see
// Locate), best first: both, then b, then a; in text order within each.
func (t *Text) Mentions(a, b string) []Mention {
	var in [2][]bool
	for k, raw := range [2]string{a, b} {
		if raw != "" {
			in[k] = t.sentencesOf(NewLabel(raw))
		}
	}
	holds := func(k, i int) bool { return in[k] != nil && in[k][i] }
	var both, obj, subj []Mention
	for i, sp := range t.spans {
		m := Mention{Span: sp, Text: strings.TrimSpace(t.raw[sp.Start:sp.End])}
		switch {
		case holds(0, i) && holds(1, i):
			m.Both = true
			both = append(both, m)
		case holds(1, i):
			m.ObjectOnly = true
			obj = append(obj, m)
		case holds(0, i):
			subj = append(subj, m)
		}
	}
	return append(append(both, obj...), subj...)
}

// Contradiction finds a sentence of the text that states label known and
// holds a literal of the same kind as a literal of claim with another value,
// while the text states that literal of claim nowhere: the text says
// "founded in 2010" where the claim says 2014 (SPEC §3b, at sentence level).
// ok is false when claim holds no literal, when all its literals are stated,
// or when no such sentence exists.
func (t *Text) Contradiction(known, claim string) (m Mention, ok bool) {
	c := NewLabel(claim)
	var missing []Literal
	for _, x := range c.Literals {
		if !t.states(x) {
			missing = append(missing, x)
		}
	}
	if len(missing) == 0 || known == "" {
		return Mention{}, false
	}
	in := t.sentencesOf(NewLabel(known))
	for _, y := range t.literals {
		i := t.sentenceAt(y.Start)
		if i < 0 || !in[i] {
			continue
		}
		for _, x := range missing {
			if eq, comparable := Equal(x, y); comparable && !eq {
				sp := t.spans[i]
				return Mention{Span: sp, Text: strings.TrimSpace(t.raw[sp.Start:sp.End])}, true
			}
		}
	}
	return Mention{}, false
}

// sentencesOf marks the sentences that state label l (see Locate).
func (t *Text) sentencesOf(l Label) []bool {
	out := make([]bool, len(t.spans))
	for _, x := range l.Literals {
		for _, y := range t.literals {
			if eq, _ := Equal(x, y); eq && asPrecise(y, x) {
				if i := t.sentenceAt(y.Start); i >= 0 {
					out[i] = true
				}
			}
		}
	}
	if len(l.tokens) > 0 {
		counts := make([]int, len(t.spans))
		need := (4*len(l.tokens) + 4) / 5
		for _, tok := range l.tokens {
			seen := map[int32]bool{}
			for _, f := range append([]string{tok}, stems(tok)...) {
				for _, s := range t.tokens[f] {
					if !seen[s] {
						seen[s] = true
						counts[s]++
					}
				}
			}
		}
		for i, c := range counts {
			if c >= need {
				out[i] = true
			}
		}
	}
	return out
}

// sentenceAt returns the sentence holding byte b (-1: none).
func (t *Text) sentenceAt(b int) int {
	for i, s := range t.spans {
		if b >= s.Start && b < s.End {
			return i
		}
	}
	return -1
}

// tokenRule: at least 80 % of the tokens in one sentence.
func (t *Text) tokenRule(tokens []string) bool {
	counts := make([]int, t.sentences)
	need := (4*len(tokens) + 4) / 5 // ceil(0.8 n)
	for _, tok := range tokens {
		seen := map[int32]bool{}
		forms := append([]string{tok}, stems(tok)...)
		for _, f := range forms {
			for _, s := range t.tokens[f] {
				if !seen[s] {
					seen[s] = true
					counts[s]++
					if counts[s] >= need {
						return true
					}
				}
			}
		}
	}
	return false
}

// Ground checks one triplet (SPEC §2b): its subject and its object must each
// occur (Occurs) in one of texts, which are the texts that count: the source
// text, and for an answer or a reference also the question. The relation is
// not checked. When ok is false, reason names the part and the label and,
// when literals are what is missing, those literals:
//
//	object "5 August 2023, 6:30 AM, 12 UTC" does not occur in the text (date 2023-08-05 not stated; time 12:00 UTC not stated)
func Ground(subject, object string, texts ...string) (ok bool, reason string) {
	ts := make([]*Text, len(texts))
	for i, s := range texts {
		ts[i] = NewText(s)
	}
	return GroundText(subject, object, ts...)
}

// GroundText is Ground over texts already prepared with NewText.
func GroundText(subject, object string, texts ...*Text) (ok bool, reason string) {
	var reasons []string
	for _, part := range [2][2]string{{"subject", subject}, {"object", object}} {
		if r := groundPart(part[0], part[1], texts); r != "" {
			reasons = append(reasons, r)
		}
	}
	return len(reasons) == 0, strings.Join(reasons, "; ")
}

// GroundLabel checks one part of a triplet ("subject" or "object") the way
// Ground does, for a triplet whose other part is not checked (the slot of an
// asked fact): "" when label occurs in one of texts, else the reason.
func GroundLabel(part, label string, texts ...*Text) string { return groundPart(part, label, texts) }

func groundPart(part, label string, texts []*Text) string {
	l := NewLabel(label)
	if l.Compact == "" {
		return part + " " + quote(label) + " is empty"
	}
	where := "the text"
	switch {
	case len(texts) == 0:
		return part + " " + quote(label) + " cannot be grounded: no text"
	case len(texts) > 1:
		where = "any of the " + strconv.Itoa(len(texts)) + " texts"
	}
	// Literals missing from every text.
	var missing []Literal
	for i, t := range texts {
		ok, m := t.occurs(l)
		if ok {
			return ""
		}
		if i == 0 {
			missing = m
			continue
		}
		kept := missing[:0]
		for _, x := range missing {
			if !t.states(x) {
				kept = append(kept, x)
			}
		}
		missing = kept
	}
	r := part + " " + quote(label) + " does not occur in " + where
	if len(missing) > 0 {
		s := make([]string, len(missing))
		for i, x := range missing {
			s[i] = x.String() + " not stated"
		}
		r += " (" + strings.Join(s, "; ") + ")"
	}
	return r
}

// nonAnswers are phrases that say a value is not known: a label made of one
// ("currently unknown", "have not been provided") fills no slot of an asked
// fact (SPEC §4c): the answer takes no position.
var nonAnswers = []string{
	"unknown", "not known", "not provided", "not been provided", "not available", "not specified", "not mentioned",
	"not disclosed", "not stated", "no information", "unclear", "not clear", "don't know", "do not know",
	"cannot determine", "cannot be determined", "not determined", "n/a", "none", "unspecified", "undisclosed",
}

// SaysUnknown reports whether a text holds a non-answer phrase anywhere
// ("The taxonomy of X is currently unknown.").
func SaysUnknown(text string) bool {
	k := " " + strings.Join(strings.FieldsFunc(normFold(text), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '/')
	}), " ") + " "
	for _, p := range nonAnswers {
		if strings.Contains(k, " "+p+" ") {
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
