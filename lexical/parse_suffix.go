package lexical

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What follows a number: ordinal and decade suffixes, scales, percent,
// currencies and units (quantities and money), matched as suffix patterns.

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
