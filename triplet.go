package kgeval

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Triplet is one (subject, relation, object) fact extracted from a text.
type Triplet struct {
	Subject  string `json:"subject"`
	Relation string `json:"relation"`
	Object   string `json:"object"`
	// Passage is the index of the context passage the triplet came from, or
	// -1 / 0 when the text is not a context passage.
	Passage int `json:"passage,omitempty"`
	// Start and End are the byte span, in its text (its passage for the
	// contexts), of the window the triplet was extracted from (SPEC §2b);
	// both 0 when unknown (pre-extracted triplets).
	Start int `json:"start,omitempty"`
	End   int `json:"end,omitempty"`
	// Source is SourceRules for a triplet read by rule (extraction.method
	// rules or both); empty for the model's and a dataset's own.
	Source string `json:"source,omitempty"`
}

// SourceRules marks a triplet, and its relation node, read by rule
// (lexical.Chain) rather than extracted by the model.
const SourceRules = "rules"

// Slot is the unknown part of an asked fact (SPEC §4c): the question
// "When was X completed?" asks (X, completed in, ?).
const Slot = "?"

// IsSlot reports whether a label is the slot of an asked fact.
func IsSlot(label string) bool { return strings.TrimSpace(label) == Slot }

// Text is the triplet as one string, "subject relation object" (SPEC §5).
func (t Triplet) Text() string { return t.Subject + " " + t.Relation + " " + t.Object }

// Key returns the label key of s (SPEC §2): Unicode NFKC, lower-case,
// whitespace collapsed, surrounding punctuation trimmed. Entities with the
// same key on one side of a pair graph are one node.
func Key(s string) string {
	s = norm.NFKC.String(s)
	s = strings.ToLower(s)
	s = strings.Join(strings.Fields(s), " ")
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
}

// CleanTriplets trims the three fields, drops triplets with an empty field
// (the slot "?" of an asked fact is kept on one end, not on both),
// caps each field at maxChars runes (0: no cap) and drops duplicates (same
// three keys). It returns the kept triplets and how many were dropped.
func CleanTriplets(in []Triplet, maxChars int) (out []Triplet, dropped int) {
	seen := make(map[[3]string]bool, len(in))
	out = make([]Triplet, 0, len(in))
	for _, t := range in {
		t.Subject = capRunes(strings.TrimSpace(t.Subject), maxChars)
		t.Relation = capRunes(strings.TrimSpace(t.Relation), maxChars)
		t.Object = capRunes(strings.TrimSpace(t.Object), maxChars)
		k := [3]string{slotKey(t.Subject), Key(t.Relation), slotKey(t.Object)}
		if k[0] == "" || k[1] == "" || k[2] == "" || (k[0] == Slot && k[2] == Slot) || seen[k] {
			dropped++
			continue
		}
		seen[k] = true
		out = append(out, t)
	}
	return out, dropped
}

// slotKey is Key, except that the slot "?" keeps its key "?".
func slotKey(s string) string {
	if IsSlot(s) {
		return Slot
	}
	return Key(s)
}

func capRunes(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n]))
}

// DroppedTriplet is an extracted triplet that failed the grounding check
// (SPEC §2b): its subject or object does not occur in its text.
type DroppedTriplet struct {
	Triplet
	Reason string `json:"reason"`
}

// Grounding is the outcome of the grounding check for one text of a sample
// (the contexts: one passage).
type Grounding struct {
	Sample  string           `json:"sample"`
	Text    Text             `json:"text"`
	Passage int              `json:"passage"`
	Kept    int              `json:"kept"`
	Dropped []DroppedTriplet `json:"dropped,omitempty"`
}

// Grounding modes (extraction.grounding).
const (
	GroundingDrop = "drop" // ungrounded triplets are left out of every graph and metric
	GroundingKeep = "keep" // checked and reported, but used
	GroundingOff  = "off"  // not checked
)
