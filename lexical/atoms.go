package lexical

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// AtomKind tells a literal atom from a name atom.
type AtomKind string

// The kinds of atom.
const (
	AtomLiteral AtomKind = "literal" // a value Parse reads: number, date, time, duration, percent, money, quantity
	AtomName    AtomKind = "name"    // a proper name: a run of capitalised words
)

// Atom is one checkable unit a text states on its own, without an extractor:
// a literal or a proper name. These are where a hallucinated answer differs
// from a grounded one (a wrong year, amount or person), and they are what
// triplet extraction by a small model most often garbles or leaves out.
type Atom struct {
	Kind AtomKind
	Text string // as written
	Span Span   // byte span in the text
	// Literal is the parsed literal of a literal atom.
	Literal Literal
}

// Atoms returns the literals and proper names of text, in order. A name is a
// maximal run of words, each starting with an upper-case letter or holding a
// digit ("PSLV-C56", "Theodore Scott", "NASA's Space Launch System"), joined
// by single spaces or no-break spaces. A run loses its leading stop words ("The PSLV-C56" is
// "PSLV-C56", "When" and "I" are nothing), and a single capitalised word
// that starts a sentence (or follows a label such as "Answer:", or a list
// number) is not a name, being capitalised because it starts the sentence
// ("Starship is"), unless it has capitals or digits inside ("PharmaCann",
// "NASA", "PSLV-C56"). List numbers ("1." or "2)" opening a line),
// citation markers ("[1]", "[2, 3]") and the word "one" (a pronoun far more
// often than a count) are not atoms. A word that is only a literal ("2014",
// "July") is not part of a name; months and weekdays are left to the literal
// parser. Runs of more than six words are cut into their first six.
func Atoms(text string) []Atom {
	var out []Atom
	lits := Parse(text)
	for _, l := range lits {
		if listMarker(text, l) || pronounOne(text, l) || citation(text, l) {
			continue
		}
		out = append(out, Atom{Kind: AtomLiteral, Text: text[l.Start:l.End], Span: Span{l.Start, l.End}, Literal: l})
	}
	// inLiteral reports whether the word [s, e) overlaps a literal. Words
	// come in text order, so one index into lits (sorted by Start) serves.
	k := 0
	inLiteral := func(s, e int) bool {
		for k < len(lits) && lits[k].End <= s {
			k++
		}
		for j := k; j < len(lits) && lits[j].Start < e; j++ {
			if s < lits[j].End {
				return true
			}
		}
		return false
	}
	for _, sp := range Sentences(text) {
		words := wordsOf(text, sp)
		run := []word{}
		flush := func() {
			defer func() { run = run[:0] }()
			// Leading stop words go ("The X", "When", "I"); what follows
			// them is capitalised on its own account.
			for len(run) > 0 && stopWords[strings.ToLower(run[0].text)] {
				run = run[1:]
				if len(run) > 0 {
					run[0].first = false
				}
			}
			if len(run) == 0 || (len(run) == 1 && run[0].first && !inner(run[0].text)) {
				return
			}
			if len(run) > 6 {
				run = run[:6]
			}
			s, e := run[0].start, run[len(run)-1].end
			out = append(out, Atom{Kind: AtomName, Text: text[s:e], Span: Span{s, e}})
		}
		for i, w := range words {
			nameWord := w.capital && !inLiteral(w.start, w.end) && !monthOrWeekday(w.text)
			if !nameWord || len(run) > 0 && !joiner(text[words[i-1].end:w.start]) {
				flush()
			}
			if nameWord {
				run = append(run, w)
			}
		}
		flush()
	}
	slices.SortStableFunc(out, func(x, y Atom) int { return x.Span.Start - y.Span.Start })
	return out
}

// listMarker reports whether number literal l numbers a list item: it opens
// its line (only white space before it on the line) and a '.' or ')' follows
// it ("1. Establishing ...", "2) ..."). It is layout, not a fact.
func listMarker(text string, l Literal) bool {
	if l.Kind != KindNumber || l.End >= len(text) || (text[l.End] != '.' && text[l.End] != ')') {
		return false
	}
	line := text[:l.Start]
	if i := strings.LastIndexByte(line, '\n'); i >= 0 {
		line = line[i+1:]
	}
	return strings.TrimSpace(line) == ""
}

// citation reports whether number literal l is a citation marker: in
// square brackets, alone or in a list ("[1]", "[2, 3]", "[4][5]"). It points
// at a source; it states nothing.
func citation(text string, l Literal) bool {
	if l.Kind != KindNumber {
		return false
	}
	i := l.Start - 1
	for i >= 0 && (text[i] == ' ' || text[i] == ',' || text[i] >= '0' && text[i] <= '9') {
		i--
	}
	j := l.End
	for j < len(text) && (text[j] == ' ' || text[j] == ',' || text[j] >= '0' && text[j] <= '9') {
		j++
	}
	return i >= 0 && text[i] == '[' && j < len(text) && text[j] == ']'
}

// pronounOne reports whether l is the word "one", which is a pronoun or
// determiner ("one of the largest") far more often than a count.
func pronounOne(text string, l Literal) bool {
	return l.Kind == KindNumber && strings.EqualFold(text[l.Start:l.End], "one")
}

// word is one word of a sentence for Atoms.
type word struct {
	text       string
	start, end int
	capital    bool // starts with an upper-case letter or holds a digit
	first      bool // the first word of its sentence
}

// wordsOf splits the sentence sp of text into words: runs of letters,
// digits, marks, apostrophes and inner hyphens or periods ("PSLV-C56",
// "U.S.", "NASA's").
func wordsOf(text string, sp Span) []word {
	var out []word
	letters := false
	i := sp.Start
	for i < sp.End {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			i += n
			continue
		}
		s := i
		for i < sp.End {
			r, n := utf8.DecodeRuneInString(text[i:])
			if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
				i += n
				continue
			}
			if (r == '-' || r == '\'' || r == '’' || r == '.') && i+n < sp.End {
				next, _ := utf8.DecodeRuneInString(text[i+n:])
				if unicode.IsLetter(next) || unicode.IsDigit(next) {
					i += n
					continue
				}
			}
			break
		}
		w := text[s:i]
		first, _ := utf8.DecodeRuneInString(w)
		out = append(out, word{
			text:    w,
			start:   s,
			end:     i,
			capital: unicode.IsUpper(first) || strings.IndexFunc(w, unicode.IsDigit) >= 0,
			// First in its sentence: nothing but numbers before it ("2)
			// Investing"), or after a label ("Answer: It").
			first: !letters || afterLabel(text, out[len(out)-1].end, s),
		})
		letters = letters || strings.IndexFunc(w, unicode.IsLetter) >= 0
	}
	return out
}

// inner reports whether w is capitalised beyond its first letter or holds
// a digit ("PSLV-C56", "NASA", "PharmaCann"): a name even where a sentence
// starts.
func inner(w string) bool {
	_, n := utf8.DecodeRuneInString(w)
	return strings.IndexFunc(w[n:], func(r rune) bool { return unicode.IsUpper(r) || unicode.IsDigit(r) }) >= 0
}

// afterLabel reports whether the gap text[from:to] between two words ends a
// label or a line ("Answer: The", "Note:\nIt"): the next word is capitalised
// as a sentence start is.
func afterLabel(text string, from, to int) bool {
	gap := text[from:to]
	return strings.ContainsAny(gap, ":\n") && strings.TrimLeft(strings.TrimSpace(gap), ":") == ""
}

// joiner reports whether the text between two words keeps them in one name:
// a single space (or no-break space).
func joiner(gap string) bool { return gap == " " || gap == "\u00a0" }

// monthOrWeekday reports whether w is a month or weekday name (left to the
// literal parser).
func monthOrWeekday(w string) bool {
	l := strings.ToLower(w)
	if _, ok := months[l]; ok {
		return true
	}
	for _, d := range weekdays {
		if l == d {
			return true
		}
	}
	return false
}

// Backs reports whether the text backs atom a: a literal atom by a literal of
// the same value (Equal, as precise), a name atom by the occurrence rule
// (Occurs: compact containment, or its content words in one sentence).
func (t *Text) Backs(a Atom) bool {
	_, ok := t.Backing(a)
	return ok
}

// Backing returns the sentence of the text that backs atom a (see Backs):
// for a literal, the sentence holding an equal literal; for a name, the first
// sentence that states it (as Locate finds it), or the whole text when it occurs only by
// compact containment across sentences. ok is false when the text does not
// back a.
func (t *Text) Backing(a Atom) (sp Span, ok bool) {
	if a.Kind == AtomLiteral {
		for _, y := range t.literals {
			if eq, _ := Equal(a.Literal, y); eq && asPrecise(y, a.Literal) {
				if i := t.sentenceAt(y.Start); i >= 0 {
					return t.spans[i], true
				}
				return Span{y.Start, y.End}, true
			}
		}
		return Span{}, false
	}
	l := NewLabel(a.Text)
	if ok, _ := t.occurs(l); !ok {
		return Span{}, false
	}
	for i, in := range t.sentencesOf(l) {
		if in {
			return t.spans[i], true
		}
	}
	return Span{0, len(t.raw)}, true
}

// Empty reports whether the text is empty or only white space.
func (t *Text) Empty() bool { return strings.TrimSpace(t.raw) == "" }

// ContentWords returns the distinct words of s (after NFKC and case folding,
// numbers included) that are not English stop words, in order.
func ContentWords(s string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range tokensOf(s) {
		if !stopWords[w] && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// HasWord reports whether the text holds word w (a ContentWords word), up to
// the light inflection tolerance of the occurrence rule ("launch" and
// "launched").
func (t *Text) HasWord(w string) bool {
	if len(t.tokens[w]) > 0 {
		return true
	}
	for _, s := range stems(w) {
		if len(t.tokens[s]) > 0 {
			return true
		}
	}
	return false
}
