package lexical

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestChain: facts read by rule, phrase by phrase, with no model.
func TestChain(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string // "subject | relation | object"
	}{
		{"PharmaCann was founded in 2014 by Theodore Scott.",
			[]string{"PharmaCann | was | founded", "founded | in | 2014", "2014 | by | Theodore Scott"}},
		// A field label opening the text is not content; times, dates,
		// money and identifiers stay whole.
		{"Answer: The PSLV-C56 mission is scheduled for 30/07/2023 at 06:30 IST.",
			[]string{"PSLV-C56 mission | is | scheduled", "scheduled | for | 30/07/2023", "30/07/2023 | at | 06:30 IST"}},
		{"It costs $3.2 billion, about 70% of 1,000 units.",
			[]string{"costs $3.2 billion | about | 70%", "70% | of | 1,000 units"}},
		// Punctuation splits phrases (read as "and"); a sentence with one
		// phrase, or none, gives no fact; sentences do not chain.
		{"Fremantle, Western Australia. Done. It is.",
			[]string{"Fremantle | and | Western Australia"}},
		{"O'Connor's plant (in Perth) opened.",
			[]string{"O'Connor's plant | in | Perth", "Perth | and | opened"}},
		{"Scientists know it from the type locality: 1389 meters above sea level.",
			[]string{"Scientists know | it from the | type locality", "type locality | and | 1389 meters above sea level"}},
		{"", nil},
		{"it is the one of them", []string{}},
	} {
		got := []string{}
		for _, f := range Chain(tc.text) {
			for _, p := range []Phrase{f.Subject, f.Object} {
				if tc.text[p.Span.Start:p.Span.End] != p.Text {
					t.Errorf("%q: phrase %q has span %v", tc.text, p.Text, p.Span)
				}
			}
			if f.Sentence.Start > f.Subject.Span.Start || f.Object.Span.End > f.Sentence.End {
				t.Errorf("%q: fact %v outside its sentence %v", tc.text, f, f.Sentence)
			}
			got = append(got, f.Subject.Text+" | "+f.Relation.Text+" | "+f.Object.Text)
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("Chain(%q)\n got %q\nwant %q", tc.text, got, tc.want)
		}
	}
}

// TestChain_Grounded: every fact the rules read is grounded in its text
// (SPEC §2b), on real passages.
func TestChain_Grounded(t *testing.T) {
	for _, text := range []string{
		"Fremantle Octopus is an Australian octopus fishery business based in Fremantle, Western Australia. It was founded by former rock lobster fishermen Ros and Craig Cammilleri.The company catches and processes Octopus djinda.",
		"PSLV-C56 is the 58th mission of Indian Space Research Organisation's Polar Satellite Launch Vehicle (PSLV). Scheduled to get launched on Sunday, 30 July 2023 at 06:30 IST / 01:00 UTC.",
		"Es wurde am 30. Juli 2023 in Berlin gegründet; die Kosten: 1.234,5 €.",
	} {
		fs := Chain(text)
		if len(fs) == 0 {
			t.Errorf("no fact read from %q", text)
		}
		for _, f := range fs {
			if ok, reason := Ground(f.Subject.Text, f.Object.Text, text); !ok {
				t.Errorf("fact %q | %q not grounded: %s", f.Subject.Text, f.Object.Text, reason)
			}
		}
	}
}

// TestPhrases_Values: signs, degrees and joined digits stay with their
// value, so that the grounding check finds the value the text states.
func TestPhrases_Values(t *testing.T) {
	for text, want := range map[string]string{
		"temperatures can drop below −10 °F with wind chill": "temperatures | drop below −10 °F | wind chill",
		"a loss of -5% (−3 points) in 2023":                  "loss | -5% | −3 points | 2023",
		"the A-10 and x-ray crews":                           "A-10 | x-ray crews",
		"prices – 30 dollars":                                "prices | 30 dollars",
		"born in the late evening of 7 May 1897":             "born | late evening | 7 May 1897",
		"apprehended at approximately 6:30 p.m. on Monday":   "apprehended | approximately 6:30 p.m. | Monday",
		"C57BL/6J mice and/or rats":                          "C57BL/6J mice and/or rats",
		"၂၀၂၁-၂၀၂၃ မြန်မာ":                                   "၂၀၂၁ | ၂၀၂၃ မြန်မာ", // a range: two years
	} {
		var got []string
		for _, p := range Phrases(text, Span{0, len(text)}) {
			got = append(got, p.Text)
		}
		if strings.Join(got, " | ") != want {
			t.Errorf("Phrases(%q) = %q, want %q", text, strings.Join(got, " | "), want)
		}
		for _, p := range Phrases(text, Span{0, len(text)}) {
			if !Occurs(p.Text, text) {
				t.Errorf("phrase %q of %q does not occur in it", p.Text, text)
			}
		}
	}
}

// TestChain_GroundedOnWikiEval: on every distinct answer, reference and
// passage of WikiEval-50, every fact the rules read passes the grounding
// check (SPEC §2b), literals by value.
func TestChain_GroundedOnWikiEval(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "testdata", "wikieval50.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	seen := map[string]bool{}
	facts := 0
	for sc.Scan() {
		var r struct {
			Answer, Reference string
			Contexts          []string
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		for _, text := range append([]string{r.Answer, r.Reference}, r.Contexts...) {
			if seen[text] {
				continue
			}
			seen[text] = true
			prepared := NewText(text)
			for _, fa := range Chain(text) {
				facts++
				if ok, why := GroundText(fa.Subject.Text, fa.Object.Text, prepared); !ok {
					t.Errorf("(%q, %q, %q) not grounded: %s", fa.Subject.Text, fa.Relation.Text, fa.Object.Text, why)
				}
			}
		}
	}
	if facts < 1000 {
		t.Errorf("%d facts read from %d texts", facts, len(seen))
	}
}

// TestWordTrigrams checks the claim's trigrams (stop words kept, case
// folded; a short text as one gram) and that a text holds the ones it
// words the same way, whatever sentence or case they are in.
func TestWordTrigrams(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want []string
	}{
		{"The tower was NOT completed.", []string{"the tower was", "tower was not", "was not completed"}},
		{"Completed 1889", []string{"completed 1889"}},
		{"tower", []string{"tower"}},
		{" ... ", nil},
	} {
		if got := WordTrigrams(tc.s); !slices.Equal(got, tc.want) {
			t.Errorf("WordTrigrams(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
	text := NewText("Paris is the capital. The tower was completed in 1889.")
	for g, want := range map[string]bool{"the tower was": true, "tower was completed": true, "completed 1889": false, "completed in": true,
		"tower": true, "tower was not": false, "capital the tower": true} {
		if text.HasGram(g) != want {
			t.Errorf("HasGram(%q) = %v, want %v", g, !want, want)
		}
	}
}
