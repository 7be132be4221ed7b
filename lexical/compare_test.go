package lexical_test

import (
	"testing"

	"github.com/kgeval/kgeval/lexical"
)

// one parses s and returns its only literal.
func one(tb testing.TB, s string) lexical.Literal {
	tb.Helper()
	l := lexical.Parse(s)
	if len(l) != 1 {
		tb.Fatalf("Parse(%q) = %v, want one literal", s, l)
	}
	return l[0]
}

func TestEqual(t *testing.T) {
	for _, tt := range []struct {
		a, b            string
		equal, compared bool
	}{
		{"2010", "2014", false, true},
		{"1948", "1950", false, true},
		{"2010", "2010", true, true},
		{"July 2023", "30 July 2023", true, true},
		{"2023", "30 July 2023", true, true},
		{"5 August 2023", "30 July 2023", false, true},
		{"30 July", "30 July 2023", true, true},
		{"30 July", "2023", false, false},
		{"1995", "1990s", true, true},
		{"2001", "1990s", false, true},
		{"1990s", "1990's", true, true},
		{"2023-07-30", "30/07/2023", true, true},
		{"2023年7月30日", "30 juillet 2023", true, true},
		{"$3.2 billion", "$4.8 billion", false, true},
		{"$3.2 billion", "3.2 billion dollars", true, true},
		{"$3.2 billion", "USD 3,200 million", true, true},
		{"$5", "€5", false, false},
		{"Rs 500 crore", "₹5 billion", true, true},
		{"573-km", "600 km", false, true},
		{"573-km", "573 km", true, true},
		{"573 km", "573,000 m", true, true},
		{"10 miles", "16.09344 km", true, true},
		{"5 kg", "5 km", false, false},
		{"20 °C", "68 °F", false, false},
		{"5 litres", "0.005 m³", true, true},
		{"1 year", "12 months", true, true},
		{"1 year", "365 days", true, true},
		{"1 year", "52 weeks", true, true},
		{"100 days", "101 days", false, true},
		{"2 hrs", "120 minutes", true, true},
		{"70%", "70 per cent", true, true},
		{"70%", "0.7 percentage points", false, false},
		{"70%", "71%", false, true},
		{"06:30 IST", "06:30", true, true},
		{"06:30 IST", "01:00 UTC", false, false},
		{"6:30 PM", "18:30", true, true},
		{"01:00 UTC", "01:00 GMT", true, true},
		{"06:30", "07:30", false, true},
		{"17th", "17", true, true},
		{"1,234", "1234.0", true, true},
		{"twelve", "a dozen", true, true},
		{"1948", "1,948", true, true}, // a bare year and the same plain number
		{"1948", "1,950", false, false},
		{"2010", "$2010", false, false},
		{"70", "70%", false, false},
	} {
		eq, cmp := lexical.Equal(one(t, tt.a), one(t, tt.b))
		if eq != tt.equal || cmp != tt.compared {
			t.Errorf("Equal(%q, %q) = %v, %v; want %v, %v", tt.a, tt.b, eq, cmp, tt.equal, tt.compared)
		}
		eq2, cmp2 := lexical.Equal(one(t, tt.b), one(t, tt.a))
		if eq2 != eq || cmp2 != cmp {
			t.Errorf("Equal is not symmetric on %q, %q", tt.a, tt.b)
		}
	}
}

func TestCompare(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want lexical.Verdict
	}{
		// the pairs cosine gets wrong (package comment)
		{"2010", "2014", lexical.Conflict},
		{"1948", "1950", lexical.Conflict},
		{"5 August 2023", "30 July 2023", lexical.Conflict},
		{"$3.2 billion", "$4.8 billion", lexical.Conflict},
		{"573-km", "600 km", lexical.Conflict},
		{"PharmaCann", "Pharma Cann", lexical.Same},
		// agreement
		{"573-km", "573 km", lexical.Same},
		{"July 2023", "30 July 2023", lexical.Same},
		{"$3.2 billion", "3.2 billion dollars", lexical.Same},
		{"2010", "2010.", lexical.Same}, // identical keys
		{"Sunday, 30 July 2023 at 06:30 IST", "30 July 2023", lexical.Same},
		{"about 70%", "70 per cent", lexical.Same},
		{"2010-2014", "2014", lexical.Same},
		{"launched on 30 July 2023", "30 July 2023", lexical.TextOnly},
		{"17th flight", "17th flight of PSLV", lexical.TextOnly},
		// text and literals
		{"founded in 2010 by Theodore Wolf", "2014 by Theodore Scott", lexical.Conflict},
		{"Boeing 737", "Boeing 747", lexical.Conflict},
		{"Apollo 11", "Apollo 12", lexical.Conflict},
		{"06:30 IST / 01:00 UTC", "06:30", lexical.Same},
		{"launch at 06:30 IST", "launch at 01:00 UTC", lexical.Undecided},
		// different kinds only: cosine decides
		{"2010", "$3.2 billion", lexical.Undecided},
		{"70", "70 percent", lexical.Undecided},
		{"70", "70%", lexical.Same},   // kgeval.Key trims the "%": one key
		{"-5", "5", lexical.Conflict}, // one key, but conflicting values
		// no literals
		{"Theodore Wolf", "Theodore Scott", lexical.Undecided},
		{"CO", "CA", lexical.Undecided},
		{"P SLV -C 56", "PSLV-C56", lexical.Same},
		{"Organisation", "Organization", lexical.Same},
		{"Satellite", "Satellites", lexical.Same},
		{"Sriharikota", "Andhra Pradesh", lexical.Undecided},
		{"COVID-19", "COVID-20", lexical.Undecided}, // digits differ: not a spelling variant
	} {
		got := lexical.Compare(lexical.NewLabel(tt.a), lexical.NewLabel(tt.b))
		if got != tt.want {
			t.Errorf("Compare(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if back := lexical.Compare(lexical.NewLabel(tt.b), lexical.NewLabel(tt.a)); back != got {
			t.Errorf("Compare(%q, %q) = %v, but reversed %v", tt.a, tt.b, got, back)
		}
	}
}

func TestMatch(t *testing.T) {
	const tau = 0.7
	for _, tt := range []struct {
		a, b   string
		cos    float64
		ok     bool
		weight float64
	}{
		// cosine never overrides a conflict...
		{"2010", "2014", 0.799, false, 0},
		{"5 August 2023", "30 July 2023", 0.862, false, 0},
		{"$3.2 billion", "$4.8 billion", 0.9, false, 0},
		{"573-km", "600 km", 0.8, false, 0},
		{"1948", "1950", 0.95, false, 0},
		// ...nor an agreement
		{"573-km", "573 km", 0.5, true, 1},
		{"July 2023", "30 July 2023", 0.3, true, 1},
		{"PharmaCann", "Pharma Cann", 0.667, true, 1},
		{"Erica vagans", "erica vagans", 0.2, true, 1},
		// text parts: cosine, or near-identical text
		{"launched on 30 July 2023", "30 July 2023", 0.75, true, 0.75},
		{"launched on 30 July 2023", "30 July 2023", 0.6, false, 0},
		{"PharmaCann founded in 2010", "Pharma Cann founded 2010", 0.5, true, 1},
		// undecided: cosine and tau
		{"Theodore Wolf", "Theodore Scott", 0.72, true, 0.72},
		{"Theodore Wolf", "Theodore Scott", 0.69, false, 0},
		{"2010", "$3.2 billion", 0.3, false, 0},
		{"2010", "$3.2 billion", 0.71, true, 0.71},
		{"CO", "CA", 0.5, false, 0},
	} {
		ok, w := lexical.Match(lexical.NewLabel(tt.a), lexical.NewLabel(tt.b), tt.cos, tau)
		if ok != tt.ok || w != tt.weight {
			t.Errorf("Match(%q, %q, cos %.3f) = %v, %v; want %v, %v", tt.a, tt.b, tt.cos, ok, w, tt.ok, tt.weight)
		}
	}
}

func TestSimilar(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want float64
	}{
		{"PharmaCann", "Pharma Cann", 1},
		{"P SLV -C 56", "PSLV-C56", 1},
		{"", "", 1},
		{"abcd", "", 0},
		{"kitten", "sitting", 1 - 3.0/7},
		{"Theodore Wolf", "theodore wolf", 1},
		{"Straße", "STRASSE", 1},
	} {
		if got := lexical.Similar(tt.a, tt.b); got < tt.want-1e-12 || got > tt.want+1e-12 {
			t.Errorf("Similar(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestNearIdentical(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"PharmaCann", "Pharma Cann", true},
		{"Organisation", "Organization", true},            // 1 edit in 12
		{"Colour", "Color", false},                        // 1 edit in 6 is 0.83
		{"CO", "CA", false},                               // too short
		{"C-O", "CO", false},                              // too short even when identical
		{"Apollo 11 mission", "Apollo 12 mission", false}, // digits differ
		{"Theodore Wolf", "Theodore Scott", false},
	} {
		if got := lexical.NearIdentical(lexical.NewLabel(tt.a), lexical.NewLabel(tt.b)); got != tt.want {
			t.Errorf("NearIdentical(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestNewLabel(t *testing.T) {
	l := lexical.NewLabel("Sunday, 30 July 2023 at 06:30 IST")
	if l.Key != "sunday, 30 july 2023 at 06:30 ist" || l.Compact != "sunday30july2023at0630ist" || l.Text != "sunday, at" || len(l.Literals) != 2 || !l.IsLiteral() {
		t.Errorf("%+v", l)
	}
	l = lexical.NewLabel("P SLV -C 56")
	if l.Compact != "pslvc56" || l.Text != "p slv -c" {
		t.Errorf("%+v", l)
	}
	if l := lexical.NewLabel("PSLV-C56"); l.IsLiteral() || l.Text != l.Key {
		t.Errorf("%+v", l)
	}
	if l := lexical.NewLabel("$3.2 billion"); l.Text != "" || !l.IsLiteral() {
		t.Errorf("%+v", l)
	}
}

// TestSimilar_Band checks the banded edit distance against known distances.
func TestSimilar_Band(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		dist int
	}{
		{"abcdefghij", "abcdefghij", 0},
		{"abcdefghij", "abcdefghik", 1},
		{"abcdefghij", "bcdefghija", 2},
		{"abcdefghijklmnopqrst", "tsrqponmlkjihgfedcba", 20},
		{"saturday", "sunday", 3},
		{"flaw", "lawn", 2},
	} {
		n := max(len(tt.a), len(tt.b))
		want := 1 - float64(tt.dist)/float64(n)
		if got := lexical.Similar(tt.a, tt.b); got < want-1e-12 || got > want+1e-12 {
			t.Errorf("Similar(%q, %q) = %v, want %v (distance %d)", tt.a, tt.b, got, want, tt.dist)
		}
	}
	// NearIdentical uses a band of a tenth of the length.
	a := lexical.NewLabel("abcdefghijklmnopqrst")
	for _, tt := range []struct {
		b    string
		want bool
	}{
		{"abcdefghijklmnopqrsx", true},  // 1 edit in 20
		{"abxdefghijklmnopqrsx", true},  // 2 edits in 20
		{"abxdefghijxlmnopqrsx", false}, // 3 edits in 20
		{"bcdefghijklmnopqrstu", true},  // shifted by one: 2 edits
		{"cdefghijklmnopqrstuv", false}, // shifted by two: 4 edits
	} {
		if got := lexical.NearIdentical(a, lexical.NewLabel(tt.b)); got != tt.want {
			t.Errorf("NearIdentical(%q, %q) = %v, want %v", a.Raw, tt.b, got, tt.want)
		}
	}
}
