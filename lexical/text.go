package lexical

import (
	"math"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/kgeval/kgeval"
	"golang.org/x/text/unicode/norm"
)

// Text is a passage prepared for Occurs: its compact form, sentences, tokens
// and literals are computed once, since one passage is checked against
// dozens of labels. A Text is read-only after NewText and safe for
// concurrent use.
type Text struct {
	raw      string
	compact  string
	brk      []bool // per compact byte: something was removed before it
	ident    []bool // per compact byte: a digit of an identifier ("56" of "PSLV-C56")
	literals []Literal
	// tokens maps each token of the text, and each token with a suffix
	// stripped (see stem), to the sentences holding it, in order.
	tokens    map[string][]int32
	sentences int
	spans     []Span // the sentences
	atoms     []Atom // Atoms of raw, read on first use (Text.Atoms)
	atomsOnce sync.Once
	pairs     map[string]bool // WordPairs of raw, read on first use (Text.HasPair)
	pairsOnce sync.Once
	grams     map[string]bool // word 1- to 3-grams of raw, read on first use (Text.HasGram)
	gramsOnce sync.Once
}

// NewText prepares text for Occurs.
func NewText(text string) *Text {
	var p parser
	if text != "" {
		p.parse(text)
	}
	t := &Text{raw: text, literals: p.out, tokens: map[string][]int32{}}
	f := compactOf(text, true)
	t.compact, t.brk = f.s, f.brk
	t.ident = make([]bool, len(f.s))
	k := 0
	for i, r := range f.raw {
		for k < len(p.ids) && p.ids[k].End <= int(r) {
			k++
		}
		t.ident[i] = k < len(p.ids) && p.ids[k].Start <= int(r)
	}
	t.spans = Sentences(text)
	for si, s := range t.spans {
		t.sentences++
		for _, tok := range tokensOf(text[s.Start:s.End]) {
			t.add(tok, int32(si))
			for _, st := range stems(tok) {
				t.add(st, int32(si))
			}
		}
	}
	return t
}

func (t *Text) add(tok string, s int32) {
	l := t.tokens[tok]
	if len(l) > 0 && l[len(l)-1] == s {
		return
	}
	t.tokens[tok] = append(l, s)
}

// suffixes stripped for the light plural and inflection tolerance of the
// token rule: "satellites" ~ "satellite", "launched" ~ "launch" ~ "launches".
var inflections = []string{"'s", "ing", "ed", "es", "s", "d"}

// stems are tok with one inflection removed, keeping at least three runes.
func stems(tok string) []string {
	var out []string
	for _, suf := range inflections {
		if strings.HasSuffix(tok, suf) && utf8.RuneCountInString(tok)-len(suf) >= 3 {
			out = append(out, tok[:len(tok)-len(suf)])
		}
	}
	return out
}

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

// Label is a parsed entity label, computed once per label and reused: the
// scorer compares every pair of labels of a pair graph, so everything that
// depends on one label alone is done here.
type Label struct {
	Raw string
	// Key is kgeval.Key(Raw): NFKC, lower case, white space collapsed,
	// surrounding punctuation trimmed.
	Key string
	// Compact is the key with white space, hyphens and punctuation removed
	// (and case-folded, ß as ss): "P SLV -C 56" and "PSLV-C56" are both
	// "pslvc56". Symbols such as $ and ° stay.
	Compact string
	// Literals are Parse(Raw).
	Literals []Literal
	// Text is the key of Raw with the literals cut out ("" when the label is
	// only literals): "sunday, at" for "Sunday, 30 July 2023 at 06:30 IST".
	Text string

	compact []rune   // Compact as runes
	digits  string   // the digits of Compact, in order
	text    []rune   // compact form of Text
	content bool     // Text holds a word that is not filler
	tokens  []string // content tokens of Text (stop words out), for Occurs
	litc    []Span   // span of each literal in Compact
}

// NewLabel parses raw once.
func NewLabel(raw string) Label {
	f := compactOf(raw, true)
	l := Label{Raw: raw, Literals: Parse(raw), Key: kgeval.Key(raw)}
	l.Compact = f.s
	l.compact = []rune(f.s)
	var d []byte
	for i := 0; i < len(f.s); i++ {
		if '0' <= f.s[i] && f.s[i] <= '9' {
			d = append(d, f.s[i])
		}
	}
	l.digits = string(d)
	text := raw
	if len(l.Literals) > 0 {
		b := []byte(raw)
		l.litc = make([]Span, len(l.Literals))
		for i, lit := range l.Literals {
			for k := lit.Start; k < lit.End; k++ {
				b[k] = ' '
			}
			l.litc[i] = Span{compactIndex(f.raw, lit.Start), compactIndex(f.raw, lit.End)}
		}
		text = string(b)
		l.Text = kgeval.Key(text)
	} else {
		l.Text = l.Key
	}
	l.text = []rune(compactOf(l.Text, false).s)
	seen := map[string]bool{}
	for _, t := range tokensOf(l.Text) {
		if !fillerWords[t] && !stopWords[t] {
			l.content = true
		}
		if !stopWords[t] && !seen[t] {
			seen[t] = true
			l.tokens = append(l.tokens, t)
		}
	}
	return l
}

// compactIndex is the first byte of the compact form that comes from source
// byte b or later.
func compactIndex(raw []int32, b int) int {
	return sort.Search(len(raw), func(i int) bool { return int(raw[i]) >= b })
}

// IsLiteral reports whether the label holds at least one literal.
func (l Label) IsLiteral() bool { return len(l.Literals) > 0 }

// occurs returns, when the label does not occur, the literals it states
// that the text does not.
func (t *Text) occurs(l Label) (bool, []Literal) {
	if l.Compact == "" {
		return false, nil
	}
	var missing []int
	for i, x := range l.Literals {
		if !t.states(x) {
			missing = append(missing, i)
		}
	}
	if t.contains(l, missing) {
		return true, nil
	}
	if len(missing) > 0 {
		out := make([]Literal, len(missing))
		for k, i := range missing {
			out[k] = l.Literals[i]
		}
		return false, out
	}
	if len(l.Literals) > 0 && !l.content {
		return true, nil // only literals (and filler), all stated
	}
	if len(l.tokens) == 0 {
		return false, nil
	}
	return t.tokenRule(l.tokens), nil
}

// states reports whether the text holds a literal Equal to x.
func (t *Text) states(x Literal) bool {
	for _, y := range t.literals {
		if eq, _ := Equal(x, y); eq && asPrecise(y, x) {
			return true
		}
	}
	return false
}

// asPrecise reports whether text literal y states at least what label
// literal x states: "2022" agrees with "April 5, 2022" (Equal: dates at the
// precision both state), but a text that says only 2022 does not state
// April 5, 2022.
func asPrecise(y, x Literal) bool {
	if x.Kind != KindDate || y.Kind != KindDate {
		return true
	}
	return (x.Month == 0 || y.Month != 0) && (x.Day == 0 || y.Day != 0) && (x.Decade || !y.Decade)
}

// Equal reports whether two literals of the same kind have the same
// canonical value.
//
//   - Dates compare at the precision both state: July 2023 == 30 July 2023,
//     2010 != 2014, 1995 is within the 1990s. With no field stated on both
//     sides (2023 vs 30 July) they are not comparable.
//   - Money needs the same currency when both state one (the parser always
//     states one, so in practice: same currency).
//   - Quantities compare in base units with a relative tolerance of 1e-6;
//     different units (km vs kg, °C vs °F) are not comparable; litres and
//     cubic metres convert.
//   - Durations compare in seconds with a relative tolerance of 1e-6, and of
//     0.5 % when both are at least four weeks long: calendar units are
//     approximate (365 days, 52 weeks, 12 months and 1 year all agree).
//   - Times compare in seconds since midnight when they are in the same zone
//     or a zone is missing on one side; different zones are not comparable
//     (no conversion: "06:30 IST" and "01:00 UTC" neither agree nor conflict).
//   - Percentages and percentage points are not comparable with each other.
//   - Numbers compare with a relative tolerance of 1e-9.
//
// Different kinds are not comparable, with one exception: a bare year and a
// plain number with the same integer value are Equal (the parser cannot tell
// "1500 employees" from a year; "1,500" is a number), and with different
// values they are not comparable rather than in conflict.
func Equal(a, b Literal) (equal, comparable bool) {
	if a.Kind != b.Kind {
		if a.Kind == KindNumber {
			a, b = b, a
		}
		if a.Kind == KindDate && b.Kind == KindNumber && a.Year != 0 && a.Month == 0 && !a.Decade {
			if float64(a.Year) == b.Value {
				return true, true
			}
		}
		return false, false
	}
	switch a.Kind {
	case KindDate:
		return dateEqual(a, b)
	case KindTime:
		if a.Zone != "" && b.Zone != "" && a.Zone != b.Zone {
			return false, false
		}
		return a.Value == b.Value, true
	case KindMoney:
		if a.Unit != "" && b.Unit != "" && a.Unit != b.Unit {
			return false, false
		}
		return near(a.Value, b.Value, 1e-9), true
	case KindQuantity:
		va, vb := a.Value, b.Value
		switch {
		case a.Unit == b.Unit:
		case a.Unit == "l" && b.Unit == "m3":
			va /= 1000
		case a.Unit == "m3" && b.Unit == "l":
			vb /= 1000
		default:
			return false, false
		}
		return near(va, vb, 1e-6), true
	case KindPercent:
		if a.Unit != b.Unit {
			return false, false
		}
		return near(a.Value, b.Value, 1e-9), true
	case KindDuration:
		const month = 28 * 86400
		if math.Abs(a.Value) >= month && math.Abs(b.Value) >= month {
			return near(a.Value, b.Value, 0.005), true
		}
		return near(a.Value, b.Value, 1e-6), true
	}
	return near(a.Value, b.Value, 1e-9), true
}

func dateEqual(a, b Literal) (equal, comparable bool) {
	common, eq := false, true
	if a.Year != 0 && b.Year != 0 {
		common = true
		switch {
		case a.Decade && b.Decade:
			eq = a.Year == b.Year
		case a.Decade:
			eq = b.Year >= a.Year && b.Year <= a.Year+9
		case b.Decade:
			eq = a.Year >= b.Year && a.Year <= b.Year+9
		default:
			eq = a.Year == b.Year
		}
	}
	if a.Month != 0 && b.Month != 0 {
		common = true
		eq = eq && a.Month == b.Month
	}
	if a.Day != 0 && b.Day != 0 {
		common = true
		eq = eq && a.Day == b.Day
	}
	if !common {
		return false, false
	}
	return eq, true
}

func near(a, b, tol float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b))
}

// contains is compact containment on word boundaries; the label's missing
// literals must fall on digits of identifiers of the text.
func (t *Text) contains(l Label, missing []int) bool {
	c := l.Compact
	for from := 0; from <= len(t.compact)-len(c); {
		k := strings.Index(t.compact[from:], c)
		if k < 0 {
			return false
		}
		p := from + k
		from = p + 1
		if !t.boundary(p) || !t.boundary(p+len(c)) {
			continue
		}
		ok := true
		for _, i := range missing {
			sp := l.litc[i]
			for b := p + sp.Start; b < p+sp.End && ok; b++ {
				ok = t.ident[b]
			}
			ok = ok && sp.End > sp.Start
		}
		if ok {
			return true
		}
	}
	return false
}

// boundary reports whether a word boundary of the text falls before compact
// byte b.
func (t *Text) boundary(b int) bool {
	if b <= 0 || b >= len(t.compact) {
		return true
	}
	if t.brk[b] {
		return true
	}
	if !utf8.RuneStart(t.compact[b]) {
		return false
	}
	r1, _ := utf8.DecodeLastRuneInString(t.compact[:b])
	r2, _ := utf8.DecodeRuneInString(t.compact[b:])
	if isCJK(r1) || isCJK(r2) {
		return true
	}
	return class(r1) != class(r2)
}

func class(r rune) int {
	switch {
	case unicode.IsDigit(r):
		return 1
	case unicode.IsLetter(r) || unicode.IsMark(r):
		return 2
	}
	return 3
}

// tokenRule: at least 80 % of the tokens in one sentence.
func (t *Text) tokenRule(tokens []string) bool {
	counts := make([]int, t.sentences)
	need := (4*len(tokens) + 4) / 5 // ceil(0.8 n)
	for _, tok := range tokens {
		seen := map[int32]bool{}
		forms := append([]string{tok}, stems(tok)...)
		for _, f := range forms {
			for _, s := range t.tokens[f] {
				if !seen[s] {
					seen[s] = true
					counts[s]++
					if counts[s] >= need {
						return true
					}
				}
			}
		}
	}
	return false
}

// Mention is a sentence of a text that states a triplet's subject or
// object: Both when it states the two, else ObjectOnly or neither (the
// subject only).
type Mention struct {
	Span       Span
	Text       string
	Both       bool
	ObjectOnly bool
}

// Mentions returns the sentences of the text that state label a or b (see
// Locate), best first: both, then b, then a; in text order within each.
func (t *Text) Mentions(a, b string) []Mention {
	var in [2][]bool
	for k, raw := range [2]string{a, b} {
		if raw != "" {
			in[k] = t.sentencesOf(NewLabel(raw))
		}
	}
	holds := func(k, i int) bool { return in[k] != nil && in[k][i] }
	var both, obj, subj []Mention
	for i, sp := range t.spans {
		m := Mention{Span: sp, Text: strings.TrimSpace(t.raw[sp.Start:sp.End])}
		switch {
		case holds(0, i) && holds(1, i):
			m.Both = true
			both = append(both, m)
		case holds(1, i):
			m.ObjectOnly = true
			obj = append(obj, m)
		case holds(0, i):
			subj = append(subj, m)
		}
	}
	return append(append(both, obj...), subj...)
}

// Contradiction finds a sentence of the text that states label known and
// holds a literal of the same kind as a literal of claim with another value,
// while the text states that literal of claim nowhere: the text says
// "founded in 2010" where the claim says 2014 (SPEC §3b, at sentence level).
// ok is false when claim holds no literal, when all its literals are stated,
// or when no such sentence exists.
func (t *Text) Contradiction(known, claim string) (m Mention, ok bool) {
	c := NewLabel(claim)
	var missing []Literal
	for _, x := range c.Literals {
		if !t.states(x) {
			missing = append(missing, x)
		}
	}
	if len(missing) == 0 || known == "" {
		return Mention{}, false
	}
	in := t.sentencesOf(NewLabel(known))
	for _, y := range t.literals {
		i := t.sentenceAt(y.Start)
		if i < 0 || !in[i] {
			continue
		}
		for _, x := range missing {
			if eq, comparable := Equal(x, y); comparable && !eq {
				sp := t.spans[i]
				return Mention{Span: sp, Text: strings.TrimSpace(t.raw[sp.Start:sp.End])}, true
			}
		}
	}
	return Mention{}, false
}

// sentencesOf marks the sentences that state label l (see Locate).
func (t *Text) sentencesOf(l Label) []bool {
	out := make([]bool, len(t.spans))
	for _, x := range l.Literals {
		for _, y := range t.literals {
			if eq, _ := Equal(x, y); eq && asPrecise(y, x) {
				if i := t.sentenceAt(y.Start); i >= 0 {
					out[i] = true
				}
			}
		}
	}
	if len(l.tokens) > 0 {
		counts := make([]int, len(t.spans))
		need := (4*len(l.tokens) + 4) / 5
		for _, tok := range l.tokens {
			seen := map[int32]bool{}
			for _, f := range append([]string{tok}, stems(tok)...) {
				for _, s := range t.tokens[f] {
					if !seen[s] {
						seen[s] = true
						counts[s]++
					}
				}
			}
		}
		for i, c := range counts {
			if c >= need {
				out[i] = true
			}
		}
	}
	return out
}

// sentenceAt returns the sentence holding byte b (-1: none).
func (t *Text) sentenceAt(b int) int {
	for i, s := range t.spans {
		if b >= s.Start && b < s.End {
			return i
		}
	}
	return -1
}

// SaysUnknown reports whether a text holds a non-answer phrase anywhere
// ("The taxonomy of X is currently unknown.").
func SaysUnknown(text string) bool {
	k := " " + strings.Join(strings.FieldsFunc(normFold(text), func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '/')
	}), " ") + " "
	for _, p := range nonAnswers {
		if strings.Contains(k, " "+p+" ") {
			return true
		}
	}
	return false
}

// Verdict of comparing two labels lexically, before any cosine.
type Verdict int

// The verdicts of Compare.
const (
	// Undecided: no literal evidence either way and not a spelling variant;
	// the caller decides by cosine >= tau.
	Undecided Verdict = iota
	// Same: identical keys, equal literals, or spelling variants; a match
	// with weight 1.
	Same
	// Conflict: a literal of one contradicts a literal of the same kind in
	// the other; never a match, whatever the cosine.
	Conflict
	// TextOnly: no literal contradicts and at least one agrees, but a text
	// part beyond the literals must still match: by cosine of the whole
	// labels, or by near-identical text parts.
	TextOnly
)

// String names the verdict: "undecided", "same", "conflict", "text-only".
func (v Verdict) String() string {
	switch v {
	case Same:
		return "same"
	case Conflict:
		return "conflict"
	case TextOnly:
		return "text-only"
	}
	return "undecided"
}

// Compare applies SPEC §3b's lexical rules, in this order (its cost grows
// with the product of the two labels' literal counts, which is small for
// labels capped at a few hundred characters):
//
//  1. Conflict when, for some kind, the two labels hold comparable literals
//     of that kind and no pair of them is Equal: "2010" vs "2014", "573-km"
//     vs "600 km", "founded in 2010 by Theodore Wolf" vs "2014 by Theodore
//     Scott". One agreeing pair settles a kind: "06:30 IST / 01:00 UTC" vs
//     "06:30" does not conflict. Literals that are not comparable (other
//     kind, currency, unit or zone) are no evidence either way. This comes
//     before key identity because kgeval.Key trims surrounding punctuation:
//     "-5" and "5" have one key but conflict.
//  2. Identical non-empty keys: Same. "70%" and "70" have one key (the "%"
//     is trimmed), so they are Same, as they are one node of a side.
//  3. Spelling variants (NearIdentical): Same. "PharmaCann" / "Pharma Cann";
//     "P SLV -C 56" / "PSLV-C56".
//  4. No agreeing literal: Undecided (the caller uses cosine). This includes
//     two labels whose literals are of different kinds only ("2010" vs
//     "$3.2 billion"): the parser cannot always tell a year from a count or
//     a bare number from an amount whose unit was dropped, so cosine decides.
//  5. Some literal agrees and neither label has a text part beyond filler
//     words (a weekday, "at", "on", "about", ...): Same when all the
//     literals of one label are Equal to literals of the other ("July 2023"
//     / "30 July 2023"; "573-km" / "573 km"; "Sunday, 30 July 2023 at 06:30
//     IST" / "30 July 2023": the time is extra but contradicts nothing);
//     otherwise Undecided.
//  6. Some literal agrees and a label has a text part: TextOnly ("launched on
//     30 July 2023" / "30 July 2023").
func Compare(a, b Label) Verdict {
	agree, conflict := evidence(a.Literals, b.Literals)
	if conflict {
		return Conflict
	}
	if a.Key != "" && a.Key == b.Key {
		return Same
	}
	if NearIdentical(a, b) {
		return Same
	}
	if !agree {
		return Undecided
	}
	if !a.content && !b.content {
		if covers(a.Literals, b.Literals) || covers(b.Literals, a.Literals) {
			return Same
		}
		return Undecided
	}
	return TextOnly
}

// evidence compares every literal of a with every literal of b: agree when
// some pair is Equal; conflict when some kind has comparable pairs and none
// of them Equal.
func evidence(a, b []Literal) (agree, conflict bool) {
	if len(a) == 0 || len(b) == 0 {
		return false, false
	}
	var eqKinds, neKinds uint8
	for _, x := range a {
		for _, y := range b {
			eq, cmp := Equal(x, y)
			switch {
			case eq:
				eqKinds |= kindBit(x.Kind) | kindBit(y.Kind)
			case cmp:
				neKinds |= kindBit(x.Kind)
			}
		}
	}
	return eqKinds != 0, neKinds&^eqKinds != 0
}

func kindBit(k Kind) uint8 {
	switch k {
	case KindNumber:
		return 1
	case KindDate:
		return 2
	case KindTime:
		return 4
	case KindDuration:
		return 8
	case KindPercent:
		return 16
	case KindMoney:
		return 32
	case KindQuantity:
		return 64
	}
	return 128
}

// covers reports whether every literal of a has an Equal literal in b.
func covers(a, b []Literal) bool {
	for _, x := range a {
		found := false
		for _, y := range b {
			if eq, _ := Equal(x, y); eq {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return len(a) > 0
}

// Match is the full SPEC §3b rule given the cosine of the two labels'
// embeddings: whether they match, and the weight of the match.
//
//   - Same: a match of weight 1, whatever the cosine.
//   - Conflict: no match, whatever the cosine (literal-only labels of the same
//     kind that are not Equal never match).
//   - TextOnly: a match of weight cos when cos >= tau; else a match of weight
//     1 when both labels have text parts and those are spelling variants.
//   - Undecided: a match of weight cos when cos >= tau. Literal-only labels of
//     different kinds only (a year vs a money amount) are Undecided, so they
//     match only when cos >= tau.
//
// When there is no match the weight is 0.
func Match(a, b Label, cos, tau float64) (ok bool, weight float64) {
	switch Compare(a, b) {
	case Same:
		return true, 1
	case Conflict:
		return false, 0
	case TextOnly:
		if cos >= tau {
			return true, cos
		}
		if a.content && b.content && nearRunes(a.text, b.text) {
			return true, 1
		}
		return false, 0
	}
	if cos >= tau {
		return true, cos
	}
	return false, 0
}

// Similar is a normalised string similarity in [0, 1] over the compact forms
// of a and b: 1 - Levenshtein(a, b) / max(len(a), len(b)), in runes; 1 for two
// empty strings. Levenshtein rather than Jaro-Winkler because Jaro-Winkler
// adds a bonus for a shared prefix, which different names of one family or
// series share ("Theodore Wolf" / "Theodore Scott"), while the variants this
// is for (spacing, hyphens, punctuation) are already identical after
// compaction. It is written here (a banded dynamic programme, a few lines)
// rather than imported.
func Similar(a, b string) float64 {
	ra := []rune(compactOf(a, false).s)
	rb := []rune(compactOf(b, false).s)
	m := max(len(ra), len(rb))
	if m == 0 {
		return 1
	}
	return 1 - float64(levenshtein(ra, rb, m))/float64(m)
}

// NearIdentical reports whether two labels are spelling variants: Similar of
// their compact keys >= 0.9, both at least 4 runes long ("CO" and "CA" are
// not variants), and the same digits in the same order ("Apollo 11" and
// "Apollo 12" are not variants, whatever their similarity).
func NearIdentical(a, b Label) bool {
	return a.digits == b.digits && nearRunes(a.compact, b.compact)
}

func nearRunes(a, b []rune) bool {
	if len(a) < 4 || len(b) < 4 {
		return false
	}
	m := max(len(a), len(b))
	k := m / 10 // Similar >= 0.9  <=>  distance*10 <= m
	if len(a)-len(b) > k || len(b)-len(a) > k {
		return false
	}
	return levenshtein(a, b, k) <= k
}

// levenshtein is the edit distance of a and b when it is at most k, else
// k+1. Only the band of cells within k of the diagonal is computed, so the
// cost is O(len·k).
func levenshtein(a, b []rune, k int) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	inf := k + 1
	if len(a)-len(b) > k {
		return inf
	}
	prev := make([]int, len(b)+2)
	cur := make([]int, len(b)+2)
	for j := 0; j <= len(b); j++ {
		prev[j] = min(j, inf)
	}
	prev[len(b)+1] = inf
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		low := inf
		if lo == 1 {
			cur[0] = min(i, inf)
			low = cur[0]
		} else {
			cur[lo-1] = inf
		}
		for j := lo; j <= hi; j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c = 1 + min(c, prev[j], cur[j-1])
			}
			c = min(c, inf)
			cur[j] = c
			low = min(low, c)
		}
		cur[hi+1] = inf
		if low >= inf {
			return inf
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// quote is a label as quoted text, for reasons.
func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// derivations are the suffixes SharesWord strips: inflections and the
// commonest derivations of a verb ("completed" / "completion",
// "expanded" / "expansion" share no inflected form but one stem).
var derivations = []string{"ations", "ation", "ions", "ion", "ments", "ment", "ings", "ing", "ers", "er", "ed", "es", "s", "e"}

// root is a token with one derivational suffix removed, keeping at least
// five characters; the token itself when none applies.
func root(tok string) string {
	for _, suf := range derivations {
		if strings.HasSuffix(tok, suf) && utf8.RuneCountInString(tok)-utf8.RuneCountInString(suf) >= 5 {
			return tok[:len(tok)-len(suf)]
		}
	}
	return tok
}

// SharesWord reports whether two relation labels share a content word up to
// its inflection or derivation ("was completed in" / "completion",
// "expanded" / "expansion over the years"): the same predicate in other
// words, which a small model's relation phrases often are and a sentence
// encoder does not always see (cos("completion", "completed") is below 0.6
// with all-MiniLM-L6-v2). Stop words never count.
func SharesWord(a, b Label) bool {
	roots := map[string]bool{}
	for _, t := range a.tokens {
		if utf8.RuneCountInString(t) >= 5 {
			roots[root(t)] = true
		}
	}
	for _, t := range b.tokens {
		if utf8.RuneCountInString(t) >= 5 && roots[root(t)] {
			return true
		}
	}
	return false
}
