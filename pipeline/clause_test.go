package pipeline_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/pipeline"
)

// TestRuleExtractor_ClauseFacts: a question's typed clauses become asked
// facts (known end; clause; ?) read by rule, anchored on the clause's
// longest name, else the question's; a statement gets none.
func TestRuleExtractor_ClauseFacts(t *testing.T) {
	for _, tc := range []struct {
		text  string
		asked bool
		want  string // "subject | relation" of each clause fact
	}{
		{"Question: When was PharmaCann founded and what is its headquarters location?", true,
			"PharmaCann | When was PharmaCann founded; PharmaCann | what is its headquarters location"},
		{"Who directed the film Oppenheimer and who stars as J. Robert Oppenheimer in the film?", true,
			"Oppenheimer | Who directed the film Oppenheimer; Robert Oppenheimer | who stars as J. Robert Oppenheimer in the film"},
		{"How long did the Siege of Mariupol last, and what was the outcome?", true, "Mariupol | How long did the Siege of Mariupol last"},
		// No typed clause, or no name to anchor one: no asked fact.
		{"What is the objective of the project?", true, ""},
		{"When was it founded?", true, ""},
		// A statement is no question.
		{"PharmaCann was founded in 2014 in Illinois.", false, ""},
	} {
		ex, err := pipeline.RuleExtractor{}.Extract(context.Background(), []kgeval.ExtractRequest{{Text: tc.text, Asked: tc.asked}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tr := range ex[0].Triplets {
			if tr.Source != kgeval.SourceClause {
				continue
			}
			if tr.Object != kgeval.Slot || tr.Start >= tr.End || !strings.Contains(tc.text[tr.Start:tr.End], tr.Relation) {
				t.Errorf("%q: clause fact %+v: want a slot object and the clause's span", tc.text, tr)
			}
			got = append(got, tr.Subject+" | "+tr.Relation)
		}
		if strings.Join(got, "; ") != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.text, strings.Join(got, "; "), tc.want)
		}
	}
}
