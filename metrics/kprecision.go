package metrics

import "github.com/kgeval/kgeval/lexical"

// KPrecision is K-Precision (Adlakha et al. 2023): the share of the answer's
// distinct content words (lexical.ContentWords: case-folded, numbers
// included, English stop words out) that occur in one of the contexts, up to
// the occurrence rule's inflection tolerance. It needs no model and is the
// word-overlap baseline a faithfulness metric has to beat: an answer copied
// from its passage scores 1, one written without it scores low, and a
// paraphrase of the passage is penalised although faithful.
func KPrecision(answer string, contexts []string) Value {
	texts := make([]*lexical.Text, len(contexts))
	for i, c := range contexts {
		texts[i] = lexical.NewText(c)
	}
	v, _ := KPrecisionMissing(answer, texts)
	return v
}

// KPrecisionMissing is KPrecision against contexts prepared once
// (lexical.NewText; evaluate shares a passage among the samples that
// retrieved it), with the answer's content words that no context holds: its
// explanation.
func KPrecisionMissing(answer string, contexts []*lexical.Text) (Value, []string) {
	words := lexical.ContentWords(answer)
	switch {
	case len(contexts) == 0:
		return Null("no contexts"), nil
	case len(words) == 0:
		return Null("the answer has no content word"), nil
	}
	var missing []string
	for _, w := range words {
		found := false
		for _, t := range contexts {
			if t.HasWord(w) {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, w)
		}
	}
	return Of(float64(len(words)-len(missing)) / float64(len(words))), missing
}
