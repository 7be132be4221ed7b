package lexical

import (
	"regexp"
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
func Atoms(text string) []Atom { return atomsOf(text, Parse(text), Sentences(text)) }

// Atoms returns Atoms of t's text, read once from the literals and the
// sentences NewText found (the same as Atoms of the raw text).
func (t *Text) Atoms() []Atom {
	t.atomsOnce.Do(func() { t.atoms = atomsOf(t.raw, t.literals, t.spans) })
	return t.atoms
}

// atomsOf is Atoms of text, given its literals (Parse) and its sentences.
func atomsOf(text string, lits []Literal, sentences []Span) []Atom {
	var out []Atom
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
	for _, sp := range sentences {
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

// WordPairs returns the neighbouring pairs of s's content words: its words
// (after NFKC and case folding, numbers included) with the English stop
// words left out, each pair of adjacent ones in order ("the tower was
// named after Chimnabai" gives "tower named", "named chimnabai"), repeats
// kept. A pair is a phrase the text states; a claim that recombines a
// context's words into pairs the context never puts together says
// something the context does not.
func WordPairs(s string) []string {
	var out []string
	prev := ""
	for _, w := range tokensOf(s) {
		if stopWords[w] {
			continue
		}
		if prev != "" {
			out = append(out, prev+" "+w)
		}
		prev = w
	}
	return out
}

// HasPair reports whether the text holds the word pair p (one of
// WordPairs) as neighbouring content words.
func (t *Text) HasPair(p string) bool {
	t.pairsOnce.Do(func() {
		t.pairs = map[string]bool{}
		for _, q := range WordPairs(t.raw) {
			t.pairs[q] = true
		}
	})
	return t.pairs[p]
}

// WordTrigrams returns the trigrams of s's words (after NFKC and case
// folding, numbers and stop words included), each three adjacent words in
// order, repeats kept; s of one or two words gives them as one gram, no
// word none. Pairs read content words as phrases; trigrams read the
// wording itself ("was not designed by" is not "was designed by").
func WordTrigrams(s string) []string {
	toks := tokensOf(s)
	if len(toks) < 3 {
		if len(toks) == 0 {
			return nil
		}
		return []string{strings.Join(toks, " ")}
	}
	out := make([]string, 0, len(toks)-2)
	for i := 2; i < len(toks); i++ {
		out = append(out, toks[i-2]+" "+toks[i-1]+" "+toks[i])
	}
	return out
}

// HasGram reports whether the text holds g (one of WordTrigrams) as
// adjacent words.
func (t *Text) HasGram(g string) bool {
	t.gramsOnce.Do(func() {
		t.grams = map[string]bool{}
		toks := tokensOf(t.raw)
		for i := range toks {
			for n := 1; n <= 3 && i+n <= len(toks); n++ {
				t.grams[strings.Join(toks[i:i+n], " ")] = true
			}
		}
	})
	return t.grams[g]
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

// AnswerType is the kind of value a question clause asks for.
type AnswerType string

// The answer types Asked reads.
const (
	WantDate     AnswerType = "date"     // when, what year, what date, what time
	WantPlace    AnswerType = "place"    // where, location, located, based, headquarters
	WantPerson   AnswerType = "person"   // who, whom
	WantCount    AnswerType = "count"    // how many, how much, number of, population
	WantDuration AnswerType = "duration" // how long
	WantMeasure  AnswerType = "measure"  // size, height, elevation, length, distance, area, temperature, weight, mass, depth, speed
)

// TypedAsk is one clause of a question that asks for a value of a known type.
type TypedAsk struct {
	Clause string
	Span   Span // byte span of the clause in the question
	Want   AnswerType
}

// A question splits into clauses before "and"/"," followed by a question
// word: "When was X founded and what is its headquarters location?".
var askSplit = regexp.MustCompile(`(?i),?\s+and\s+(?:when|where|who|whom|what|which|how|why)\b|,\s*(?:when|where|who|whom|what|which|how|why)\b`)

// The cues of each answer type, in the order they are tried: the first that
// occurs in a clause decides its type.
var askCues = []struct {
	want AnswerType
	re   *regexp.Regexp
}{
	{WantDuration, regexp.MustCompile(`(?i)\bhow long\b`)},
	{WantCount, regexp.MustCompile(`(?i)\b(how many|how much|how old|number of|population|percentage|price|cost)\b`)},
	{WantDate, regexp.MustCompile(`(?i)\b(when|what year|which year|what date|what time|in what year|in which year)\b`)},
	{WantPlace, regexp.MustCompile(`(?i)\b(where|location|located|based|headquarters|headquartered|(what|which) (country|city|town|state|region|province|continent))\b`)},
	{WantPerson, regexp.MustCompile(`(?i)\b(who|whom|whose)\b`)},
	{WantMeasure, regexp.MustCompile(`(?i)\b(size|height|elevation|length|distance|area|temperature|weight|mass|depth|speed|how (far|tall|high|big|large|heavy|deep|fast))\b`)},
}

// Asked returns the clauses of a question that ask for a typed value, the
// expected answer type of classic question answering: "when" (what / which
// year, date, time) a date or time; "where" (a location, being based,
// headquarters, which country / city / town / state / region / province /
// continent) a place name; "who" (whom, whose) a person's name; "how many",
// "how much", "how old", a number of, a population, a percentage, a price or
// a cost a number or amount; "how long" a duration; and a size, height,
// elevation, length, distance, area, temperature, weight, mass, depth or
// speed ("how far / tall / high / big / large / heavy / deep / fast") a
// measured quantity. Clauses
// without such a cue ("what is the objective of X", "why") ask for no typed
// value and are not returned: Asked cannot tell whether they are answered.
func Asked(question string) []TypedAsk {
	var cuts []int
	for _, m := range askSplit.FindAllStringIndex(question, -1) {
		cuts = append(cuts, m[0])
	}
	cuts = append(cuts, len(question))
	var out []TypedAsk
	start := 0
	for _, end := range cuts {
		clause := question[start:end]
		for _, c := range askCues {
			if c.re.MatchString(clause) {
				out = append(out, TypedAsk{Clause: strings.TrimSpace(clause), Span: Span{start, end}, Want: c.want})
				break
			}
		}
		start = end
	}
	return out
}

// Fits reports whether atom a is a value of answer type w: a date or time
// for WantDate; a name for WantPlace and WantPerson (Atoms does not tell
// places from people); a number, quantity, amount or percentage for
// WantCount; a duration (or a date range's date, or a quantity) for
// WantDuration; a quantity or a bare number for WantMeasure.
func (w AnswerType) Fits(a Atom) bool {
	if w == WantPlace || w == WantPerson {
		return a.Kind == AtomName
	}
	if a.Kind != AtomLiteral {
		return false
	}
	switch k := a.Literal.Kind; w {
	case WantDate:
		return k == KindDate || k == KindTime
	case WantCount:
		return k == KindNumber || k == KindQuantity || k == KindMoney || k == KindPercent
	case WantDuration:
		return k == KindDuration || k == KindDate || k == KindQuantity
	case WantMeasure:
		return k == KindQuantity || k == KindNumber
	}
	return false
}

// Answers returns the first atom of text t that answers ask: a value of
// its type that the question does not state itself (the question's own
// names and values answer nothing), in a sentence of t that shares a
// content word with the clause, else with the question (a value in a
// sentence about something else answers nothing). ok is false when there
// is none.
func (t *Text) Answers(ask TypedAsk, question *Text) (a Atom, sentence Span, ok bool) {
	// The candidates: values of the type that the question does not state,
	// each with its sentence.
	type candidate struct {
		atom     Atom
		sentence int
	}
	var cands []candidate
	for _, at := range t.Atoms() {
		if i := t.sentenceAt(at.Span.Start); i >= 0 && ask.Want.Fits(at) && !question.Backs(at) {
			cands = append(cands, candidate{at, i})
		}
	}
	if len(cands) == 0 {
		return Atom{}, Span{}, false
	}
	// A sentence about the clause itself first ("Its headquarters is in
	// Illinois" for "what is its headquarters location?"), then one about
	// the question.
	for _, about := range []func(int) bool{t.sharesWord(ask.Clause), t.sharesWord(question.raw)} {
		for _, c := range cands {
			if about(c.sentence) {
				return c.atom, t.spans[c.sentence], true
			}
		}
	}
	return Atom{}, Span{}, false
}

// sharesWord returns a test of whether sentence i of the text shares a
// content word with s (stop words out; a word and its stems, "located" ~
// "locate"), each sentence tokenized at most once.
func (t *Text) sharesWord(s string) func(i int) bool {
	ws := map[string]bool{}
	for _, tok := range tokensOf(s) {
		if !stopWords[tok] {
			ws[tok] = true
			for _, st := range stems(tok) {
				ws[st] = true
			}
		}
	}
	memo := map[int]bool{}
	return func(i int) bool {
		if v, ok := memo[i]; ok {
			return v
		}
		v := false
		for _, tok := range tokensOf(t.raw[t.spans[i].Start:t.spans[i].End]) {
			if stopWords[tok] {
				continue
			}
			if ws[tok] {
				v = true
			}
			for _, st := range stems(tok) {
				v = v || ws[st]
			}
			if v {
				break
			}
		}
		memo[i] = v
		return v
	}
}

// The cues of an asked fact's relation ("mission date", "location",
// "number of teams"): a question's extractor names the kind of value asked
// with a noun, where the question itself used a question word. They are
// tried before the question cues (askCues), in this order; the first that
// occurs decides.
var relationCues = []struct {
	want AnswerType
	re   *regexp.Regexp
}{
	{WantDuration, regexp.MustCompile(`(?i)\b(duration|months|weeks|days|hours|minutes)\b`)},
	{WantCount, regexp.MustCompile(`(?i)\b(number|count|amount|total)\b`)},
	{WantDate, regexp.MustCompile(`(?i)\b(date|year)\b`)},
	{WantPlace, regexp.MustCompile(`(?i)\b(site|place|venue|country|city|town|region|province|continent)\b`)},
	{WantPerson, regexp.MustCompile(`(?i)\b(founder|director|author|inventor|creator)\b`)},
}

// WantOf returns the answer type that an asked fact's relation names, ""
// for none: a noun of the kind of value (a date, year or day a date; a
// number, count, amount or total a count; a duration, or months, weeks,
// days, hours or minutes, a duration; a site, place, venue, country, city,
// town, region, province or continent a place; a founder, director,
// author, inventor or creator a person), else the question cues of Asked
// ("location", "headquarters", "elevation", "who"). "What is its
// objective" names none, and neither does a name in the relation: a
// capitalised word after the first is part of a name ("sovereign of the
// Vatican City State" asks for no place).
func WantOf(relation string) AnswerType {
	words := strings.Fields(relation)
	for i, w := range words {
		if r, _ := utf8.DecodeRuneInString(w); i > 0 && unicode.IsUpper(r) {
			words[i] = "_"
		}
	}
	relation = strings.Join(words, " ")
	for _, c := range relationCues {
		if c.re.MatchString(relation) {
			return c.want
		}
	}
	for _, c := range askCues {
		if c.re.MatchString(relation) {
			return c.want
		}
	}
	return ""
}

// answerTypes is every AnswerType, in a fixed order.
var answerTypes = []AnswerType{WantDate, WantPlace, WantPerson, WantCount, WantDuration, WantMeasure}

// FitsOf returns the answer types that an entity label is a value of, by
// name ("date", "place", ...): those an atom of the label Fits ("in 1896":
// date, duration; "the state of Illinois": place, person; "2,121 meters":
// count, duration, measure), none for a label without a literal or a name
// ("a leading pharmaceutical company"). A label is read as the middle of a
// sentence: a single capitalised word ("Illinois") is a name there.
func FitsOf(label string) []string {
	const lead = "of "
	var out []string
	atoms := Atoms(lead + label)
	for _, w := range answerTypes {
		for _, a := range atoms {
			if w.Fits(a) {
				out = append(out, string(w))
				break
			}
		}
	}
	return out
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

// nonAnswers are phrases that say a value is not known: a label made of one
// ("currently unknown", "have not been provided") fills no slot of an asked
// fact (SPEC §4c): the answer takes no position.
var nonAnswers = []string{
	"unknown", "not known", "not provided", "not been provided", "not available", "not specified", "not mentioned",
	"not disclosed", "not stated", "no information", "unclear", "not clear", "don't know", "do not know",
	"cannot determine", "cannot be determined", "not determined", "n/a", "none", "unspecified", "undisclosed",
}
