package lexical_test

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kgeval/kgeval/lexical"
)

// pieces cuts text at the spans, checking they are contiguous and cover it.
func pieces(tb testing.TB, text string, spans []lexical.Span) []string {
	tb.Helper()
	var out []string
	at := 0
	for _, s := range spans {
		if s.Start != at || s.End <= s.Start || s.End > len(text) {
			tb.Fatalf("span %v after %d in %d bytes: not contiguous", s, at, len(text))
		}
		out = append(out, text[s.Start:s.End])
		at = s.End
	}
	if at != len(text) {
		tb.Fatalf("spans end at %d of %d bytes", at, len(text))
	}
	return out
}

func TestSentences(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"One sentence", []string{"One sentence"}},
		{"First one. Second one.", []string{"First one. ", "Second one."}},
		{"Is it? Yes! Fine.", []string{"Is it? ", "Yes! ", "Fine."}},
		{"Dr. Smith met Mr. Jones. They talked.", []string{"Dr. Smith met Mr. Jones. ", "They talked."}},
		{"It grew 3.2 percent in 2010. Then it fell.", []string{"It grew 3.2 percent in 2010. ", "Then it fell."}},
		{"J. R. R. Tolkien wrote it. It sold.", []string{"J. R. R. Tolkien wrote it. ", "It sold."}},
		{"Trade with the U.S. grew, e.g. in steel. Prices fell.", []string{"Trade with the U.S. grew, e.g. in steel. ", "Prices fell."}},
		{"It opened in Jul. 2023 in the city. It closed.", []string{"It opened in Jul. 2023 in the city. ", "It closed."}},
		{"See No. 5 and fig. 3 for details. Done.", []string{"See No. 5 and fig. 3 for details. ", "Done."}},
		{"Visit example.com for more. Thanks.", []string{"Visit example.com for more. ", "Thanks."}},
		{"He said \"Stop.\" Then he left.", []string{"He said \"Stop.\" ", "Then he left."}},
		{"Wait... what? No.", []string{"Wait... what? ", "No."}},
		{"Heading\nFirst line of text. Second.\n\nNew paragraph", []string{"Heading\n", "First line of text. ", "Second.\n\n", "New paragraph"}},
		{"a list:\n- item one\n- item two", []string{"a list:\n", "- item one\n", "- item two"}},
		{"東京は日本の首都です。人口は多い！本当？はい", []string{"東京は日本の首都です。", "人口は多い！", "本当？", "はい"}},
		// "!" and "?" always end a sentence (the splitter decides extraction windows, and so cache keys: it is frozen).
		{"Yahoo! is a company.", []string{"Yahoo! ", "is a company."}},
		{"  Leading space. Next", []string{"  Leading space. ", "Next"}},
	} {
		got := pieces(t, tt.in, lexical.Sentences(tt.in))
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Sentences(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// wikiParagraph is a Wikipedia-style paragraph of about 2,000 characters.
const wikiParagraph = `The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France. It is named after the engineer Gustave Eiffel, whose company designed and built the tower from 1887 to 1889. Locally nicknamed "La dame de fer" (French for "Iron Lady"), it was constructed as the centrepiece of the 1889 World's Fair, and to crown the centennial anniversary of the French Revolution. Although initially criticised by some of France's leading artists and intellectuals for its design, it has since become a global cultural icon of France and one of the most recognisable structures in the world. The tower received 5,889,000 visitors in 2022. The Eiffel Tower is the most visited monument with an entrance fee in the world: 6.91 million people ascended it in 2015. It was designated a monument historique in 1964, and was named part of a UNESCO World Heritage Site ("Paris, Banks of the Seine") in 1991.
The tower is 330 m (1,083 ft) tall, about the same height as an 81-storey building, and the tallest structure in Paris. Its base is square, measuring 125 m (410 ft) on each side. During its construction, the Eiffel Tower surpassed the Washington Monument to become the tallest human-made structure in the world, a title it held for 41 years until the Chrysler Building in New York City was finished in 1930. It was the first structure in the world to surpass both the 200-metre and 300-metre mark in height. Due to the addition of a broadcasting aerial at the top of the tower in 1957, it is now taller than the Chrysler Building by 5.2 m (17 ft). Excluding transmitters, the Eiffel Tower is the second tallest free-standing structure in France after the Millau Viaduct.
The tower has three levels for visitors, with restaurants on the first and second levels. The top level's upper platform is 276 m (906 ft) above the ground, the highest observation deck accessible to the public in the European Union. Tickets can be purchased to ascend by stairs or lift to the first and second levels. The climb from ground level to the first level is over 300 steps, as is the climb from the first level to the second, making the entire ascent a 600 step climb. Although there is a staircase to the top level, it is usually accessible only by lift. On this top, third level is a private apartment built for Gustave Eiffel's private use. He decorated it with furniture by Jean Lachaise and invited friends such as Thomas Edison.`

func TestWindows(t *testing.T) {
	const max = 600
	text := wikiParagraph
	sentEnds := map[int]bool{}
	for _, s := range lexical.Sentences(text) {
		sentEnds[s.End] = true
	}
	if len(sentEnds) < 20 {
		t.Fatalf("only %d sentences in the paragraph", len(sentEnds))
	}
	ws := lexical.Windows(text, max)
	got := pieces(t, text, ws)
	if len(got) < 4 {
		t.Errorf("%d windows over %d characters", len(got), utf8.RuneCountInString(text))
	}
	for i, w := range ws {
		if !sentEnds[w.End] {
			t.Errorf("window %d ends mid-sentence: ...%q", i, text[max0(w.End-30):w.End])
		}
		n := utf8.RuneCountInString(text[w.Start:w.End])
		if n > max {
			t.Errorf("window %d has %d characters", i, n)
		}
		// Greedy: the next sentence would not have fitted.
		if i+1 < len(ws) {
			next := lexical.Sentences(text[ws[i+1].Start:])[0]
			if n+utf8.RuneCountInString(text[ws[i+1].Start:ws[i+1].Start+next.End]) <= max {
				t.Errorf("window %d (%d characters) could have taken the next sentence", i, n)
			}
		}
	}
	if strings.Join(got, "") != text {
		t.Error("windows do not rebuild the text")
	}
}

func max0(n int) int {
	if n < 0 {
		return 0
	}
	return n
}

func TestWindows_Edges(t *testing.T) {
	if w := lexical.Windows("", 600); w != nil {
		t.Errorf("empty text: %v", w)
	}
	text := "Short one. Very " + strings.Repeat("long ", 50) + "sentence. Tail."
	if w := lexical.Windows(text, 0); len(w) != 1 || w[0] != (lexical.Span{Start: 0, End: len(text)}) {
		t.Errorf("maxChars 0: %v", w)
	}
	got := pieces(t, text, lexical.Windows(text, 40))
	want := []string{"Short one. ", "Very " + strings.Repeat("long ", 50) + "sentence. ", "Tail."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("a sentence longer than the window is its own window:\n got %q\nwant %q", got, want)
	}
	// Characters are runes, not bytes.
	cjk := "東京は日本の首都です。人口は多い。"
	if got := lexical.Windows(cjk, 11); len(got) != 2 {
		t.Errorf("windows of 11 runes over two 11-rune sentences: %v", got)
	}
	if got := lexical.Windows(cjk, 22); len(got) != 1 {
		t.Errorf("windows of 22 runes over two 11-rune sentences: %v", got)
	}
}
