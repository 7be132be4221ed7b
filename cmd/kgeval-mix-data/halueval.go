package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// haluEval makes two candidates of each HaluEval QA item (a line of
// qa_data.json): its right answer (1, label "right") and its hallucinated
// answer (0, label "hallucinated"), contexts [knowledge], the question as
// question. HaluEval does not say whether a hallucinated answer contradicts
// the knowledge, so metadata.contradiction is left out. An item whose two
// answers are the same text (after trimming) is left out.
func haluEval(o options, log io.Writer) ([]sample, error) {
	drop := dropped{}
	var out []sample
	item := 0
	err := readLines(o.halueval, func(line int, b []byte) error {
		var r struct {
			Knowledge          string `json:"knowledge"`
			Question           string `json:"question"`
			RightAnswer        string `json:"right_answer"`
			HallucinatedAnswer string `json:"hallucinated_answer"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		idx := item
		item++
		know := strings.TrimSpace(r.Knowledge)
		right, hallu := strings.TrimSpace(r.RightAnswer), strings.TrimSpace(r.HallucinatedAnswer)
		switch {
		case contextLen([]string{know}) > maxContext:
			drop["items whose knowledge is over 6,000 characters"]++
			return nil
		case right == "" || hallu == "" || know == "":
			drop["items with an empty knowledge or answer"]++
			return nil
		case strings.EqualFold(right, hallu):
			drop["items whose two answers are the same"]++
			return nil
		case len([]rune(right)) > maxClaim || len([]rune(hallu)) > maxClaim:
			drop["items with an answer over 400 characters"]++
			return nil
		}
		for _, a := range []struct {
			text, label string
			faithful    int
		}{{right, "right", 1}, {hallu, "hallucinated", 0}} {
			c := sample{
				ID:       fmt.Sprintf("halueval-qa-%04d#%s", idx, a.label),
				Question: strings.TrimSpace(r.Question),
				Contexts: []string{know},
				Answer:   a.text,
				group:    fmt.Sprintf("qa-%04d", idx),
			}
			c.Human.Faithfulness = a.faithful
			c.Metadata = meta{Dataset: "halueval", Kind: "qa", Label: a.label}
			out = append(out, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	drop.report(log, "halueval")
	return out, nil
}
