package analysis

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// SampleTexts are the texts of one sample, where evidence spans point.
type SampleTexts struct {
	Question, Answer, Reference string
	Contexts                    []string
}

// Text returns the text of a kind (a passage for the contexts; "" when out
// of range).
func (t SampleTexts) Text(kind kgeval.Text, passage int) string {
	switch kind {
	case kgeval.TextQuestion:
		return t.Question
	case kgeval.TextAnswer:
		return t.Answer
	case kgeval.TextReference:
		return t.Reference
	case kgeval.TextContexts:
		if passage >= 0 && passage < len(t.Contexts) {
			return t.Contexts[passage]
		}
	}
	return ""
}

// VerdictLine is one input triplet's verdict with its evidence: the "why"
// behind support, contradiction and slot_coverage (SPEC §4b, §4c).
type VerdictLine struct {
	Pair    string `json:"pair"`
	Node    int    `json:"node"`
	Triplet string `json:"triplet"`
	Asked   bool   `json:"asked,omitempty"`
	// Verdict is the graph's verdict, or, when the graph found nothing and
	// the sentence check decided, the sentence check's followed by
	// SentenceSuffix ("supported (sentence)"); Text is then that raw
	// verdict, and the evidence is the sentence (no triplet).
	Verdict  string `json:"verdict"`
	Text     string `json:"text,omitempty"`
	Conflict bool   `json:"conflict,omitempty"`
	// Model and ModelReason are the model check's verdict (verify: llm).
	Model       string `json:"model,omitempty"`
	ModelReason string `json:"model_reason,omitempty"`
	// Evidence is the context triplet; Source names its text ("contexts
	// passage 2", "reference"); Sentence is the evidence span of that text,
	// with up to ContextChars characters Before and After it.
	Evidence string `json:"evidence,omitempty"`
	// Unfilled marks an unanswered asked fact whose Evidence matched its
	// known end and relation but filled nothing new (it repeats the
	// question, or says the value is unknown) or no value of the literal
	// type asked.
	Unfilled bool `json:"unfilled,omitempty"`
	// Want is an asked fact's answer type ("date"; TripletVerdict.Want);
	// ByType marks an answer whose relation does not match the asked one:
	// its filler is new and of that type (SPEC §4c, typed asked facts).
	Want     string `json:"want,omitempty"`
	ByType   bool   `json:"by_type,omitempty"`
	Source   string `json:"source,omitempty"`
	Before   string `json:"before,omitempty"`
	Sentence string `json:"sentence,omitempty"`
	After    string `json:"after,omitempty"`
}

// ContextChars is how much text VerdictLine shows around an evidence span.
const ContextChars = 160

// SentenceSuffix marks a verdict of the sentence check (VerdictLine.Verdict).
const SentenceSuffix = " (sentence)"

// Outcome is the verdict that stands for the line: the sentence check's
// where the graph found nothing and it decided, else the graph's (one of
// the kgeval Verdict constants).
func (l VerdictLine) Outcome() string {
	if l.Text != "" {
		return l.Text
	}
	return l.Verdict
}

// verdictRank orders lines: the graph's contradictions first, then
// conflicts and the contradictions of the model or the sentence check, then
// what was not found, then the rest.
func verdictRank(l VerdictLine) int {
	switch {
	case l.Verdict == kgeval.VerdictContradicted:
		return 0
	case l.Conflict || l.Model == kgeval.VerdictContradicted || l.Text == kgeval.VerdictContradicted:
		return 1
	case l.Outcome() == kgeval.VerdictNotFound || l.Verdict == kgeval.VerdictUnanswered:
		return 2
	}
	return 3
}

// Triplet renders a triplet as "(subject; relation; object)".
func Triplet(s, r, o string) string { return "(" + s + "; " + r + "; " + o + ")" }

// WhyLines returns the verdict of every input triplet of the sample's pair
// graphs (pairs in order, results by pair name) with its evidence sentence,
// contradictions first. Where the graph found nothing, the sentence check's
// verdict (TripletVerdict.Text) stands, with its sentence as evidence.
func WhyLines(texts SampleTexts, pairs []kgeval.Pair, results map[string]kgeval.KGResult) []VerdictLine {
	var out []VerdictLine
	for _, p := range pairs {
		r, ok := results[p.Name]
		if !ok {
			continue
		}
		sentence := func(l *VerdictLine, e *kgeval.Evidence) {
			l.Source, l.Before, l.Sentence, l.After = evidenceSentence(texts, p, e)
		}
		for _, v := range r.Verdicts {
			l := VerdictLine{Pair: p.Name, Node: v.Node, Triplet: Triplet(v.Subject, v.Relation, v.Object), Asked: v.Asked,
				Verdict: v.Verdict, Conflict: v.Conflict, Model: v.Model, ModelReason: v.ModelReason, Want: v.Want}
			switch {
			case v.Evidence != nil:
				e := v.Evidence
				l.Evidence = Triplet(e.Subject, e.Relation, e.Object)
				l.ByType = e.ByType
				sentence(&l, e)
			case v.Unfilled != nil:
				e := v.Unfilled
				l.Evidence, l.Unfilled = Triplet(e.Subject, e.Relation, e.Object), true
				sentence(&l, e)
			case v.Verdict == kgeval.VerdictNotFound && v.Text != "":
				l.Text, l.Verdict = v.Text, v.Text+SentenceSuffix
				if v.TextEvidence != nil {
					sentence(&l, v.TextEvidence)
				}
			}
			out = append(out, l)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return verdictRank(out[i]) < verdictRank(out[j]) })
	return out
}

// Excerpt cuts text around the byte span [start, end): up to n characters
// before and after it (with "…" where cut), the span itself. An invalid span
// gives ("", "", "").
func Excerpt(text string, start, end, n int) (before, span, after string) {
	if start < 0 || end > len(text) || start >= end {
		return "", "", ""
	}
	for start > 0 && !utf8.RuneStart(text[start]) {
		start--
	}
	for end < len(text) && !utf8.RuneStart(text[end]) {
		end++
	}
	before, span, after = text[:start], strings.TrimSpace(text[start:end]), text[end:]
	if r := []rune(before); len(r) > n {
		before = "…" + string(r[len(r)-n:])
	}
	if r := []rune(after); len(r) > n {
		after = string(r[:n]) + "…"
	}
	return before, span, after
}

// SampleWhy is the why of a stored sample: the pairs (of only, when given)
// that have a score, their results by pair name, and every input triplet's
// verdict line (WhyLines), contradictions first. `kgeval explain` prints
// it and the sample page draws it.
func SampleWhy(d *readmodel.SampleDetail, only []string) (pairs []kgeval.Pair, results map[string]kgeval.KGResult, lines []VerdictLine) {
	results = map[string]kgeval.KGResult{}
	for _, p := range d.Pairs {
		if p.Score == nil || len(only) > 0 && !slices.Contains(only, p.Pair.Name) {
			continue
		}
		pairs = append(pairs, p.Pair)
		results[p.Pair.Name] = p.Score.KGResult
	}
	texts := SampleTexts{Question: d.Question, Answer: d.Answer, Reference: d.Reference, Contexts: d.Contexts}
	return pairs, results, WhyLines(texts, pairs, results)
}

// CheckLine is one rule-read check of a pair, as the sample page draws it:
// a name or value of the input (atom_support) or a typed clause of the
// question (typed_slot_coverage), whether the context side states it, and
// the sentence that does.
type CheckLine struct {
	Pair string `json:"pair"`
	// Metric is metricreg.MetricAtomSupport or metricreg.MetricTypedSlotCoverage.
	Metric string `json:"metric"`
	// Item is the atom or the clause; Type its kind ("name", "date", ...)
	// or the clause's answer type; Value the answering value of a clause.
	Item  string `json:"item"`
	Type  string `json:"type"`
	OK    bool   `json:"ok"`
	Value string `json:"value,omitempty"`
	// Source, Before, Sentence and After as in VerdictLine.
	Source   string `json:"source,omitempty"`
	Before   string `json:"before,omitempty"`
	Sentence string `json:"sentence,omitempty"`
	After    string `json:"after,omitempty"`
}

// CheckLines lists the atom checks and typed asked facts of the pairs, the
// failed ones first within each pair.
func CheckLines(texts SampleTexts, pairs []kgeval.Pair, results map[string]kgeval.KGResult) []CheckLine {
	var out []CheckLine
	for _, p := range pairs {
		r, ok := results[p.Name]
		if !ok {
			continue
		}
		var lines []CheckLine
		add := func(l CheckLine, e *kgeval.Evidence) {
			if e != nil {
				l.Source, l.Before, l.Sentence, l.After = evidenceSentence(texts, p, e)
			}
			lines = append(lines, l)
		}
		for _, a := range r.Atoms {
			add(CheckLine{Pair: p.Name, Metric: metricreg.MetricAtomSupport, Item: a.Text, Type: a.Kind, OK: a.Stated}, a.Evidence)
		}
		for _, c := range r.TypedSlots {
			add(CheckLine{Pair: p.Name, Metric: metricreg.MetricTypedSlotCoverage, Item: c.Clause, Type: c.Want, OK: c.Answered, Value: c.Value}, c.Evidence)
		}
		sort.SliceStable(lines, func(i, j int) bool { return !lines[i].OK && lines[j].OK })
		out = append(out, lines...)
	}
	return out
}

// evidenceSentence names the context text of evidence e of pair p
// (Where: "passage 2", "reference") and cuts its span out of the sample's
// texts with up to ContextChars characters around it (Excerpt).
func evidenceSentence(texts SampleTexts, p kgeval.Pair, e *kgeval.Evidence) (source, before, sentence, after string) {
	source = Where(p.Context, e.Passage)
	before, sentence, after = Excerpt(texts.Text(p.Context, e.Passage), e.Start, e.End, ContextChars)
	return source, before, sentence, after
}
