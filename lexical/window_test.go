package lexical

import (
	"strings"
	"testing"
	"unicode/utf8"
)

const pslv = "The PSLV-C56 is the 58th mission of Indian Space Research Organisation's Polar Satellite Launch Vehicle (PSLV) and the 17th flight of the PSLV-CA variant, and will be get launched from Satish Dhawan Space Centre First Launch Pad ( FLP ).\n\nLaunch\nIt is Scheduled to get launched on Sunday, 30 July 2023 at 06:30 IST / 01:00 UTC from Satish Dhawan Space Centre, Sriharikota, Andhra Pradesh, India. This is a dedicated commercial mission through NSIL with DS-SAR as primary satellite and VELOX-AM as a co-passenger satellite With other 5 Satellites, All satellites from this mission belongs to Singapore."

func texts(text string, spans []Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, strings.TrimSpace(text[s.Start:s.End]))
	}
	return out
}

func checkCover(t *testing.T, text string, spans []Span) {
	t.Helper()
	pos := 0
	for _, s := range spans {
		if s.Start != pos || s.End <= s.Start {
			t.Fatalf("spans %v do not cover %q contiguously at %d", spans, text, pos)
		}
		pos = s.End
	}
	if pos != len(text) {
		t.Fatalf("spans %v end at %d, text has %d bytes", spans, pos, len(text))
	}
}

func TestSentences(t *testing.T) {
	cases := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"One sentence", []string{"One sentence"}},
		{"It costs 3.2 billion. It opened in 2010.", []string{"It costs 3.2 billion.", "It opened in 2010."}},
		{"Dr. Smith met Mr. Jones in the U.S. on Monday. Then he left.", []string{"Dr. Smith met Mr. Jones in the U.S. on Monday.", "Then he left."}},
		{"J. R. R. Tolkien wrote it. Really?  Yes!", []string{"J. R. R. Tolkien wrote it.", "Really?", "Yes!"}},
		{"He said \"stop.\" Then he went.", []string{"He said \"stop.\"", "Then he went."}},
		{"Prices rose, e.g. bread. Fine.", []string{"Prices rose, e.g. bread.", "Fine."}},
		{"Heading\nBody text here. More text.", []string{"Heading", "Body text here.", "More text."}},
		{"东京是首都。大阪很大！", []string{"东京是首都。", "大阪很大！"}},
		{"Version 2.0 was released in Jan. 2020 by Acme Inc. in Berlin.", []string{"Version 2.0 was released in Jan. 2020 by Acme Inc. in Berlin."}},
		{"It ended... then it started again.", []string{"It ended... then it started again."}},
	}
	for _, c := range cases {
		got := Sentences(c.text)
		checkCover(t, c.text, got)
		if g := texts(c.text, got); strings.Join(g, "|") != strings.Join(c.want, "|") {
			t.Errorf("Sentences(%q) = %q, want %q", c.text, g, c.want)
		}
	}
}

func TestWindows(t *testing.T) {
	long := strings.Repeat(pslv+"\n\n", 4)
	for _, max := range []int{0, 100, 300, 600, 10000} {
		ws := Windows(long, max)
		checkCover(t, long, ws)
		if max <= 0 || max >= len(long) {
			if len(ws) != 1 {
				t.Errorf("max %d: %d windows, want 1", max, len(ws))
			}
			continue
		}
		sent := map[int]bool{}
		for _, s := range Sentences(long) {
			sent[s.Start] = true
		}
		for i, w := range ws {
			if !sent[w.Start] {
				t.Errorf("max %d: window %d starts mid-sentence at %d", max, i, w.Start)
			}
			n := utf8.RuneCountInString(strings.TrimSpace(long[w.Start:w.End]))
			// Over the limit only when it is one sentence.
			if n > max && len(Sentences(long[w.Start:w.End])) > 1 {
				t.Errorf("max %d: window %d has %d chars and several sentences", max, i, n)
			}
		}
		// Consecutive windows could not have been merged.
		for i := 1; i < len(ws); i++ {
			if utf8.RuneCountInString(strings.TrimSpace(long[ws[i-1].Start:ws[i].End])) <= max {
				t.Errorf("max %d: windows %d and %d fit together", max, i-1, i)
			}
		}
	}
	if n := len(Windows(pslv, 600)); n != 2 {
		t.Errorf("PSLV passage (%d chars) in 600-char windows: %d windows, want 2", utf8.RuneCountInString(pslv), n)
	}
}

func TestText_Locate(t *testing.T) {
	x := NewText(pslv)
	sentence := func(sp Span) string { return strings.TrimSpace(pslv[sp.Start:sp.End]) }
	cases := []struct {
		a, b, want string
	}{
		{"PSLV-C56", "30 July 2023", "It is Scheduled to get launched on Sunday, 30 July 2023 at 06:30 IST / 01:00 UTC from Satish Dhawan Space Centre, Sriharikota, Andhra Pradesh, India."},
		{"VELOX-AM", "co-passenger satellite", "This is a dedicated commercial mission through NSIL with DS-SAR as primary satellite and VELOX-AM as a co-passenger satellite With other 5 Satellites, All satellites from this mission belongs to Singapore."},
		{"PSLV-C56", "17th flight of the PSLV-CA variant", "The PSLV-C56 is the 58th mission of Indian Space Research Organisation's Polar Satellite Launch Vehicle (PSLV) and the 17th flight of the PSLV-CA variant, and will be get launched from Satish Dhawan Space Centre First Launch Pad ( FLP )."},
		{"", "Singapore", "This is a dedicated commercial mission through NSIL with DS-SAR as primary satellite and VELOX-AM as a co-passenger satellite With other 5 Satellites, All satellites from this mission belongs to Singapore."},
	}
	for _, c := range cases {
		sp, ok := x.Locate(c.a, c.b)
		if !ok || sentence(sp) != c.want {
			t.Errorf("Locate(%q, %q) = %q, %v; want %q", c.a, c.b, sentence(sp), ok, c.want)
		}
	}
	if _, ok := x.Locate("Mars rover", "5 August 2023"); ok {
		t.Errorf("Locate found a sentence for labels the text does not state")
	}
}

func TestText_Contradiction(t *testing.T) {
	x := NewText("PharmaCann is a cannabis company. PharmaCann was founded in 2010 by Theodore Wolf. It opened 5 stores in 2014.")
	cases := []struct {
		known, claim string
		want         string // the sentence, "" for none
	}{
		{"PharmaCann", "2014", ""}, // 2014 is stated
		{"PharmaCann", "2012", "PharmaCann was founded in 2010 by Theodore Wolf."},
		{"PharmaCann", "Theodore Scott", ""}, // names are no literals
		{"Acme", "2012", ""},                 // Acme is not stated
		{"PharmaCann", "$3 million", ""},     // no money in the text
		{"Theodore Wolf", "founded in 2011", "PharmaCann was founded in 2010 by Theodore Wolf."},
	}
	for _, c := range cases {
		m, ok := x.Contradiction(c.known, c.claim)
		if ok != (c.want != "") || ok && m.Text != c.want {
			t.Errorf("Contradiction(%q, %q) = %q, %v; want %q", c.known, c.claim, m.Text, ok, c.want)
		}
	}
}

func TestNonAnswer(t *testing.T) {
	for label, want := range map[string]bool{
		"unknown": true, "currently unknown": true, "have not been provided": true, "Not available.": true,
		"no information": true, "N/A": true, "is not known at this time": true,
		"Threatened – Nationally Critical": false, "2001": false, "known for its rich history": false,
		"unknown soldier memorial in the city centre": false, "Shen Tong": false, "": false,
		"the schedule date and time is not provided": true,
	} {
		if got := NonAnswer(label); got != want {
			t.Errorf("NonAnswer(%q) = %v, want %v", label, got, want)
		}
	}
}

func TestSharesWord(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"completion", "was completed in", true},
		{"expansion over the years", "expanded", false}, // "expans" / "expand": no shared root
		{"expanded in", "has been expanded", true},
		{"founded in", "was founded by", true},
		{"is located in", "location", true},
		{"has capital", "is the capital of", true},
		{"was born in", "died in", false},
		{"is in", "is a", false}, // stop words never count
		{"director of", "directed", false},
	} {
		if got := SharesWord(NewLabel(c.a), NewLabel(c.b)); got != c.want {
			t.Errorf("SharesWord(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// A text that says only the year does not state a full date of that year
// (it agrees with it, which is another thing): occurrence, sentence evidence
// and contradictions all need the day where the label gives one.
func TestText_DatePrecision(t *testing.T) {
	x := NewText("The 2022 Hormozgan earthquakes were a pair of doublet earthquakes that struck southern Iran on 1 July, 2022.")
	if x.Occurs("April 5, 2022") {
		t.Errorf("April 5, 2022 occurs in a text that says 2022 and 1 July 2022")
	}
	if !x.Occurs("1 July 2022") || !x.Occurs("July 2022") || !x.Occurs("2022") {
		t.Errorf("the dates the text states at their precision must occur")
	}
	if m, ok := x.Contradiction("The 2022 Hormozgan earthquakes", "April 5, 2022"); !ok || !strings.Contains(m.Text, "1 July, 2022") {
		t.Errorf("Contradiction = %q, %v; want the sentence that says 1 July 2022", m.Text, ok)
	}
}
