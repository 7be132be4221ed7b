package lexical

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// folded is the compact form of a string (SPEC §2b: NFKC, case-folded, with
// white space, hyphens, punctuation and control characters removed), with
// for each of its bytes the byte of the source it came from and whether
// something was removed just before it.
type folded struct {
	s   string
	raw []int32 // source offset of each byte of s
	brk []bool  // a removed character (or the start) precedes this byte
}

// asciiClass: 0 removed, 1 letter or digit, 2 kept symbol ($ + < = > ^ ` | ~).
var asciiClass [utf8.RuneSelf]uint8

func init() {
	for b := 0; b < utf8.RuneSelf; b++ {
		r := rune(b)
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			asciiClass[b] = 1
		case unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsControl(r):
			asciiClass[b] = 0
		default:
			asciiClass[b] = 2
		}
	}
}

func removed(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
}

// foldRune case-folds one rune; ß folds to "ss".
func foldRune(dst []byte, r rune) []byte {
	switch {
	case r < utf8.RuneSelf:
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return append(dst, byte(r))
	case r == 'ß' || r == 'ẞ':
		return append(dst, "ss"...)
	}
	return utf8.AppendRune(dst, unicode.ToLower(unicode.ToUpper(r)))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// compactOf computes the compact form of s; with mapped, also its offsets.
func compactOf(s string, mapped bool) folded {
	var f folded
	c := make([]byte, 0, len(s))
	if mapped {
		f.raw = make([]int32, 0, len(s))
		f.brk = make([]bool, 0, len(s))
	}
	pending := true
	if isASCII(s) {
		for i := 0; i < len(s); i++ {
			b := s[i]
			if asciiClass[b] == 0 {
				pending = true
				continue
			}
			if 'A' <= b && b <= 'Z' {
				b += 'a' - 'A'
			}
			c = append(c, b)
			if mapped {
				f.raw = append(f.raw, int32(i))
				f.brk = append(f.brk, pending)
			}
			pending = false
		}
		f.s = string(c)
		return f
	}
	var it norm.Iter
	it.InitString(norm.NFKC, s)
	for !it.Done() {
		pos := it.Pos()
		seg := it.Next()
		for k := 0; k < len(seg); {
			r, size := utf8.DecodeRune(seg[k:])
			k += size
			if removed(r) {
				pending = true
				continue
			}
			n0 := len(c)
			c = foldRune(c, r)
			if mapped {
				for b := n0; b < len(c); b++ {
					f.raw = append(f.raw, int32(pos))
					f.brk = append(f.brk, pending && b == n0)
				}
			}
			pending = false
		}
	}
	f.s = string(c)
	return f
}

// normFold is s in NFKC, case-folded, nothing removed.
func normFold(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	n := norm.NFKC.String(s)
	b := make([]byte, 0, len(n))
	for _, r := range n {
		b = foldRune(b, r)
	}
	return string(b)
}

// tokensOf splits s (after NFKC and case folding) into words: runs of letters
// and digits, a '.' or ',' between two digits kept ("3.2"), each Han, kana or
// Hangul rune a word of its own.
func tokensOf(s string) []string {
	f := normFold(s)
	var out []string
	start := -1
	prev := rune(0)
	for i, r := range f {
		switch {
		case isCJK(r):
			if start >= 0 {
				out = append(out, f[start:i])
			}
			out = append(out, string(r))
			start = -1
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			if start < 0 {
				start = i
			}
		case (r == '.' || r == ',') && start >= 0 && unicode.IsDigit(prev) && i+1 < len(f) && f[i+1] >= '0' && f[i+1] <= '9':
			// a separator inside a number
		default:
			if start >= 0 {
				out = append(out, f[start:i])
			}
			start = -1
		}
		prev = r
	}
	if start >= 0 {
		out = append(out, f[start:])
	}
	return out
}
