package lexical

import (
	"regexp"
	"strings"
	"unicode"
)

// Claim is one claim of a text (SPEC §4d): a sentence, or a clause of one
// that states a fact of its own.
type Claim struct {
	// Span is the claim's byte span in the text, surrounding white space
	// and the clause's joining word left out.
	Span Span
	// Text is the span's text as a checker reads it: citation markers
	// ("[1]", "[2, 3]") removed and white space collapsed.
	Text string
}

// clauseCut finds the joins where a sentence is cut into claims: a
// semicolon, and a comma before a subordinating word that opens a clause of
// its own ("..., while the second ...", "..., whereas ...", "..., although
// ..."). Coordinating "and" and "but" are not cut: they join list items and
// verb phrases that share the sentence's subject far more often than they
// open a clause with a subject of its own.
var clauseCut = regexp.MustCompile(`;\s+|,\s+(?:while|whereas|although|though)\s+`)

// citationMarker is a citation such as "[1]" or "[2, 3]".
var citationMarker = regexp.MustCompile(`\s*\[\d+(?:\s*[,–-]\s*\d+)*\]`)

// bareListMarker is a piece that is only a list item's marker ("1.", "2)",
// "(b)"): a list cut after its marker ("These may include:\n\n1[2].")
// leaves it as a sentence of its own, and it states nothing.
var bareListMarker = regexp.MustCompile(`^\(?[0-9]{1,3}[.)]?$|^\(?[a-zA-Z][.)]$`)

// minClauseWords is the least number of words each side of a clause cut
// keeps; a shorter side stays with its sentence ("Yes; the tower ...").
const minClauseWords = 4

// Claims splits text into claims: its sentences (Sentences), each cut
// further at clauseCut where both sides keep at least minClauseWords words.
// A piece without a content word (a citation list), a bare list marker
// ("1.") or a short heading ending in a colon ("Answer:") is no claim. Claims are in text order and do not overlap.
func Claims(text string) []Claim {
	var out []Claim
	for _, sent := range Sentences(text) {
		start := sent.Start
		body := text[sent.Start:sent.End]
		var cuts [][2]int // [end of piece, start of next piece], relative
		prev := 0
		for _, m := range clauseCut.FindAllStringIndex(body, -1) {
			if words(body[prev:m[0]]) >= minClauseWords && words(body[m[1]:]) >= minClauseWords {
				cuts = append(cuts, [2]int{m[0], m[1]})
				prev = m[1]
			}
		}
		lo := 0
		for _, c := range append(cuts, [2]int{len(body), len(body)}) {
			if cl, ok := claimOf(text, start+lo, start+c[0]); ok {
				out = append(out, cl)
			}
			lo = c[1]
		}
	}
	return out
}

// claimOf returns the claim of text[s:e], trimmed; ok is false when it has
// no content word.
func claimOf(text string, s, e int) (Claim, bool) {
	for s < e && unicode.IsSpace(rune(text[s])) {
		s++
	}
	for e > s && unicode.IsSpace(rune(text[e-1])) {
		e--
	}
	clean := strings.Join(strings.Fields(citationMarker.ReplaceAllString(text[s:e], "")), " ")
	clean = strings.TrimSpace(strings.ReplaceAll(clean, " .", "."))
	if len(ContentWords(clean)) == 0 || bareListMarker.MatchString(clean) || (strings.HasSuffix(clean, ":") && words(clean) < minClauseWords) {
		return Claim{}, false // nothing stated, a list marker, or a heading ("Answer:")
	}
	return Claim{Span: Span{s, e}, Text: clean}, true
}

// words counts the white-space separated words of s.
func words(s string) int { return len(strings.Fields(s)) }
