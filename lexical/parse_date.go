package lexical

// Dates: ISO, numeric, CJK, day-first and month-first forms.

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
