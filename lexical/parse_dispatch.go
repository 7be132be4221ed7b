package lexical

// The parser's entry points per token kind (atOther: a currency symbol;
// atWord: a currency word, a month, a number word; atDigit: a date, a time
// or a number), and amounts of money after a currency.

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
