package lexical_test

import (
	"testing"

	"github.com/kgeval/kgeval/lexical"
)

// pslvContext is a real retrieved context of a WikiEval-style sample.
const pslvContext = "The PSLV-C56 is the 58th mission of Indian Space Research Organisation's Polar Satellite Launch Vehicle (PSLV) and the 17th flight of the PSLV-CA variant, and will be get launched from Satish Dhawan Space Centre First Launch Pad ( FLP ).\n\nLaunch\nIt is Scheduled to get launched on Sunday, 30 July 2023 at 06:30 IST / 01:00 UTC from Satish Dhawan Space Centre, Sriharikota, Andhra Pradesh, India. This is a dedicated commercial mission through NSIL with DS-SAR as primary satellite and VELOX-AM as a co-passenger satellite With other 5 Satellites, All satellites from this mission belongs to Singapore."

func TestOccurs(t *testing.T) {
	for _, tt := range []struct {
		label, text string
		want        bool
	}{
		// compact containment
		{"P SLV -C 56", pslvContext, true},
		{"PSLV-C56", pslvContext, true},
		{"pslv c56", pslvContext, true},
		{"Satish Dhawan Space Centre", pslvContext, true},
		{"Indian Space Research Organisation", pslvContext, true},
		{"58th mission of Indian Space Research Organisation's Polar Satellite Launch Vehicle", pslvContext, true},
		{"PSLV-CA", pslvContext, true},
		{"PSLV-C5", pslvContext, false}, // the match would end inside "56"
		{"art", "a start", false},       // not on a word boundary
		{"Pharma Cann", "PharmaCann opened a store.", true},
		// token rule: 80 % of the content words in one sentence
		{"PSLV-C56 launch", pslvContext, true},             // pslv, c56, launch~launched
		{"launch of DS-SAR satellite", pslvContext, false}, // ds, sar, satellite in one sentence, launched in another: 75 %
		{"Singapore satellites", pslvContext, true},
		{"Sriharikota Andhra Pradesh launch site", pslvContext, true}, // 4 of 5 words: 80 %
		{"Sriharikota Andhra launch site", pslvContext, false},        // 3 of 4 words: 75 %
		{"DS-SAR primary satellite", pslvContext, true},
		{"Singapore India", pslvContext, false}, // in two different sentences
		{"the", pslvContext, true},              // compact containment only
		// literals must be stated
		{"30 July 2023", pslvContext, true},
		{"July 2023", pslvContext, true},
		{"2023", pslvContext, true},
		{"Sunday, 30 July 2023 at 06:30 IST", pslvContext, true},
		{"30/07/2023", pslvContext, true},
		{"5 August 2023", pslvContext, false},
		{"5 August 2023, 6:30 AM, 12 UTC", pslvContext, false},
		{"06:30", pslvContext, true},
		{"70", pslvContext, false},
		{"58", pslvContext, true},
		{"17th flight", pslvContext, true},
		{"18th flight", pslvContext, false},
		{"five satellites", pslvContext, true},
		{"$3.2 billion", "The deal was worth 3.2 billion dollars.", true},
		{"$3.2 billion", "The deal was worth $3.2bn.", true},
		{"$32 billion", "The deal was worth $3.2 billion.", false},
		{"founded in 2010", "PharmaCann was founded in 2014.", false},
		{"1948", "He was born in 1950.", false},
		{"", pslvContext, false},
		{"PSLV", "", false},
	} {
		if got := lexical.Occurs(tt.label, tt.text); got != tt.want {
			t.Errorf("Occurs(%q, %.40q...) = %v, want %v", tt.label, tt.text, got, tt.want)
		}
	}
}

func TestText_Reuse(t *testing.T) {
	txt := lexical.NewText(pslvContext)
	for _, label := range []string{"PSLV-C56", "70", "PSLV-C56", "Singapore"} {
		if txt.Occurs(label) != lexical.Occurs(label, pslvContext) {
			t.Errorf("(*Text).Occurs(%q) differs from Occurs", label)
		}
		if txt.OccursLabel(lexical.NewLabel(label)) != txt.Occurs(label) {
			t.Errorf("OccursLabel(%q) differs from Occurs", label)
		}
	}
}

func TestGround(t *testing.T) {
	for _, tt := range []struct {
		subject, object string
		texts           []string
		ok              bool
		reason          string
	}{
		{"PSLV-C56 launch", "5 August 2023, 6:30 AM, 12 UTC", []string{pslvContext}, false,
			`object "5 August 2023, 6:30 AM, 12 UTC" does not occur in the text (date 2023-08-05 not stated; time 12:00 UTC not stated)`},
		{"P SLV -C 56", "70", []string{pslvContext}, false,
			`object "70" does not occur in the text (number 70 not stated)`},
		{"PSLV-C56", "Satish Dhawan Space Centre", []string{pslvContext}, true, ""},
		{"PSLV-C56", "58th mission of Indian Space Research Organisation's Polar Satellite Launch Vehicle", []string{pslvContext}, true, ""},
		{"PSLV-C56", "Sunday, 30 July 2023 at 06:30 IST", []string{pslvContext}, true, ""},
		{"GSLV-F12", "Sriharikota", []string{pslvContext}, false,
			`subject "GSLV-F12" does not occur in the text`},
		{"GSLV-F12", "9 May 2023", []string{pslvContext}, false,
			`subject "GSLV-F12" does not occur in the text; object "9 May 2023" does not occur in the text (date 2023-05-09 not stated)`},
		// An answer is grounded in the answer or in the question.
		{"Erica vagans", "Cornish heath", []string{"It is also called Cornish heath.", "What is another name for Erica vagans?"}, true, ""},
		{"Erica vagans", "1753", []string{"It is also called Cornish heath.", "What is another name for Erica vagans?"}, false,
			`object "1753" does not occur in any of the 2 texts (date 1753 not stated)`},
		{"PSLV-C56", "", []string{pslvContext}, false, `object "" is empty`},
		{"PSLV-C56", "India", nil, false, `subject "PSLV-C56" cannot be grounded: no text; object "India" cannot be grounded: no text`},
	} {
		ok, reason := lexical.Ground(tt.subject, tt.object, tt.texts...)
		if ok != tt.ok || reason != tt.reason {
			t.Errorf("Ground(%q, %q) = %v, %q\nwant %v, %q", tt.subject, tt.object, ok, reason, tt.ok, tt.reason)
		}
		texts := make([]*lexical.Text, len(tt.texts))
		for i, s := range tt.texts {
			texts[i] = lexical.NewText(s)
		}
		if ok2, reason2 := lexical.GroundText(tt.subject, tt.object, texts...); ok2 != ok || reason2 != reason {
			t.Errorf("GroundText(%q, %q) = %v, %q; Ground gave %v, %q", tt.subject, tt.object, ok2, reason2, ok, reason)
		}
	}
}
