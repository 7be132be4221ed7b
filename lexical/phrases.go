package lexical

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Phrase is a run of content words of one sentence: what the rule-based
// extractor makes an entity of.
type Phrase struct {
	Text string // as written
	Span Span   // byte span in the text
}

// Fact is one triplet read by rule (Chain): two neighbouring phrases of one
// sentence and the words between them.
type Fact struct {
	Subject, Relation, Object Phrase
	Sentence                  Span // the sentence it was read from
}

// Phrases returns the content phrases of one sentence, in order: the maximal
// runs of words that are not stop words and not split by punctuation (the
// candidate keywords of RAKE, Rose et al. 2010). A word is a run of letters,
// marks, digits and "°". Inside a word, "-", "'", "’", "&", "." and ","
// join when a letter or digit follows ("PSLV-C56", "O'Connor", "3.2",
// "1,000", "U.S"); ":" joins digits ("06:30"); "/" joins letters or digits
// ("30/07/2023", "C57BL/6J"). A sign opening a word stays with its number
// ("−10 °F"), and "$", "€", "£", "¥", "%" stay with theirs. A literal that
// Parse reads is one unit whatever its words ("7 May 1897"). A leading field
// label ("Answer:", "Question:" opening the text) is not content.
func Phrases(text string, sentence Span) []Phrase {
	var out []Phrase
	s := sentence.Start
	if s == 0 {
		s = skipFieldLabel(text, sentence.End)
	}
	start, end := -1, -1 // the open phrase
	flush := func() {
		if start >= 0 {
			out = append(out, Phrase{Text: text[start:end], Span: Span{start, end}})
		}
		start, end = -1, -1
	}
	// A literal the parser reads is one unit of content, whatever its words
	// ("7 May 1897": "May" is not the modal verb; "6:30 p.m." keeps its
	// period).
	lits := Parse(text[s:sentence.End])
	k := 0
	for i := s; i < sentence.End; {
		for k < len(lits) && s+lits[k].End <= i {
			k++
		}
		if k < len(lits) && s+lits[k].Start <= i {
			if start < 0 {
				start = i
			}
			end = s + lits[k].End
			i = end
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case wordRune(r) || currency(r) || sign(text, i, sentence.End):
			j := wordEnd(text, i, sentence.End)
			if stopWords[strings.ToLower(strings.Trim(text[i:j], "$€£¥%.'’"))] {
				flush()
			} else {
				if start < 0 {
					start = i
				}
				end = j
			}
			i = j
		case unicode.IsSpace(r):
			i += n
		default: // punctuation ends a phrase
			flush()
			i += n
		}
	}
	flush()
	return out
}

// skipFieldLabel returns where the content of a text starts: after a single
// leading word followed by a colon ("Answer: ..."), else 0.
func skipFieldLabel(text string, limit int) int {
	i := 0
	for i < limit {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += n
	}
	j := i
	for j < limit {
		r, n := utf8.DecodeRuneInString(text[j:])
		if !unicode.IsLetter(r) {
			break
		}
		j += n
	}
	if j > i && j < limit && text[j] == ':' {
		return j + 1
	}
	return 0
}

func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '°'
}

// sign reports whether a minus or plus sign at i belongs to the number
// right after it ("−10 °F"): it starts a word and a digit follows.
func sign(text string, i, limit int) bool {
	r, n := utf8.DecodeRuneInString(text[i:])
	if r != '-' && r != '−' && r != '+' || i+n >= limit {
		return false
	}
	if i > 0 {
		if prev, _ := utf8.DecodeLastRuneInString(text[:i]); !unicode.IsSpace(prev) && !strings.ContainsRune("([/", prev) {
			return false
		}
	}
	next, _ := utf8.DecodeRuneInString(text[i+n:])
	return unicode.IsDigit(next)
}

func currency(r rune) bool { return r == '$' || r == '€' || r == '£' || r == '¥' }

// wordEnd returns the end of the word starting at i.
func wordEnd(text string, i, limit int) int {
	if sign(text, i, limit) {
		_, n := utf8.DecodeRuneInString(text[i:])
		i += n
	}
	for i < limit {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch {
		case wordRune(r) || currency(r) || r == '%':
			i += n
		case strings.ContainsRune("-'’&.,:/", r) && i+n < limit:
			next, _ := utf8.DecodeRuneInString(text[i+n:])
			prev, _ := utf8.DecodeLastRuneInString(text[:i])
			if !wordRune(next) || r == ':' && !(unicode.IsDigit(prev) && unicode.IsDigit(next)) || r == '/' && !wordRune(prev) {
				return i
			}
			i += n
		default:
			return i
		}
	}
	return i
}

// Chain reads a text's facts by rule, with no model, so it cannot invent
// one: in each sentence, every two neighbouring phrases (Phrases) make a
// triplet whose relation is the words between them ("Fremantle Octopus" —
// "is an" — "Australian octopus fishery business based"); when only
// punctuation separates them, the relation is "and" (a list or an
// apposition). A sentence with one phrase gives no triplet. Subjects and
// objects are copied from the text, so every triplet is grounded (SPEC §2b).
func Chain(text string) []Fact {
	var out []Fact
	for _, sent := range Sentences(text) {
		ps := Phrases(text, sent)
		for k := 0; k+1 < len(ps); k++ {
			rel := strings.Join(strings.FieldsFunc(text[ps[k].Span.End:ps[k+1].Span.Start], func(r rune) bool {
				return !wordRune(r) && r != '\''
			}), " ")
			if rel == "" {
				rel = "and"
			}
			out = append(out, Fact{Subject: ps[k], Relation: Phrase{Text: rel}, Object: ps[k+1], Sentence: sent})
		}
	}
	return out
}
