package lexical_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kgeval/kgeval/lexical"
)

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "573", "1,234.5", "1.234,5", "1 234 567", "$3.2 billion", "US$ 5m", "Rs 500 crore",
		"30 July 2023", "2023-07-30T06:30:00Z", "2023年7月30日", "6.30 pm", "18h30", "12 UTC",
		"573-km", "20 °C", "70 per cent", "two weeks", "PSLV-C56", "P SLV -C 56", "1990's",
		"−3", "30th of July 2023", "30 de julio de 2023", "1,23,45,678", "192.168.1.1",
		"Sunday, 30 July 2023 at 06:30 IST / 01:00 UTC", pslvContext, "\xff\xfe12\x80:30",
		"9999999999999999999999999999999999999999e9 km", "a dozen", "three hundred and five",
	} {
		f.Add(s)
	}
	f.Fuzz(checkParse)
}

// pslvText is prepared once: a Text is safe for concurrent use.
var pslvText = lexical.NewText(pslvContext)

// checkParse is the property FuzzParse checks on one input: Parse gives
// ordered, non-empty, in-range spans on rune boundaries, twice the same;
// nothing else in the package panics on the input.
func checkParse(t *testing.T, s string) {
	lits := lexical.Parse(s)
	end := 0
	for _, l := range lits {
		if l.Start < end || l.End <= l.Start || l.End > len(s) {
			t.Fatalf("Parse(%q): bad span %d..%d after %d: %v", s, l.Start, l.End, end, lits)
		}
		if utf8.ValidString(s) && (!utf8.RuneStart(s[l.Start]) || l.End < len(s) && !utf8.RuneStart(s[l.End])) {
			t.Fatalf("Parse(%q): span %d..%d splits a rune", s, l.Start, l.End)
		}
		end = l.End
	}
	if again := lexical.Parse(s); fmt.Sprint(again) != fmt.Sprint(lits) {
		t.Fatalf("Parse(%q) is not deterministic", s)
	}
	pieces(t, s, lexical.Sentences(s))
	pieces(t, s, lexical.Windows(s, 40))
	if a, b := lexical.Atoms(s), lexical.NewText(s).Atoms(); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("Atoms(%q) = %v, but the prepared text's are %v", s, a, b)
	}
	l := lexical.NewLabel(s)
	lexical.Compare(l, lexical.NewLabel("30 July 2023"))
	lexical.NewText(s).OccursLabel(lexical.NewLabel("PSLV-C56 2023"))
	pslvText.OccursLabel(l)
	lexical.Ground(s, "PSLV-C56", s)
	for _, f := range lexical.Chain(s) {
		for _, p := range []lexical.Phrase{f.Subject, f.Object} {
			if p.Text == "" || p.Span.Start < f.Sentence.Start || p.Span.End > f.Sentence.End || s[p.Span.Start:p.Span.End] != p.Text {
				t.Fatalf("Chain(%q): phrase %q at %v outside its sentence %v", s, p.Text, p.Span, f.Sentence)
			}
		}
		if f.Relation.Text == "" || f.Subject.Span.End > f.Object.Span.Start {
			t.Fatalf("Chain(%q): fact %+v", s, f)
		}
	}
}

// randomLabels makes n entity labels like an extractor's: names, numbers,
// dates, amounts, quantities, mixed.
func randomLabels(n int) []string {
	r := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields("Satish Dhawan Space Centre Indian Research Organisation launch vehicle mission satellite PharmaCann Theodore Wolf Erica vagans Cornish heath Paris Eiffel tower company founded the of in by primary commercial")
	months := strings.Fields("January March July August September December")
	units := strings.Fields("km kg m MW GHz GB years days hours % million billion")
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		switch r.IntN(8) {
		case 0:
			fmt.Fprintf(&b, "%d", 1900+r.IntN(130))
		case 1:
			fmt.Fprintf(&b, "%d %s %d", 1+r.IntN(28), pick(months), 1990+r.IntN(35))
		case 2:
			fmt.Fprintf(&b, "$%d.%d %s", r.IntN(100), r.IntN(10), pick([]string{"million", "billion", "bn"}))
		case 3:
			fmt.Fprintf(&b, "%d %s", r.IntN(10000), pick(units))
		case 4:
			fmt.Fprintf(&b, "%s %s %d", pick(words), pick(words), r.IntN(100))
		case 5:
			fmt.Fprintf(&b, "%s on %s %d, %d at %02d:%02d IST", pick(words), pick(months), 1+r.IntN(28), 2000+r.IntN(25), r.IntN(24), r.IntN(60))
		default:
			for k := 0; k < 1+r.IntN(4); k++ {
				if k > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(pick(words))
			}
		}
		out[i] = b.String()
	}
	return out
}

func BenchmarkParse(b *testing.B) {
	labels := randomLabels(10000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lexical.Parse(labels[i%len(labels)])
	}
}

func BenchmarkNewLabel(b *testing.B) {
	labels := randomLabels(10000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lexical.NewLabel(labels[i%len(labels)])
	}
}

func BenchmarkCompare(b *testing.B) {
	raw := randomLabels(1000)
	labels := make([]lexical.Label, len(raw))
	for i, s := range raw {
		labels[i] = lexical.NewLabel(s)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lexical.Compare(labels[i%len(labels)], labels[(i*7+3)%len(labels)])
	}
}

func BenchmarkOccurs(b *testing.B) {
	raw := randomLabels(1000)
	labels := make([]lexical.Label, len(raw))
	for i, s := range raw {
		labels[i] = lexical.NewLabel(s)
	}
	txt := lexical.NewText(pslvContext)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		txt.OccursLabel(labels[i%len(labels)])
	}
}

func BenchmarkNewText(b *testing.B) {
	for i := 0; i < b.N; i++ {
		lexical.NewText(pslvContext)
	}
}

// BenchmarkAtoms reads the names and values of a passage.
func BenchmarkAtoms(b *testing.B) {
	for i := 0; i < b.N; i++ {
		lexical.Atoms(pslvContext)
	}
}

// BenchmarkBacking checks the atoms of an answer against a prepared passage.
func BenchmarkBacking(b *testing.B) {
	atoms := lexical.Atoms("The PSLV-C56 mission was launched on 30 July 2023 at 06:30 IST from the Satish Dhawan Space Centre in Sriharikota by ISRO, carrying DS-SAR and 6 other satellites.")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, a := range atoms {
			pslvText.Backs(a)
		}
	}
}

// BenchmarkChain reads a passage's triplets by rule (extraction.method rules).
func BenchmarkChain(b *testing.B) {
	for i := 0; i < b.N; i++ {
		lexical.Chain(pslvContext)
	}
}
