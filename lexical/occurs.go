package lexical

import (
	"strconv"
	"strings"
)

// Occurs reports whether label occurs in text per SPEC §2b. See
// (*Text).Occurs.
func Occurs(label, text string) bool {
	return NewText(text).Occurs(label)
}

// Occurs reports whether label occurs in the text per SPEC §2b.
//
// Every literal of the label must be stated in the text: an Equal literal
// somewhere in it ("5 August 2023" does not occur in a text that says 30 July
// 2023; "70" not in a text without the number 70; "$3.2 billion" occurs in
// "3.2 billion dollars"). The one exception is a number whose digits the
// compact match below finds inside an identifier of the text: "P SLV -C 56"
// occurs in "PSLV-C56". Then the label occurs when one of these holds:
//
//   - compact containment: the label's compact form is a substring of the
//     text's, starting and ending on a word boundary of the text (a removed
//     space or punctuation, a change between letters and digits, a Han/kana/
//     Hangul rune, or either end), so "art" does not occur in "start" nor
//     "70" in "1970" (a deliberate strengthening of SPEC §2b's plain
//     substring, which the token rule's inflection tolerance makes up for);
//   - the label is only literals (and filler words), all stated;
//   - the token rule: at least 80 % of the label's content tokens (its words
//     outside its literals, English stop words out) occur in one sentence of
//     the text. Tokens are compared after NFKC and case folding, with a light
//     inflection tolerance: a token matches one with an "s", "es", "d",
//     "ed", "ing" or "'s" added or removed, the stem kept at three runes or
//     more ("launch" ~ "launched", "satellites" ~ "satellite").
//
// An empty label occurs nowhere.
func (t *Text) Occurs(label string) bool {
	ok, _ := t.occurs(NewLabel(label))
	return ok
}

// OccursLabel is Occurs for a label already parsed.
func (t *Text) OccursLabel(l Label) bool {
	ok, _ := t.occurs(l)
	return ok
}

// Locate returns the first sentence of the text that states both labels
// (an empty label is no constraint), else the first that states b (the
// object: what a triplet adds), else a: the evidence span of a triplet. A label is stated in a sentence that holds one
// of its literals (by value) or at least 80 % of its content tokens.
// ok is false when no sentence states either.
func (t *Text) Locate(a, b string) (sp Span, ok bool) {
	var in [2][]bool
	for k, raw := range [2]string{a, b} {
		if raw == "" {
			continue
		}
		in[k] = t.sentencesOf(NewLabel(raw))
	}
	holds := func(k, i int) bool { return in[k] != nil && in[k][i] }
	for i := range t.spans {
		if (a == "" || holds(0, i)) && (b == "" || holds(1, i)) && (a != "" || b != "") {
			return t.spans[i], true
		}
	}
	for _, k := range [2]int{1, 0} {
		for i := range t.spans {
			if holds(k, i) {
				return t.spans[i], true
			}
		}
	}
	return Span{}, false
}

// Ground checks one triplet (SPEC §2b): its subject and its object must each
// occur (Occurs) in one of texts, which are the texts that count: the source
// text, and for an answer or a reference also the question. The relation is
// not checked. When ok is false, reason names the part and the label and,
// when literals are what is missing, those literals:
//
//	object "5 August 2023, 6:30 AM, 12 UTC" does not occur in the text (date 2023-08-05 not stated; time 12:00 UTC not stated)
func Ground(subject, object string, texts ...string) (ok bool, reason string) {
	ts := make([]*Text, len(texts))
	for i, s := range texts {
		ts[i] = NewText(s)
	}
	return GroundText(subject, object, ts...)
}

// GroundText is Ground over texts already prepared with NewText.
func GroundText(subject, object string, texts ...*Text) (ok bool, reason string) {
	var reasons []string
	for _, part := range [2][2]string{{"subject", subject}, {"object", object}} {
		if r := groundPart(part[0], part[1], texts); r != "" {
			reasons = append(reasons, r)
		}
	}
	return len(reasons) == 0, strings.Join(reasons, "; ")
}

// GroundLabel checks one part of a triplet ("subject" or "object") the way
// Ground does, for a triplet whose other part is not checked (the slot of an
// asked fact): "" when label occurs in one of texts, else the reason.
func GroundLabel(part, label string, texts ...*Text) string { return groundPart(part, label, texts) }

func groundPart(part, label string, texts []*Text) string {
	l := NewLabel(label)
	if l.Compact == "" {
		return part + " " + quote(label) + " is empty"
	}
	where := "the text"
	switch {
	case len(texts) == 0:
		return part + " " + quote(label) + " cannot be grounded: no text"
	case len(texts) > 1:
		where = "any of the " + strconv.Itoa(len(texts)) + " texts"
	}
	// Literals missing from every text.
	var missing []Literal
	for i, t := range texts {
		ok, m := t.occurs(l)
		if ok {
			return ""
		}
		if i == 0 {
			missing = m
			continue
		}
		kept := missing[:0]
		for _, x := range missing {
			if !t.states(x) {
				kept = append(kept, x)
			}
		}
		missing = kept
	}
	r := part + " " + quote(label) + " does not occur in " + where
	if len(missing) > 0 {
		s := make([]string, len(missing))
		for i, x := range missing {
			s[i] = x.String() + " not stated"
		}
		r += " (" + strings.Join(s, "; ") + ")"
	}
	return r
}
