package lexical

import (
	"fmt"
	"strings"
	"testing"
)

// TestAsked: the typed clauses of a question and their answer types.
func TestAsked(t *testing.T) {
	for _, tc := range []struct {
		q    string
		want string // "type:clause | ..."
	}{
		{"When was PharmaCann founded and what is its headquarters location?", "date:When was PharmaCann founded | place:and what is its headquarters location?"},
		{"Who directed the film Oppenheimer and who stars as J. Robert Oppenheimer in the film?", "person:Who directed the film Oppenheimer | person:and who stars as J. Robert Oppenheimer in the film?"},
		{"How many people were killed and injured in the earthquake, and what was its maximum intensity?", "count:How many people were killed and injured in the earthquake"},
		{"How long did the siege last, and what was the outcome?", "duration:How long did the siege last"},
		{"Where is Mount Brown located and what is its elevation?", "place:Where is Mount Brown located | measure:and what is its elevation?"},
		{"What is the objective of the project and how is it expected to enhance trade?", ""},
		{"Why did the company fail?", ""},
		{"In which country was she born, and how tall is she?", "place:In which country was she born | measure:, and how tall is she?"},
		{"Whose painting sold, and what was its price?", "person:Whose painting sold | count:, and what was its price?"},
		{"", ""},
	} {
		var got []string
		for _, a := range Asked(tc.q) {
			if tc.q[a.Span.Start:a.Span.End] == "" || !strings.Contains(tc.q[a.Span.Start:a.Span.End], a.Clause) {
				t.Errorf("%q: clause %q outside its span %v", tc.q, a.Clause, a.Span)
			}
			got = append(got, fmt.Sprintf("%s:%s", a.Want, a.Clause))
		}
		if strings.Join(got, " | ") != tc.want {
			t.Errorf("Asked(%q)\n got %q\nwant %q", tc.q, strings.Join(got, " | "), tc.want)
		}
	}
}

// TestAnswers: a typed clause is answered by a value of its type that the
// question does not state, in a sentence about the question.
func TestAnswers(t *testing.T) {
	q := NewText("When was PharmaCann founded and what is its headquarters location?")
	asks := Asked("When was PharmaCann founded and what is its headquarters location?")
	for _, tc := range []struct {
		answer string
		want   [2]string // value answering each ask, "" for none
	}{
		// The place comes from the sentence about headquarters, not the
		// founder's name in the sentence before.
		{"PharmaCann was founded in 2014 by Theodore Scott. Its headquarters is located in the state of Illinois.", [2]string{"2014", "Illinois"}},
		// Without a sentence about the clause, one about the question does.
		{"PharmaCann was founded in 2014 by Theodore Scott.", [2]string{"2014", "Theodore Scott"}},
		{"PharmaCann was founded in 2014.", [2]string{"2014", ""}},
		// The question's own name answers nothing.
		{"The date of PharmaCann's founding is not known.", [2]string{"", ""}},
		// A date in a sentence about something else answers nothing.
		{"Cannabis was legalised in 2018 in Canada.", [2]string{"", ""}},
		{"Its headquarters are in Oak Brook, Illinois.", [2]string{"", "Oak Brook"}},
	} {
		a := NewText(tc.answer)
		for i, ask := range asks {
			at, sp, ok := a.Answers(ask, q)
			got := ""
			if ok {
				got = at.Text
				if !strings.Contains(tc.answer[sp.Start:sp.End], at.Text) {
					t.Errorf("%q: evidence %q does not hold %q", tc.answer, tc.answer[sp.Start:sp.End], at.Text)
				}
			}
			if got != tc.want[i] {
				t.Errorf("%q answers %q with %q, want %q", tc.answer, ask.Clause, got, tc.want[i])
			}
		}
	}
	for _, w := range []AnswerType{WantDate, WantPlace, WantPerson, WantCount, WantDuration, WantMeasure} {
		if w.Fits(Atom{}) {
			t.Errorf("%s fits an empty atom", w)
		}
	}
}

// TestWantOf: the answer type an asked fact's relation names.
func TestWantOf(t *testing.T) {
	for rel, want := range map[string]AnswerType{
		"mission date":                    WantDate,
		"launch date and time":            WantDate,
		"official premier year":           WantDate,
		"location":                        WantPlace,
		"headquarters":                    WantPlace,
		"world premiere theater location": WantPlace,
		"country or state where located":  WantPlace,
		"launch site":                     WantPlace,
		"team participants number":        WantCount,
		"number of people":                WantCount,
		"length in months or weeks":       WantDuration,
		"duration":                        WantDuration,
		"elevation":                       WantMeasure,
		"height and speed compared to":    WantMeasure,
		"founder":                         WantPerson,
		"director":                        WantPerson,
		"author of":                       WantPerson,
		"inventor":                        WantPerson,
		"creator":                         WantPerson, // each person noun is its own cue
		"creator of the series":           WantPerson,
		"who directed":                    WantPerson,
		"objective":                       "",
		"conservation status":             "",
		"how?":                            "",
		"capabilities":                    "",
		"taxonomic relationship with":     "",
		"":                                "",
		"Datum":                           "", // a word that holds "date" is not the word
		"became the head of the Catholic Church and sovereign of the Vatican City State": "", // a name's words are no cue
		"Location": WantPlace,
	} {
		if got := WantOf(rel); got != want {
			t.Errorf("WantOf(%q) = %q, want %q", rel, got, want)
		}
	}
}

// TestFitsOf: the answer types an entity label is a value of.
func TestFitsOf(t *testing.T) {
	for label, want := range map[string]string{
		"in 1896":                           "date duration",
		"Sunday, 30 July 2023 at 06:30 IST": "date duration",
		"the state of Illinois":             "place person",
		"Illinois":                          "place person",
		"Theodore Scott":                    "place person",
		"2,121 meters":                      "count duration measure",
		"seven":                             "count measure",
		"two weeks":                         "duration",
		"a leading pharmaceutical company":  "",
		"popular hiking destination":        "",
		"":                                  "",
	} {
		if got := strings.Join(FitsOf(label), " "); got != want {
			t.Errorf("FitsOf(%q) = %q, want %q", label, got, want)
		}
	}
}
