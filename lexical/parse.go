package lexical

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Parse returns every literal in s, in order of Start. It is deterministic,
// never panics and runs in time linear in len(s) on any input, valid UTF-8 or
// not. The rules, and the choices made where a form is ambiguous, are in the
// package comment.
func Parse(s string) []Literal {
	if s == "" {
		return nil
	}
	var p parser
	p.parse(s)
	return p.out
}

type tkind uint8

const (
	tDigit tkind = iota + 1 // a run of decimal digits (any script)
	tWord                   // a run of letters, or one Han / kana / Hangul rune
	tSpace                  // a run of white space
	tOther                  // one other rune: punctuation, a symbol
)

// token is one piece of the parsed string. Tokens are contiguous and cover it.
type token struct {
	kind       tkind
	cjk        bool // tWord: a single Han, kana or Hangul rune
	nl         bool // tSpace: holds a line break
	n          int  // tDigit: number of digits
	start, end int
	r          rune   // tOther: the rune; tSpace: the rune when the run is one rune long
	low        string // tWord: lower case
}

type parser struct {
	s   string
	t   []token
	out []Literal
	ids []Span // digit runs inside identifiers ("56" in "PSLV-C56")
	buf []byte
}

func (p *parser) parse(s string) {
	p.s = s
	p.t = tokenize(s, make([]token, 0, len(s)/3+2))
	for i := 0; i < len(p.t); {
		j := i + 1
		switch p.t[i].kind {
		case tDigit:
			j = p.atDigit(i)
		case tWord:
			j = p.atWord(i)
		case tOther:
			j = p.atOther(i)
		}
		if j <= i {
			j = i + 1
		}
		i = j
	}
}

func tokenize(s string, dst []token) []token {
	for i := 0; i < len(s); {
		start := i
		r, size := decode(s, i)
		switch {
		case isDigit(r):
			n := 0
			for i < len(s) {
				r, size = decode(s, i)
				if !isDigit(r) {
					break
				}
				i += size
				n++
			}
			dst = append(dst, token{kind: tDigit, start: start, end: i, n: n})
		case isCJK(r):
			i += size
			dst = append(dst, token{kind: tWord, cjk: true, start: start, end: i, low: s[start:i]})
		case unicode.IsLetter(r):
			for i < len(s) {
				r, size = decode(s, i)
				if !(unicode.IsLetter(r) || unicode.IsMark(r)) || isCJK(r) {
					break
				}
				i += size
			}
			dst = append(dst, token{kind: tWord, start: start, end: i, low: strings.ToLower(s[start:i])})
		case unicode.IsSpace(r):
			first, n, nl := r, 0, false
			for i < len(s) {
				r, size = decode(s, i)
				if !unicode.IsSpace(r) {
					break
				}
				nl = nl || isLineBreak(r)
				i += size
				n++
			}
			t := token{kind: tSpace, start: start, end: i, nl: nl}
			if n == 1 {
				t.r = first
			}
			dst = append(dst, t)
		default:
			i += size
			dst = append(dst, token{kind: tOther, start: start, end: i, r: r})
		}
	}
	return dst
}

func decode(s string, i int) (rune, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(s[i:])
}

func isDigit(r rune) bool {
	return '0' <= r && r <= '9' || r >= utf8.RuneSelf && unicode.IsDigit(r)
}

// digitValue is the value of a decimal digit of any script. Every range of
// unicode.Nd is a whole number of blocks of ten starting at a zero.
func digitValue(r rune) int {
	if '0' <= r && r <= '9' {
		return int(r - '0')
	}
	for _, g := range unicode.Nd.R16 {
		if rune(g.Lo) <= r && r <= rune(g.Hi) {
			return int(r-rune(g.Lo)) % 10
		}
	}
	for _, g := range unicode.Nd.R32 {
		if rune(g.Lo) <= r && r <= rune(g.Hi) {
			return int(r-rune(g.Lo)) % 10
		}
	}
	return 0
}

func isCJK(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r))
}

func isLineBreak(r rune) bool {
	return r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || isDigit(r) }

// --- token helpers ---

func (p *parser) kind(i int) tkind {
	if i < 0 || i >= len(p.t) {
		return 0
	}
	return p.t[i].kind
}

func (p *parser) other(i int, rs string) bool {
	return p.kind(i) == tOther && strings.ContainsRune(rs, p.t[i].r)
}

func (p *parser) space(i int) bool { return p.kind(i) == tSpace && !p.t[i].nl }

// skip returns i+1 when token i is a space on one line, else i.
func (p *parser) skip(i int) int {
	if p.space(i) {
		return i + 1
	}
	return i
}

func (p *parser) word(i int, words ...string) bool {
	if p.kind(i) != tWord {
		return false
	}
	for _, w := range words {
		if p.t[i].low == w {
			return true
		}
	}
	return false
}

// latin reports whether token i is a word of a script written with spaces.
func (p *parser) latin(i int) bool { return p.kind(i) == tWord && !p.t[i].cjk }

// small is the value of a digit token of at most 9 digits.
func (p *parser) small(i int) int {
	v := 0
	for k := p.t[i].start; k < p.t[i].end; {
		r, size := decode(p.s, k)
		v = v*10 + digitValue(r)
		k += size
	}
	return v
}

func (p *parser) digitsN(i int, lo, hi int) bool {
	return p.kind(i) == tDigit && p.t[i].n >= lo && p.t[i].n <= hi
}

func (p *parser) appendDigits(b []byte, i int) []byte {
	t := p.t[i]
	if t.n == t.end-t.start {
		return append(b, p.s[t.start:t.end]...)
	}
	for k := t.start; k < t.end; {
		r, size := decode(p.s, k)
		b = append(b, byte('0'+digitValue(r)))
		k += size
	}
	return b
}

// tokAt is the index of the first token starting at or after byte b.
func (p *parser) tokAt(from, b int) int {
	for k := from; k < len(p.t); k++ {
		if p.t[k].start >= b {
			return k
		}
	}
	return len(p.t)
}

// end is the byte offset where token i starts, or len(s) past the end.
func (p *parser) byteAt(i int) int {
	if i >= len(p.t) {
		return len(p.s)
	}
	return p.t[i].start
}

func (p *parser) emit(l Literal) { p.out = append(p.out, l) }
