package lexical

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// abbreviations never end a sentence when followed by a period (compared in
// lower case). Single letters (initials: "J. R. R. Tolkien") and words with
// an inner period ("U.S.", "e.g.", "Ph.D.") are abbreviations too; "No." only
// before a digit.
var abbreviations = setOf(
	"mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "ft", "gen", "col", "lt", "sgt",
	"capt", "cmdr", "adm", "gov", "sen", "rep", "pres", "rev", "hon", "insp", "supt", "messrs",
	"inc", "ltd", "co", "corp", "bros", "dept", "univ", "assn", "est", "approx", "vs", "cf",
	"al", "ca", "c", "viz", "fig", "figs", "vol", "vols", "pp", "ed", "eds", "ch", "sec",
	"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
	"ave", "blvd", "rd", "mme", "mlle", "bzw", "usw", "vgl", "etw", "sr", "sra", "srta",
)

// Sentences splits text into sentence spans (byte offsets). The spans are
// contiguous, in order and cover the text; the white space after a sentence
// belongs to it. Empty text has no sentence.
//
// A sentence ends after '.', '!', '?' or '…' (with any closing quotes or
// brackets) followed by white space and then not by a lower-case letter;
// after a line break of any kind (a heading line, a list item, a paragraph
// break), so hard-wrapped prose is split at its line ends; and right after
// the CJK '。', '！', '？' and '｡'. A period does not end a sentence after an
// abbreviation ("Dr.", "U.S.", "e.g.", "Jul.", initials "J. R. R."), inside a
// number ("3.2"), or when no white space follows ("example.com").
func Sentences(text string) []Span {
	if text == "" {
		return nil
	}
	var out []Span
	start := 0
	cut := func(at int) {
		if at > start && at < len(text) {
			out = append(out, Span{start, at})
			start = at
		}
	}
	for i := 0; i < len(text); {
		r, size := decode(text, i)
		switch {
		case isLineBreak(r):
			cut(spaceEnd(text, i))
			i = max(spaceEnd(text, i), i+size)
			continue
		case r == '。' || r == '！' || r == '？' || r == '｡':
			j := closers(text, i+size)
			cut(spaceEnd(text, j))
			i = max(spaceEnd(text, j), i+size)
			continue
		case r == '.' || r == '!' || r == '?' || r == '…':
			j := i + size
			for j < len(text) {
				r2, s2 := decode(text, j)
				if r2 != '.' && r2 != '!' && r2 != '?' && r2 != '…' {
					break
				}
				j += s2
			}
			j = closers(text, j)
			k := spaceEnd(text, j)
			if k == j || k >= len(text) {
				i = j
				continue
			}
			next, _ := decode(text, k)
			brk := strings.ContainsFunc(text[j:k], isLineBreak)
			if !brk && (unicode.IsLower(next) || r == '.' && j == i+size && isAbbreviation(text, start, i, next)) {
				i = k
				continue
			}
			cut(k)
			i = k
			continue
		}
		i += size
	}
	out = append(out, Span{start, len(text)})
	return out
}

// spaceEnd is the end of the white space starting at i.
func spaceEnd(text string, i int) int {
	for i < len(text) {
		r, size := decode(text, i)
		if !unicode.IsSpace(r) {
			break
		}
		i += size
	}
	return i
}

// closers skips closing quotes and brackets at i.
func closers(text string, i int) int {
	for i < len(text) {
		r, size := decode(text, i)
		if !strings.ContainsRune(`"')]}»”’」』）`, r) {
			break
		}
		i += size
	}
	return i
}

// isAbbreviation reports whether the period at byte dot ends an abbreviation.
func isAbbreviation(text string, from, dot int, next rune) bool {
	w := dot
	for w > from {
		r, size := utf8.DecodeLastRuneInString(text[:w])
		if !(unicode.IsLetter(r) || r == '.') {
			break
		}
		w -= size
	}
	word := text[w:dot]
	if word == "" {
		return false
	}
	if strings.Contains(word, ".") || utf8.RuneCountInString(word) == 1 {
		return true
	}
	low := strings.ToLower(word)
	if low == "no" || low == "nr" || low == "nos" {
		return isDigit(next)
	}
	return abbreviations[low]
}

// Windows groups whole sentences into windows of at most maxChars characters
// (runes) each, for extracting long passages piece by piece (SPEC §2b). A
// sentence longer than maxChars is a window of its own; maxChars <= 0 gives
// one window of the whole text. Windows are contiguous, cover the text and
// are in order; empty text has none.
func Windows(text string, maxChars int) []Span {
	if text == "" {
		return nil
	}
	if maxChars <= 0 {
		return []Span{{0, len(text)}}
	}
	var out []Span
	cur, n := Span{0, 0}, 0
	for _, s := range Sentences(text) {
		m := utf8.RuneCountInString(text[s.Start:s.End])
		if n > 0 && n+m > maxChars {
			out = append(out, cur)
			cur, n = Span{s.Start, s.Start}, 0
		}
		cur.End = s.End
		n += m
	}
	return append(out, cur)
}
