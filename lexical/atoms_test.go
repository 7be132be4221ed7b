package lexical

import (
	"strings"
	"testing"
)

// TestAtoms: the names and values a text states, read by rule.
func TestAtoms(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string // "kind:text"
	}{
		{"PharmaCann was founded in 2014 by Theodore Scott.", []string{"name:PharmaCann", "date:2014", "name:Theodore Scott"}},
		{"The Starship rocket: The height is 120 m.", []string{"name:Starship", "quantity:120 m"}},
		// A label ("Answer:") starts a sentence; leading stop words go.
		{"Answer: The PSLV-C56 mission is scheduled for Sunday, 30 July 2023 at 06:30 IST.",
			[]string{"name:PSLV-C56", "date:30 July 2023", "time:06:30 IST"}},
		// A single capitalised word at a sentence start is not a name.
		{"Starship is tall. It has a liftoff mass of 5,000 metric tons.", []string{"quantity:5,000 metric tons"}},
		{"Christopher Nolan directed the film Oppenheimer.", []string{"name:Christopher Nolan", "name:Oppenheimer"}},
		// Question words and pronouns are stop words, not names.
		{"Question: When was it founded? I think Brad Pitt stars in it.", []string{"name:Brad Pitt"}},
		// List markers are layout; "one" is a pronoun.
		{"Steps:\n1. Establishing a fund of $5 million.\n2) Investing in one of the schools.", []string{"money:$5 million"}},
		// Citation markers point at sources.
		{"It was founded in 2014 [1][2]. It has 40 staff [3, 4].", []string{"date:2014", "number:40"}},
		// A number standing in a sentence is a value.
		{"The list has 1. The other has 3 items.", []string{"number:1", "number:3"}},
		{"It surpasses NASA's Space Launch System and Saturn V.", []string{"name:NASA's Space Launch System", "name:Saturn V"}},
		{"Es wurde am 30. Juli 2023 in Berlin gegründet.", []string{"date:30. Juli 2023", "name:Berlin"}},
		// A no-break space joins a name as a space does.
		{"Theodore\u00a0Scott founded it.", []string{"name:Theodore\u00a0Scott"}},
		{"", nil},
		{"no capitals and no numbers here.", nil},
	} {
		var got []string
		for _, a := range Atoms(tc.text) {
			kind := string(a.Kind)
			if a.Kind == AtomLiteral {
				kind = string(a.Literal.Kind)
			}
			if tc.text[a.Span.Start:a.Span.End] != a.Text {
				t.Errorf("%q: atom %q has span %v", tc.text, a.Text, a.Span)
			}
			got = append(got, kind+":"+a.Text)
		}
		if strings.Join(got, " | ") != strings.Join(tc.want, " | ") {
			t.Errorf("Atoms(%q)\n got %q\nwant %q", tc.text, got, tc.want)
		}
	}
}

// TestBacking: a literal is backed by an equal value, a name by the
// occurrence rule; the evidence is the sentence that states it.
func TestBacking(t *testing.T) {
	ctx := NewText("PharmaCann is based in Oak Brook. It was founded in 2014 by Theodore Scott in Illinois.")
	founding := "It was founded in 2014 by Theodore Scott in Illinois."
	for _, tc := range []struct {
		answer string
		backed map[string]bool
	}{
		{"It was founded in 2014 by Theodore Scott.", map[string]bool{"2014": true, "Theodore Scott": true}},
		{"It was founded in 2010 by Theodore Wolf.", map[string]bool{"2010": false, "Theodore Wolf": false}},
		{"It is in Oak Brook, founded in May 2014.", map[string]bool{"Oak Brook": true, "May 2014": false}}, // the text says only 2014
		{"The firm has two founders and fourteen staff.", map[string]bool{"two": false, "fourteen": false}},
	} {
		atoms := Atoms(tc.answer)
		if len(atoms) != len(tc.backed) {
			t.Errorf("%q: atoms %+v, want %d", tc.answer, atoms, len(tc.backed))
			continue
		}
		for _, a := range atoms {
			want, ok := tc.backed[a.Text]
			if !ok {
				t.Errorf("%q: unexpected atom %q", tc.answer, a.Text)
				continue
			}
			sp, got := ctx.Backing(a)
			if got != want || ctx.Backs(a) != want {
				t.Errorf("%q: %q backed %v, want %v", tc.answer, a.Text, got, want)
			}
			if got && a.Text != "Oak Brook" && strings.TrimSpace(ctx.raw[sp.Start:sp.End]) != founding {
				t.Errorf("%q: %q evidence %q, want the founding sentence", tc.answer, a.Text, ctx.raw[sp.Start:sp.End])
			}
		}
	}
	if !NewText(" \n").Empty() || ctx.Empty() {
		t.Error("Empty: white space is empty, a sentence is not")
	}
}
