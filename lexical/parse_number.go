package lexical

import (
	"math"
	"strconv"
)

// Numbers: digits with grouping and decimals, signs, and number words
// ("two hundred").

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
