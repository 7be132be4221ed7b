package lexical

// Times of day: clock times, am/pm and time zones.

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
