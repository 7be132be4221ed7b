package main

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// sent is one sentence of a text: text[start:end] in bytes, trimmed of
// surrounding space.
type sent struct {
	start, end int
}

// abbrevs end in a full stop that rarely ends a sentence (lower case, the
// stop left out).
var abbrevs = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true, "jr": true, "sr": true,
	"vs": true, "etc": true, "no": true, "inc": true, "ltd": true, "co": true, "corp": true,
	"gen": true, "gov": true, "sen": true, "rep": true, "lt": true, "col": true, "sgt": true,
	"capt": true, "mt": true, "jan": true, "feb": true, "mar": true, "apr": true, "jun": true,
	"jul": true, "aug": true, "sep": true, "sept": true, "oct": true, "nov": true, "dec": true,
	"fig": true, "approx": true, "dept": true, "est": true, "vol": true, "pp": true, "al": true,
	"ft": true, "rev": true, "hon": true,
}

// closers may follow a sentence's final punctuation.
func closer(r rune) bool {
	return strings.ContainsRune(`"')]’”»`, r)
}

// sentences splits text into sentences: at every line break, and after ., !
// or ? (closing quotes or brackets included) followed by space and then
// something other than a lower-case letter, unless the full stop ends an
// abbreviation, an initial (one capital letter), a dotted abbreviation such
// as U.S., or a list number at the start of a line. Deterministic, and
// offsets are bytes of text.
func sentences(text string) []sent {
	var out []sent
	segStart := -1
	emit := func(end int) {
		if segStart < 0 {
			return
		}
		seg := text[segStart:end]
		t := strings.TrimRightFunc(seg, unicode.IsSpace)
		if t != "" {
			out = append(out, sent{segStart, segStart + len(t)})
		}
		segStart = -1
	}
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		if r == '\n' || r == '\r' {
			emit(i)
			i += w
			continue
		}
		if segStart < 0 {
			if unicode.IsSpace(r) {
				i += w
				continue
			}
			segStart = i
		}
		if r != '.' && r != '!' && r != '?' {
			i += w
			continue
		}
		// the end of the punctuation run and its closers
		j := i + w
		for j < len(text) {
			r2, w2 := utf8.DecodeRuneInString(text[j:])
			if r2 == '.' || r2 == '!' || r2 == '?' || closer(r2) {
				j += w2
				continue
			}
			break
		}
		if j >= len(text) {
			emit(j)
			i = j
			continue
		}
		r2, _ := utf8.DecodeRuneInString(text[j:])
		if !unicode.IsSpace(r2) {
			i = j
			continue
		}
		// the next non-space character, on the same line
		k := j
		newline := false
		for k < len(text) {
			r3, w3 := utf8.DecodeRuneInString(text[k:])
			if !unicode.IsSpace(r3) {
				break
			}
			if r3 == '\n' || r3 == '\r' {
				newline = true
				break
			}
			k += w3
		}
		if newline || k >= len(text) {
			emit(j)
			i = k
			continue
		}
		next, _ := utf8.DecodeRuneInString(text[k:])
		if unicode.IsLower(next) {
			i = j
			continue
		}
		if r == '.' && i+w == j && notEnd(text[segStart:i]) {
			i = j
			continue
		}
		emit(j)
		i = k
	}
	emit(len(text))
	return out
}

// notEnd reports whether a full stop after before (the sentence so far)
// belongs to the last word rather than ending the sentence.
func notEnd(before string) bool {
	f := strings.Fields(before)
	if len(f) == 0 {
		return true
	}
	w := strings.TrimLeft(f[len(f)-1], `"'(“‘[`)
	if w == "" {
		return false
	}
	if len(f) == 1 && strings.Trim(w, "0123456789") == "" {
		return true // "1." starting a line: a list number
	}
	if strings.Contains(w, ".") {
		return true // U.S., e.g, i.e
	}
	if utf8.RuneCountInString(w) == 1 {
		r, _ := utf8.DecodeRuneInString(w)
		return unicode.IsUpper(r)
	}
	return abbrevs[strings.ToLower(w)]
}

// claimText is a sentence as a claim: a leading list marker ("* ", "- ",
// "1. ") taken off.
func claimText(s string) string {
	t := strings.TrimSpace(s)
	for _, p := range []string{"* ", "- ", "• ", "+ "} {
		if strings.HasPrefix(t, p) {
			return strings.TrimSpace(t[len(p):])
		}
	}
	if i := strings.IndexAny(t, ".)"); i > 0 && i <= 3 && strings.Trim(t[:i], "0123456789") == "" && i+1 < len(t) && t[i+1] == ' ' {
		return strings.TrimSpace(t[i+1:])
	}
	return t
}
