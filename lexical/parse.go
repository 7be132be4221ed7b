package lexical

import (
	"math"
	"strconv"
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

// --- dispatch ---

func (p *parser) atOther(i int) int {
	t := p.t[i]
	if cur, ok := currencySymbols[t.r]; ok {
		k := p.skip(i + 1)
		if j := p.amount(k, t.start, cur); j > 0 {
			return j
		}
		return i + 1
	}
	// A minus sign before a number that is not glued to a word or a number
	// on its left: "-5 °C", "−3"; not the hyphen of "2010-2014" or "F-16".
	if (t.r == '-' || t.r == '−') && p.kind(i+1) == tDigit {
		if i == 0 || p.kind(i-1) == tSpace || p.other(i-1, "([{/=:;,~≈") {
			nm, ok := p.number(i + 1)
			if !ok {
				return p.skipIdent(i + 1)
			}
			nm.neg = true
			return p.finish(t.start, nm, "")
		}
	}
	return i + 1
}

func (p *parser) atWord(i int) int {
	t := p.t[i]
	if !t.cjk {
		// Currency written before the amount: "USD 100", "Rs 500 crore", "US$ 5m".
		if cur := p.currencyWord(i); cur != "" {
			k := i + 1
			if p.other(k, "$") {
				k++
			} else if p.other(k, ".") {
				k++
			}
			if j := p.amount(p.skip(k), t.start, cur); j > 0 {
				return j
			}
		}
		if m, ok := p.month(i); ok {
			if j := p.monthFirst(i, m); j > 0 {
				return j
			}
		}
		switch t.low {
		case "noon":
			p.emit(Literal{Kind: KindTime, Value: 12 * 3600, Start: t.start, End: t.end})
			return i + 1
		case "midnight":
			p.emit(Literal{Kind: KindTime, Value: 0, Start: t.start, End: t.end})
			return i + 1
		}
		if nm, ok := p.numberWords(i); ok {
			return p.finish(t.start, nm, "")
		}
		// Letters glued to digits make a name: "C56", "COVID-19", "H2O";
		// "mid-2023" is a year.
		if p.kind(i+1) == tDigit {
			return p.skipIdent(i)
		}
		if p.other(i+1, "-") && p.kind(i+2) == tDigit {
			if prefixWords[t.low] {
				return i + 2
			}
			return p.skipIdent(i)
		}
	}
	return i + 1
}

// currencyWord is the currency named by word i when it may stand before an
// amount: an ISO code in upper case, "Rs", or a dollar prefix glued to "$".
func (p *parser) currencyWord(i int) string {
	w := p.s[p.t[i].start:p.t[i].end]
	if p.other(i+1, "$") {
		if c, ok := dollarPrefixes[w]; ok {
			return c
		}
		return ""
	}
	if currencyCodes[w] {
		if w == "RMB" {
			return "CNY"
		}
		return w
	}
	if p.t[i].low == "rs" || w == "INR" {
		return "INR"
	}
	return ""
}

// amount parses a money amount at token k (digits or number words) after a
// currency stated before it.
func (p *parser) amount(k, start int, cur string) int {
	switch p.kind(k) {
	case tDigit:
		nm, ok := p.number(k)
		if !ok {
			return 0
		}
		return p.finish(start, nm, cur)
	case tWord:
		if nm, ok := p.numberWords(k); ok {
			return p.finish(start, nm, cur)
		}
	}
	return 0
}

// skipIdent skips the identifier starting at token i: letters and digits
// glued together or joined by "-", ".", "/" or "_" ("PSLV-C56", "B2B",
// "C-130J", "192.168.1.1"). Its digit runs are recorded, it holds no literal.
func (p *parser) skipIdent(i int) int {
	j := i
	for j < len(p.t) {
		switch k := p.t[j].kind; {
		case k == tDigit:
			p.ids = append(p.ids, Span{p.t[j].start, p.t[j].end})
			j++
		case k == tWord && !p.t[j].cjk:
			j++
		case j > i && p.other(j, "-./_") && (p.kind(j+1) == tDigit || p.latin(j+1)):
			j++
		default:
			return j
		}
	}
	return j
}

func (p *parser) atDigit(i int) int {
	if p.kind(i-1) == tDigit {
		return i + 1 // cannot happen: digit runs are maximal
	}
	if j := p.isoDate(i); j > 0 {
		return j
	}
	if j := p.numericDate(i); j > 0 {
		return j
	}
	if j := p.cjkDate(i); j > 0 {
		return j
	}
	if j := p.dayFirst(i); j > 0 {
		return j
	}
	if j := p.clock(i); j > 0 {
		return j
	}
	nm, ok := p.number(i)
	if !ok {
		return p.skipIdent(i)
	}
	return p.finish(p.t[i].start, nm, "")
}

// --- numbers ---

// num is a number as read: its digits (with a '.' for the decimal point) and
// a power of ten, so that scales and SI prefixes are exact ("2.4 GHz" is
// 2.4e9, not 2.4 * 1e9).
type num struct {
	mant    []byte
	first   int // token of the first digit
	exp     int
	mul     float64
	plain   bool // one run of digits: no separator, decimal point or sign
	intLen  int  // digits before the decimal point
	end     int  // token after the number
	neg     bool
	isWords bool
}

// number reads the digits at token i with their grouping and decimal
// separators:
//
//	1,234 and 1,234,567 and 1,23,45,678 (Indian) group; 1,5 and 12,34 are decimals;
//	1.234.567 groups; 1.234 and 3.2 are decimals; 1.234,5 and 1,234.5 both work;
//	1 234 567 (space, no-break, thin or narrow no-break space) groups by three;
//	1,2,3 is a list (1, 2, 3); 1.2.3 and 192.168.1.1 are identifiers (ok=false).
func (p *parser) number(i int) (num, bool) {
	nm := num{mul: 1, plain: true, intLen: p.t[i].n, first: i}
	b := p.appendDigits(p.buf[:0], i)
	j := i + 1
	group := rune(0) // grouping separator in use
	// An item of a list ("1,2,3") takes no separator.
	inList := p.other(i-1, ",.") && p.kind(i-2) == tDigit
	for !inList && p.kind(j+1) == tDigit {
		sep := rune(0)
		switch {
		case p.other(j, ",."):
			sep = p.t[j].r
		case p.space(j) && p.t[j].r != 0 && (p.t[j].r == ' ' || p.t[j].r == '\u00a0' || p.t[j].r == '\u2009' || p.t[j].r == '\u202f' || p.t[j].r == '\u2007'):
			sep = ' '
		}
		if sep == 0 {
			break
		}
		if sep == ' ' {
			if group != 0 && group != ' ' || p.t[j+1].n != 3 || group == 0 && nm.intLen > 3 {
				break
			}
			// "5 100m", "3 000:" are not grouped.
			if p.t[j].r == ' ' && (p.latin(j+2) || p.other(j+2, ":")) {
				break
			}
			group = ' '
		} else if sep == group {
			if p.t[j+1].n != 3 {
				break
			}
		} else {
			// A new mark: count how often it repeats and the group sizes.
			var sizes []int
			k := j
			for p.other(k, string(sep)) && p.kind(k+1) == tDigit {
				sizes = append(sizes, p.t[k+1].n)
				k += 2
			}
			other := ','
			if sep == ',' {
				other = '.'
			}
			thenDecimal := p.other(k, string(other)) && p.kind(k+1) == tDigit
			all3 := true
			for _, n := range sizes {
				all3 = all3 && n == 3
			}
			indian := sep == ',' && len(sizes) >= 2 && sizes[len(sizes)-1] == 3 && nm.intLen <= 2
			for _, n := range sizes[:len(sizes)-1] {
				indian = indian && n == 2
			}
			switch {
			case group == 0 && all3 && nm.intLen <= 3 && (sep == ',' || len(sizes) >= 2 || thenDecimal), group == 0 && indian:
				for g := 0; g < len(sizes); g++ {
					b = p.appendDigits(b, j+1+2*g)
				}
				nm.intLen += sizeSum(sizes)
				nm.plain = false
				group = sep
				j = k
				continue
			case len(sizes) == 1:
				b = append(b, '.')
				b = p.appendDigits(b, j+1)
				nm.plain = false
				nm.mant, nm.end = b, j+2
				p.buf = b
				return nm, true
			case sep == '.':
				nm.end = k
				return nm, false
			}
			break
		}
		b = p.appendDigits(b, j+1)
		nm.intLen += 3
		nm.plain = false
		j += 2
	}
	nm.mant, nm.end = b, j
	p.buf = b
	return nm, true
}

func sizeSum(s []int) int {
	n := 0
	for _, v := range s {
		n += v
	}
	return n
}

// value is the number's value times 10^exp times mul.
func (nm num) value(exp int, mul float64) (float64, bool) {
	b := append(nm.mant, 'e')
	b = strconv.AppendInt(b, int64(nm.exp+exp), 10)
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, false
	}
	v *= nm.mul * mul
	if nm.neg {
		v = -v
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	return v, true
}

// numberWords reads English number words at token i: "twelve", "twenty-one",
// "a dozen", "three hundred and five", "two million".
func (p *parser) numberWords(i int) (num, bool) {
	var total, cur int64
	k := i
	seen := false
	if p.word(k, "a", "an") {
		n := p.skip(k + 1)
		if n == k+1 || p.kind(n) != tWord || numberMultipliers[p.t[n].low] == 0 {
			return num{}, false
		}
		cur, k = 1, n
	}
	lastUnit := false
	end := k
	for p.kind(k) == tWord {
		w := p.t[k].low
		if v, ok := numberWords[w]; ok {
			if lastUnit && (v >= 10 || cur%10 != 0) {
				break
			}
			cur += v
			lastUnit = v < 20
		} else if m := numberMultipliers[w]; m != 0 && (seen || cur > 0) {
			if cur == 0 {
				cur = 1
			}
			if m >= 1000 {
				total += cur * m
				cur = 0
			} else {
				cur *= m
			}
			lastUnit = false
		} else {
			break
		}
		seen = true
		end = k + 1
		// Go on through "-", " ", " and ".
		n := k + 1
		switch {
		case p.other(n, "-"):
			n++
		case p.space(n) && p.word(n+1, "and") && p.space(n+2):
			n += 3
		case p.space(n):
			n++
		}
		if p.kind(n) != tWord || !isNumberWord(p.t[n].low) {
			break
		}
		k = n
	}
	if !seen || total+cur > 1e15 {
		return num{}, false
	}
	v := total + cur
	return num{mant: strconv.AppendInt(nil, v, 10), mul: 1, end: end, isWords: true}, true
}

func isNumberWord(w string) bool {
	_, ok := numberWords[w]
	return ok || numberMultipliers[w] != 0
}

// finish reads what follows a number (an ordinal or decade suffix, scales,
// a percent sign, a currency, a unit), emits the literal and returns the
// token after it. start is where the literal starts (a sign or a currency
// stated before the number); cur is that currency.
func (p *parser) finish(start int, nm num, cur string) int {
	j := nm.end
	end := p.t[j-1].end
	if !nm.isWords && !nm.neg && p.latin(j) && cur == "" {
		w := p.t[j].low
		if nm.plain && (w == "st" || w == "nd" || w == "rd" || w == "th") && p.boundary(p.t[j].end) {
			if v, ok := nm.value(0, 1); ok {
				p.emit(Literal{Kind: KindNumber, Value: v, Start: start, End: p.t[j].end})
			}
			return j + 1
		}
		if nm.plain && w == "s" && p.boundary(p.t[j].end) {
			if y, ok := decadeYear(p, nm); ok {
				p.emit(Literal{Kind: KindDate, Year: y, Decade: true, Start: start, End: p.t[j].end})
				return j + 1
			}
		}
	}
	if nm.plain && !nm.neg && cur == "" && p.other(j, "'’") && p.word(j+1, "s") && p.boundary(p.t[j+1].end) {
		if y, ok := decadeYear(p, nm); ok {
			p.emit(Literal{Kind: KindDate, Year: y, Decade: true, Start: start, End: p.t[j+1].end})
			return j + 2
		}
	}

	exp, mul := 0, 1.0
	var last *suffix
	scaled := false
	for step := 0; step < 4; step++ {
		e, sf := p.suffixAt(end, cur != "")
		if sf == nil {
			break
		}
		if sf.cat == catScale {
			exp += sf.exp
			mul *= sf.mul
			scaled = true
			end = e
			continue
		}
		// With a currency stated before the amount only a currency may
		// follow ("US$ 5 USD"); "$5 per kg" stays money.
		if cur == "" || sf.cat == catCurrency {
			last, end = sf, e
		}
		break
	}
	jEnd := p.tokAt(j, end)
	l := Literal{Kind: KindNumber, Start: start}
	if last != nil {
		switch last.cat {
		case catCurrency:
			if cur == "" {
				cur = last.unit
			}
		case catPercent:
			l.Kind, l.Unit = KindPercent, last.unit
		case catDuration:
			l.Kind = KindDuration
		case catQuantity:
			l.Kind, l.Unit = KindQuantity, last.unit
		}
		if last.cat != catCurrency {
			exp += last.exp
			mul *= last.mul
		}
	}
	if cur != "" {
		l.Kind, l.Unit = KindMoney, cur
	}
	if last == nil && !scaled && !nm.isWords {
		// Digits glued to letters that are no unit make a name ("4K", "3D");
		// so do digits hyphenated to one or two capitals ("3-D").
		if p.latin(j) || p.other(j, "-") && p.latin(j+1) && p.t[j+1].end-p.t[j+1].start <= 2 &&
			strings.ToUpper(p.s[p.t[j+1].start:p.t[j+1].end]) == p.s[p.t[j+1].start:p.t[j+1].end] && !p.latin(j+2) && p.kind(j+2) != tDigit {
			if cur == "" {
				return p.skipIdent(nm.first)
			}
		}
	}
	v, ok := nm.value(exp, mul)
	if !ok {
		return jEnd
	}
	if l.Kind == KindNumber && !scaled && nm.plain && !nm.neg && nm.intLen == 4 && v >= 1000 && v <= 2100 {
		l = Literal{Kind: KindDate, Year: int(v), Start: start, End: end}
		p.emit(l)
		return jEnd
	}
	l.Value, l.End = v, end
	p.emit(l)
	return jEnd
}

func decadeYear(p *parser, nm num) (int, bool) {
	if nm.intLen != 4 || len(nm.mant) != 4 {
		return 0, false
	}
	y, err := strconv.Atoi(string(nm.mant))
	if err != nil || y%10 != 0 || y < 1000 || y > 2100 {
		return 0, false
	}
	return y, true
}

// boundary reports whether byte b ends a word: the end of s or a rune that
// is no letter or digit.
func (p *parser) boundary(b int) bool {
	if b >= len(p.s) {
		return true
	}
	r, _ := decode(p.s, b)
	return !isAlnum(r) || isCJK(r)
}

// suffixAt finds the longest suffix pattern after a number ending at byte
// pos: glued ("5kg"), after spaces ("5 kg") or after a hyphen for units and
// durations ("573-km", "3-year").
func (p *parser) suffixAt(pos int, hasCur bool) (int, *suffix) {
	s := p.s
	q, hyphen := pos, false
	if q < len(s) {
		if s[q] == '-' {
			q++
			hyphen = true
		} else {
			for q < len(s) {
				r, size := decode(s, q)
				if !unicode.IsSpace(r) || isLineBreak(r) {
					break
				}
				q += size
			}
		}
	}
	if q >= len(s) {
		return 0, nil
	}
	r, _ := decode(s, q)
	for _, sf := range suffixIndex[unicode.ToLower(r)] {
		if sf.needCur && !hasCur {
			continue
		}
		if hyphen && (sf.cat != catDuration && sf.cat != catQuantity) {
			continue
		}
		e := matchAt(s, q, sf.pat, sf.fold)
		if e < 0 {
			continue
		}
		if l, _ := utf8.DecodeLastRuneInString(sf.pat); isAlnum(l) && !isCJK(l) && !p.boundary(e) {
			continue
		}
		return e, sf
	}
	return 0, nil
}

// matchAt matches pat at byte q of s and returns the end, or -1. A space in
// pat matches one or more spaces (no line break); fold ignores case.
func matchAt(s string, q int, pat string, fold bool) int {
	i := q
	for k := 0; k < len(pat); {
		pc, ps := decode(pat, k)
		k += ps
		if pc == ' ' {
			n := 0
			for i < len(s) {
				r, size := decode(s, i)
				if !unicode.IsSpace(r) || isLineBreak(r) {
					break
				}
				i += size
				n++
			}
			if n == 0 {
				return -1
			}
			continue
		}
		if i >= len(s) {
			return -1
		}
		r, size := decode(s, i)
		if r != pc && !(fold && unicode.ToLower(r) == pc) {
			return -1
		}
		i += size
	}
	return i
}

// --- dates and times ---

func validDate(y, m, d int) bool {
	if m < 1 || m > 12 || d < 0 || d > 31 {
		return false
	}
	if d == 0 {
		return true
	}
	days := [13]int{0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}
	return d <= days[m]
}

// isoDate: 2023-07-30, 2023/07/30, 2023.07.30, with an optional time after
// "T": 2023-07-30T06:30:00Z.
func (p *parser) isoDate(i int) int {
	if !p.digitsN(i, 4, 4) || !p.other(i+1, "-/.") || !p.digitsN(i+2, 1, 2) || !p.other(i+3, string(p.t[i+1].r)) || !p.digitsN(i+4, 1, 2) {
		return 0
	}
	if p.kind(i+5) == tDigit || p.other(i+5, "-/.") && p.kind(i+6) == tDigit {
		return 0
	}
	y, m, d := p.small(i), p.small(i+2), p.small(i+4)
	if !validDate(y, m, d) || d == 0 {
		return 0
	}
	p.emit(Literal{Kind: KindDate, Year: y, Month: m, Day: d, Start: p.t[i].start, End: p.t[i+4].end})
	if p.word(i+5, "t") && p.kind(i+6) == tDigit {
		if j := p.clock(i + 6); j > 0 {
			return j
		}
		return i + 6
	}
	return i + 5
}

// numericDate: 30/07/2023, 07/30/2023, 30.07.2023, 30-07-2023. A part above
// 12 decides which is the day; when both are 12 or less the order is
// day/month/year.
func (p *parser) numericDate(i int) int {
	if !p.digitsN(i, 1, 2) || !p.other(i+1, "/.-") || !p.digitsN(i+2, 1, 2) || !p.other(i+3, string(p.t[i+1].r)) || !p.digitsN(i+4, 4, 4) {
		return 0
	}
	if p.kind(i+5) == tDigit || p.latin(i+5) || p.other(i+5, "/.-") && p.kind(i+6) == tDigit {
		return 0
	}
	a, b, y := p.small(i), p.small(i+2), p.small(i+4)
	d, m := a, b
	if a <= 12 && b > 12 {
		d, m = b, a
	}
	if d == 0 || !validDate(y, m, d) {
		return 0
	}
	p.emit(Literal{Kind: KindDate, Year: y, Month: m, Day: d, Start: p.t[i].start, End: p.t[i+4].end})
	return i + 5
}

// cjkDate: 2023年7月30日, 2023年7月, 2023年, 7月30日, and Korean 2023년 7월 30일.
func (p *parser) cjkDate(i int) int {
	cj := func(k int, chars ...string) bool {
		return p.kind(k) == tWord && p.t[k].cjk && (p.t[k].low == chars[0] || len(chars) > 1 && p.t[k].low == chars[1])
	}
	l := Literal{Kind: KindDate, Start: p.t[i].start}
	k := i
	if p.digitsN(k, 4, 4) && cj(k+1, "年", "년") {
		l.Year, l.End = p.small(k), p.t[k+1].end
		k = p.skip(k + 2)
	}
	if p.digitsN(k, 1, 2) && cj(k+1, "月", "월") {
		m := p.small(k)
		n := p.skip(k + 2)
		if p.digitsN(n, 1, 2) && cj(n+1, "日", "일") {
			d := p.small(n)
			if validDate(2000, m, d) && d > 0 {
				l.Month, l.Day, l.End = m, d, p.t[n+1].end
				k = n + 2
			}
		} else if l.Year != 0 && m >= 1 && m <= 12 {
			l.Month, l.End = m, p.t[k+1].end
			k += 2
		}
	}
	if l.Year == 0 && l.Month == 0 {
		return 0
	}
	p.emit(l)
	return p.tokAt(i, l.End)
}

// month is the month named by word i, if any ("mars" only in lower case).
func (p *parser) month(i int) (int, bool) {
	if !p.latin(i) {
		return 0, false
	}
	m, ok := months[p.t[i].low]
	if ok && p.t[i].low == "mars" && p.s[p.t[i].start:p.t[i].end] != "mars" {
		return 0, false
	}
	return m, ok
}

// year4 reads a four-digit year at token k that is not glued to more digits
// or letters.
func (p *parser) year4(k int) (int, bool) {
	if !p.digitsN(k, 4, 4) || p.latin(k+1) || p.other(k+1, ",.") && p.kind(k+2) == tDigit || p.other(k+1, ":") {
		return 0, false
	}
	return p.small(k), true
}

// dayFirst: 30 July 2023, 30th of July 2023, 30. Juli 2023, 30 de julio de
// 2023, 1er août 2023, 30-Jul-2023, 30 July (no year).
func (p *parser) dayFirst(i int) int {
	if !p.digitsN(i, 1, 2) {
		return 0
	}
	d := p.small(i)
	if d < 1 || d > 31 {
		return 0
	}
	k := i + 1
	if p.word(k, "st", "nd", "rd", "th", "er", "e", "ème", "eme", "º", "ª") {
		k++
	}
	if p.other(k, ".") {
		k++
	}
	sep := rune(' ')
	switch {
	case p.space(k):
		k++
	case p.other(k, "-/") && p.latin(k+1):
		sep = p.t[k].r
		k++
	default:
		return 0
	}
	if sep == ' ' && p.word(k, "of", "de") && p.space(k+1) {
		k += 2
	}
	m, ok := p.month(k)
	if !ok {
		return 0
	}
	if !validDate(2000, m, d) {
		return 0
	}
	end := p.t[k].end
	k++
	if p.other(k, ".") && len(p.t[k-1].low) <= 4 {
		end = p.t[k].end
		k++
	}
	l := Literal{Kind: KindDate, Month: m, Day: d, Start: p.t[i].start, End: end}
	n := k
	if sep != ' ' {
		if p.other(n, string(sep)) {
			n++
		} else {
			n = -1
		}
	} else {
		if p.other(n, ",") {
			n++
		}
		n = p.skip(n)
		if p.word(n, "de", "del", "of") && p.space(n+1) {
			n += 2
		}
	}
	if n > 0 {
		if y, ok := p.year4(n); ok {
			l.Year, l.End = y, p.t[n].end
			k = n + 1
		}
	}
	if l.Year != 0 && !validDate(l.Year, m, d) {
		return 0
	}
	p.emit(l)
	return k
}

// monthFirst: July 30, 2023; July 30th 2023; Jul. 2023; July 2023; julio de 2023; July 30.
func (p *parser) monthFirst(i, m int) int {
	k := i + 1
	if p.other(k, ".") && len(p.t[i].low) <= 4 {
		k++
	}
	if !p.space(k) {
		return 0
	}
	k++
	if p.word(k, "de", "del", "of") && p.space(k+1) {
		k += 2
	}
	l := Literal{Kind: KindDate, Month: m, Start: p.t[i].start}
	if y, ok := p.year4(k); ok {
		l.Year, l.End = y, p.t[k].end
		p.emit(l)
		return k + 1
	}
	if !p.digitsN(k, 1, 2) || p.other(k+1, ":.,") && p.kind(k+2) == tDigit {
		return 0
	}
	d := p.small(k)
	if d < 1 || !validDate(2000, m, d) {
		return 0
	}
	l.Day, l.End = d, p.t[k].end
	n := k + 1
	if p.word(n, "st", "nd", "rd", "th") {
		l.End = p.t[n].end
		n++
	} else if p.latin(n) {
		return 0
	}
	k = n
	if p.other(n, ",") {
		n++
	}
	n = p.skip(n)
	if y, ok := p.year4(n); ok && validDate(y, m, d) {
		l.Year, l.End = y, p.t[n].end
		k = n + 1
	}
	p.emit(l)
	return k
}

// clock: 06:30, 06:30:15, 6:30 AM, 6.30 pm, 18h30, 6 pm, 12 UTC, each with
// an optional zone after it (IST, UTC, UTC+5:30, Z, +05:30).
func (p *parser) clock(i int) int {
	if !p.digitsN(i, 1, 2) {
		return 0
	}
	h, m, sec := p.small(i), 0, 0
	k := i + 1
	explicit := false // minutes stated
	switch {
	case p.other(k, ":") && p.digitsN(k+1, 2, 2):
		m = p.small(k + 1)
		k += 2
		if p.other(k, ":") && p.digitsN(k+1, 2, 2) {
			sec = p.small(k + 1)
			k += 2
			if p.other(k, ".,") && p.kind(k+1) == tDigit {
				k += 2
			}
		}
		explicit = true
	case p.other(k, ".") && p.digitsN(k+1, 2, 2):
		// 6.30 is a decimal unless am/pm follows.
		if _, ok := p.ampm(p.t[k+1].end); !ok {
			return 0
		}
		m = p.small(k + 1)
		k += 2
		explicit = true
	case p.word(k, "h") && p.digitsN(k+1, 2, 2) && !p.latin(k+2):
		m = p.small(k + 1)
		k += 2
		explicit = true
	}
	end := p.t[k-1].end
	pm, hasAMPM := 0, false
	if e, ok := p.ampm(end); ok {
		pm, hasAMPM = e.pm, true
		end = e.end
		k = p.tokAt(k, end)
	}
	zone := ""
	if ze, z, ok := p.zone(k, explicit || hasAMPM); ok {
		zone, end = z, ze
		k = p.tokAt(k, end)
	}
	if !explicit && !hasAMPM && zone == "" {
		return 0
	}
	if m > 59 || sec > 59 {
		return 0
	}
	if hasAMPM {
		if h < 1 || h > 12 {
			return 0
		}
		h %= 12
		if pm == 1 {
			h += 12
		}
	} else if h > 24 || h == 24 && (m != 0 || sec != 0) {
		return 0
	}
	p.emit(Literal{Kind: KindTime, Value: float64(h*3600 + m*60 + sec), Zone: zone, Start: p.t[i].start, End: end})
	return k
}

type ampmEnd struct{ end, pm int }

var ampmPats = []struct {
	pat string
	pm  int
}{{"a. m.", 0}, {"p. m.", 1}, {"a.m.", 0}, {"p.m.", 1}, {"am", 0}, {"pm", 1}}

func (p *parser) ampm(b int) (ampmEnd, bool) {
	q := b
	if q < len(p.s) && p.s[q] == ' ' {
		q++
	}
	for _, a := range ampmPats {
		if e := matchAt(p.s, q, a.pat, true); e >= 0 {
			if a.pat[len(a.pat)-1] != '.' && !p.boundary(e) {
				continue
			}
			return ampmEnd{e, a.pm}, true
		}
	}
	return ampmEnd{}, false
}

// zone reads a time zone at token k: glued "Z" or "+05:30", or after a
// space an upper-case abbreviation, optionally with an offset ("UTC+5:30").
// Without stated minutes (loose) only a named zone makes an hour a time.
func (p *parser) zone(k int, loose bool) (int, string, bool) {
	if loose && p.word(k, "z") && p.s[p.t[k].start] == 'Z' && p.boundary(p.t[k].end) {
		return p.t[k].end, "UTC", true
	}
	if loose && p.other(k, "+-") && p.digitsN(k+1, 2, 2) && p.other(k+2, ":") && p.digitsN(k+3, 2, 2) {
		return p.t[k+3].end, p.s[p.t[k].start:p.t[k+3].end], true
	}
	n := p.skip(k)
	if n == k {
		return 0, "", false
	}
	if !p.latin(n) {
		return 0, "", false
	}
	w := p.s[p.t[n].start:p.t[n].end]
	z, ok := zones[w]
	if !ok || w == "Z" {
		return 0, "", false
	}
	end := p.t[n].end
	if p.other(n+1, "+-") && p.digitsN(n+2, 1, 2) {
		end = p.t[n+2].end
		if p.other(n+3, ":") && p.digitsN(n+4, 2, 2) {
			end = p.t[n+4].end
		}
		z = z + p.s[p.t[n+1].start:end]
	}
	if !p.boundary(end) {
		return 0, "", false
	}
	return end, z, true
}
