package lexical

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

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
	t.atomsOnce.Do(func() { t.atoms = Atoms(t.raw) })
	// The candidates: values of the type that the question does not state,
	// each with its sentence.
	type candidate struct {
		atom     Atom
		sentence int
	}
	var cands []candidate
	for _, at := range t.atoms {
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
