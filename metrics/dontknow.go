package metrics

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// dontKnowPhrases are SPEC §7's "don't know" phrases, in its order; the first
// one found is reported.
var dontKnowPhrases = []string{
	"i don't know",
	"i do not know",
	"unknown",
	"not sure",
	"cannot determine",
	"no information",
	"insufficient data",
	"unable to answer",
	"cannot answer",
	"don't have enough information",
	"not available",
	"no data",
}

// shortAnswerWords make an answer of fewer than shortAnswerLen characters
// DONT_KNOW (SPEC §7).
var shortAnswerWords = []string{"unknown", "n/a", "none", "null"}

const shortAnswerLen = 10

// apostrophes are read as "'".
var apostrophes = strings.NewReplacer("\u2019", "'", "\u2018", "'", "\u02bc", "'")

// DontKnow reports whether answer is a "don't know" answer by SPEC §7's rules,
// and the phrase that matched: one of the listed phrases anywhere in the
// answer, or, in an answer shorter than 10 characters (runes, surrounding
// white space not counted), "unknown", "n/a", "none" or "null". Matching is
// case-insensitive, reads ’ ‘ ʼ as ', collapses white space and requires
// word boundaries (no letter or digit just before or after the phrase).
func DontKnow(answer string) (bool, string) {
	text := normalizeAnswer(answer)
	for _, p := range dontKnowPhrases {
		if containsWord(text, p) {
			return true, p
		}
	}
	if utf8.RuneCountInString(strings.TrimSpace(answer)) < shortAnswerLen {
		for _, w := range shortAnswerWords {
			if containsWord(text, w) {
				return true, w
			}
		}
	}
	return false, ""
}

// normalizeAnswer applies NFKC, lower-cases, unifies apostrophes and
// collapses white space.
func normalizeAnswer(s string) string {
	s = strings.ToLower(norm.NFKC.String(s))
	s = apostrophes.Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// containsWord reports whether phrase occurs in text with no letter or digit
// immediately before or after it.
func containsWord(text, phrase string) bool {
	for from := 0; from <= len(text); {
		i := strings.Index(text[from:], phrase)
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(phrase)
		before, _ := utf8.DecodeLastRuneInString(text[:start])
		after, _ := utf8.DecodeRuneInString(text[end:])
		if (start == 0 || !isWordRune(before)) && (end == len(text) || !isWordRune(after)) {
			return true
		}
		_, size := utf8.DecodeRuneInString(text[start:])
		from = start + size
	}
	return false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
