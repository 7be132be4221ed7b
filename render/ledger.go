package render

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"

	"github.com/kgeval/kgeval"
)

// Ledger prints a run's model cost per stage and pair: requests, cache
// hits, prompt and completion tokens, the prompt tokens the cached answers
// cost when asked, the model's seconds, and the cold cost per sample
// (prompt + 8 × completion, cached answers counted at their cost).
func Ledger(w io.Writer, l kgeval.Ledger, samples int) {
	if len(l) == 0 {
		fmt.Fprintln(w, "model cost: no model request and no cached answer")
		return
	}
	fmt.Fprintln(w, "model cost (cold per sample: prompt + 8 × completion tokens, answers read from the cache counted at what they cost):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "stage\tpair\trequests\tcached\tprompt tokens\tcompletion tokens\tcached prompt tokens\tmodel s\tcold per sample\t")
	row := func(stage, pair string, e kgeval.LedgerEntry) {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%.1f\t%.0f\t\n", stage, pair, e.Requests, e.CacheHits, e.PromptTokens, e.CompletionTokens,
			e.CachedPromptTokens, e.Seconds, float64(e.Weighted())/float64(max(samples, 1)))
	}
	for _, s := range l.Stages() {
		for _, p := range sortedPairs(l[s]) {
			row(s, p, l[s][p])
		}
	}
	row("total", "", l.Total())
	tw.Flush()
}

func sortedPairs(m map[string]kgeval.LedgerEntry) []string {
	return slices.Sorted(maps.Keys(m))
}
