package lexical

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is a byte range [Start, End) of a text.
type Span struct{ Start, End int }

// abbreviations are words whose trailing period does not end a sentence
// (lower-case, without the period).
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true, "jr": true, "sr": true,
	"vs": true, "etc": true, "e.g": true, "i.e": true, "cf": true, "al": true, "approx": true, "ca": true,
	"inc": true, "ltd": true, "co": true, "corp": true, "no": true, "nos": true, "fig": true, "vol": true,
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true, "sep": true,
	"sept": true, "oct": true, "nov": true, "dec": true, "u.s": true, "u.k": true, "u.n": true, "mt": true,
	"gen": true, "gov": true, "sen": true, "rep": true, "rev": true, "est": true, "dept": true, "univ": true,
}

// Sentences splits text into sentence spans. The spans are contiguous, in
// order and cover the whole text (each keeps the whitespace after it). A
// sentence ends at a line break, at 。！？, and at . ! ? followed by space
// when the period does not close an abbreviation ("Dr.", "e.g.", "U.S."),
// an initial ("J. R. R.") or a number ("3. place" stays whole only when the
// next word is lower-case). Decimals ("3.2") have no space and never split.
func Sentences(text string) []Span {
	var out []Span
	start := 0
	cut := func(end int) {
		// Extend over following whitespace so spans are contiguous.
		for end < len(text) {
			r, n := utf8.DecodeRuneInString(text[end:])
			if !unicode.IsSpace(r) {
				break
			}
			end += n
		}
		if end > start {
			out = append(out, Span{start, end})
			start = end
		}
	}
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		next := i + n
		switch {
		case r == '\n' || r == '\u2029' || r == '\u2028':
			cut(next)
		case r == '。' || r == '！' || r == '？':
			cut(next)
		case r == '.' || r == '!' || r == '?' || r == '…':
			// Closing quotes and brackets belong to the sentence.
			j := next
			for j < len(text) {
				q, m := utf8.DecodeRuneInString(text[j:])
				if !strings.ContainsRune(`"'”’)]»`, q) {
					break
				}
				j += m
			}
			if j < len(text) {
				q, _ := utf8.DecodeRuneInString(text[j:])
				if !unicode.IsSpace(q) {
					break // "3.2", "e.g.x", "U.S.-based": no boundary
				}
			}
			if r == '.' && !sentenceEnd(text[start:i], text[j:]) {
				break
			}
			cut(j)
			next = start
		}
		i = next
	}
	if start < len(text) {
		out = append(out, Span{start, len(text)})
	}
	return out
}

// sentenceEnd decides whether a period ends a sentence, given the sentence
// before it and the text after it.
func sentenceEnd(before, after string) bool {
	// The word before the period.
	w := before
	if k := strings.LastIndexFunc(before, func(r rune) bool { return unicode.IsSpace(r) || r == '(' || r == '"' }); k >= 0 {
		w = before[k+1:]
	}
	lw := strings.ToLower(strings.TrimRight(w, "."))
	if abbreviations[lw] {
		return false
	}
	// A single letter ("J.") is an initial.
	if utf8.RuneCountInString(w) == 1 {
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsLetter(r) {
			return false
		}
	}
	// The next word starting lower-case continues the sentence.
	rest := strings.TrimLeftFunc(after, unicode.IsSpace)
	if rest == "" {
		return true
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return !unicode.IsLower(r)
}

// Windows groups whole sentences of text into windows of at most maxChars
// characters (runes) each; a longer sentence is a window of its own. The
// windows are contiguous, in order and cover the text. maxChars <= 0 gives
// one window. A window's text as sent to a model is
// strings.TrimSpace(text[w.Start:w.End]).
func Windows(text string, maxChars int) []Span {
	if text == "" {
		return nil
	}
	if maxChars <= 0 || utf8.RuneCountInString(text) <= maxChars {
		return []Span{{0, len(text)}}
	}
	var out []Span
	cur := Span{-1, -1}
	for _, s := range Sentences(text) {
		if cur.Start >= 0 && utf8.RuneCountInString(strings.TrimSpace(text[cur.Start:s.End])) > maxChars {
			out = append(out, cur)
			cur = Span{-1, -1}
		}
		if cur.Start < 0 {
			cur.Start = s.Start
		}
		cur.End = s.End
	}
	if cur.Start >= 0 {
		out = append(out, cur)
	}
	return out
}
