package lexical_test

import (
	"reflect"
	"testing"

	"github.com/kgeval/kgeval/lexical"
)

func TestClaims(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"sentences", "The Eiffel Tower is in Paris. It was completed in 1889.", []string{"The Eiffel Tower is in Paris.", "It was completed in 1889."}},
		{"citations removed", "Good organisation is instrumental in managing expectations [3]. Stakeholders should be involved [1, 2].",
			[]string{"Good organisation is instrumental in managing expectations.", "Stakeholders should be involved."}},
		{"semicolon clause", "The first launch failed in 2019; the second one reached orbit in 2020.",
			[]string{"The first launch failed in 2019", "the second one reached orbit in 2020."}},
		{"while clause", "The north tower was finished in 1970, while the south tower opened in 1971.",
			[]string{"The north tower was finished in 1970", "the south tower opened in 1971."}},
		{"short side stays", "Yes; the tower was completed in 1889.", []string{"Yes; the tower was completed in 1889."}},
		{"and is not cut", "The company sells tea, and coffee beans from Kenya and Brazil.", []string{"The company sells tea, and coffee beans from Kenya and Brazil."}},
		{"heading is no claim", "Answer:\nThe tower is 330 m tall.", []string{"The tower is 330 m tall."}},
		{"bare list marker is no claim", "These may include:\n\n1[2].", nil},
		{"list markers", "Steps:\n1. Mix the flour.\n(b) Bake it for 30 min.\n2)", []string{"Mix the flour.", "(b) Bake it for 30 min."}},
		{"a number that is a claim", "The answer is 42.", []string{"The answer is 42."}},
		{"empty", "  ", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, c := range lexical.Claims(tc.text) {
				got = append(got, c.Text)
				if c.Span.Start < 0 || c.Span.End > len(tc.text) || c.Span.Start >= c.Span.End {
					t.Fatalf("bad span %v", c.Span)
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Claims(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

func TestClaims_Spans(t *testing.T) {
	text := "The north tower was finished in 1970, while the south tower opened in 1971 [2]."
	cs := lexical.Claims(text)
	if len(cs) != 2 {
		t.Fatalf("got %d claims", len(cs))
	}
	if got := text[cs[0].Span.Start:cs[0].Span.End]; got != "The north tower was finished in 1970" {
		t.Errorf("first span %q", got)
	}
	if got := text[cs[1].Span.Start:cs[1].Span.End]; got != "the south tower opened in 1971 [2]." {
		t.Errorf("second span %q", got)
	}
}
