package render

import (
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/kgeval/kgeval/stats"
)

// GroundingLine reports the grounding check (SPEC §2b) per text kind: kept,
// dropped and the share dropped (the extractor's invention rate).
func GroundingLine(mode string, kept, dropped map[kgeval.Text]int) string {
	if mode == kgeval.GroundingOff || len(kept)+len(dropped) == 0 {
		return ""
	}
	var parts []string
	for _, t := range []kgeval.Text{kgeval.TextQuestion, kgeval.TextAnswer, kgeval.TextReference, kgeval.TextContexts} {
		k, d := kept[t], dropped[t]
		if k+d == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d kept, %d dropped (%.1f%%)", t, k, d, 100*float64(d)/float64(k+d)))
	}
	verb := "dropped"
	if mode == kgeval.GroundingKeep {
		verb = "kept anyway"
	}
	return fmt.Sprintf("grounding (extraction.grounding %s: ungrounded triplets %s): %s", mode, verb, strings.Join(parts, "; "))
}

// Summary prints, per pair and metric: mean, std, n scored, n null and
// why (TopReason).
func Summary(w io.Writer, results []kgeval.KGResult, pairs []kgeval.Pair) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "pair\tmetric\tmean\tstd\tn\tnull\twhy null")
	for _, r := range summaryRows(results, pairs) {
		mean, std := stats.MeanStd(r.vals)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\n", r.pair, r.metric, fmtNum(mean, len(r.vals)), fmtNum(std, len(r.vals)), len(r.vals), sumCounts(r.reasons), TopReason(r.reasons))
	}
	tw.Flush()
}

// summaryRow is one pair and metric of Summary: its values and null
// reasons.
type summaryRow struct {
	pair, metric string
	vals         []float64
	reasons      map[string]int
}

// summaryRows are the rows Summary prints: per pair, the KG metrics that
// apply to it (a value, or a null that is not "not applicable").
func summaryRows(results []kgeval.KGResult, pairs []kgeval.Pair) []summaryRow {
	var out []summaryRow
	for _, p := range pairs {
		for _, metric := range metricreg.KGMetricNames {
			var vals []float64
			reasons := map[string]int{}
			applies := false
			for _, r := range results {
				if r.Pair != p.Name {
					continue
				}
				for _, s := range r.Scores() {
					if s.Metric != metric {
						continue
					}
					applies = applies || !kgeval.NotApplicable(s.Reason)
					if s.Value != nil {
						vals = append(vals, *s.Value)
					} else {
						reasons[s.Reason]++
					}
				}
			}
			if !applies {
				continue // e.g. recall outside the reference pair
			}
			out = append(out, summaryRow{pair: p.Name, metric: metric, vals: vals, reasons: reasons})
		}
	}
	return out
}

// Headline prints the headline table (analysis.Headlines): per pair its
// headline metric with mean, n, its pass mark, how many samples pass it,
// and the nulls with their most common reasons; per system (a system
// column) when the run has several.
func Headline(w io.Writer, hs []analysis.HeadlineStat) {
	if len(hs) == 0 {
		return
	}
	systems := slices.ContainsFunc(hs, func(h analysis.HeadlineStat) bool { return !h.All })
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "pair\theadline\t"
	if systems {
		head += "system\t"
	}
	fmt.Fprintln(tw, head+"mean\tn\tpass mark\tpassing\tnull\twhy null")
	for _, h := range hs {
		line := h.Pair.Name + "\t" + h.Metric + "\t"
		if systems {
			sys := h.System
			switch {
			case h.All:
				sys = "(all)"
			case sys == "":
				sys = "(none)"
			}
			line += truncateRunes(sys, 40) + "\t"
		}
		dir := "≥"
		if metricreg.IsLowerBetter(h.Metric) {
			dir = "≤"
		}
		mark := fmt.Sprintf("%s %.2f", dir, h.PassMark)
		switch {
		case !h.HasMark:
			// No labelled set the repository ships fits one: the score
			// without pass or fail (analysis.HasMark).
			mark = "none (no fitted mark)"
		case h.Metric == metricreg.MetricClaimScore && h.WithModel:
			mark += " (calibrated, with the model" + spread(true) + ")"
		case h.Metric == metricreg.MetricClaimScore:
			mark += " (calibrated" + spread(false) + ")"
		case h.Metric == metricreg.MetricBERTScoreF1 || h.Metric == metricreg.MetricSemanticSimilarity:
			if rm, ok := analysis.ReferenceMarks()[h.Metric]; ok {
				mark += fmt.Sprintf(" (fitted on answer equivalence; LODO BAcc %.2f)", rm.MacroLODO)
			}
		default:
			// No labelled set the repository may fit on labels relevance
			// (WikiEval is for development only): README "Known limits".
			mark += " (default, not calibrated)"
		}
		passing := "-"
		if h.N > 0 && h.HasMark {
			passing = fmt.Sprintf("%d/%d (%.0f%%)", h.Passing, h.N, 100*h.Share())
		}
		fmt.Fprintf(tw, "%s%s\t%d\t%s\t%s\t%d\t%s\n", line, fmtNum(h.Mean, h.N), h.N, mark, passing, sumCounts(h.Nulls), TopReason(h.Nulls))
	}
	tw.Flush()
}

// MetricSummary prints, per metric other than the KG scores: family,
// mean, std, n scored, n null and why (TopReason).
func MetricSummary(w io.Writer, scores []kgeval.MetricScore) {
	type agg struct {
		family  string
		vals    []float64
		reasons map[string]int
	}
	by := map[string]*agg{}
	var names []string
	for _, s := range scores {
		a := by[s.Metric]
		if a == nil {
			a = &agg{family: s.Family, reasons: map[string]int{}}
			by[s.Metric] = a
			names = append(names, s.Metric)
		}
		if s.Value != nil {
			a.vals = append(a.vals, *s.Value)
		} else {
			a.reasons[s.Reason]++
		}
	}
	sort.Slice(names, func(i, j int) bool {
		if by[names[i]].family != by[names[j]].family {
			return by[names[i]].family > by[names[j]].family
		}
		return names[i] < names[j]
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "family\tmetric\tmean\tstd\tn\tnull\twhy null")
	for _, name := range names {
		a := by[name]
		mean, std := stats.MeanStd(a.vals)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\n", a.family, name, fmtNum(mean, len(a.vals)), fmtNum(std, len(a.vals)), len(a.vals), sumCounts(a.reasons), TopReason(a.reasons))
	}
	tw.Flush()
}

// TopReason summarises why values are null: the two most common kinds of
// reason with their counts, and how many nulls the others account for, so
// that the counts add up to the null column. Reasons that differ only in a
// model's rejected answer ("gave no valid JSON after 3 attempts: label 2 is
// FN but ...") are one kind. Ties go to the alphabetically first.
func TopReason(reasons map[string]int) string {
	kinds := map[string]int{}
	for r, n := range reasons {
		kinds[reasonKind(r)] += n
	}
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if kinds[names[i]] != kinds[names[j]] {
			return kinds[names[i]] > kinds[names[j]]
		}
		return names[i] < names[j]
	})
	var parts []string
	rest := 0
	for i, k := range names {
		if i < 2 {
			parts = append(parts, fmt.Sprintf("%s (%d)", truncateRunes(k, 110), kinds[k]))
		} else {
			rest += kinds[k]
		}
	}
	if rest > 0 {
		parts = append(parts, fmt.Sprintf("%d other kinds (%d)", len(names)-2, rest))
	}
	return strings.Join(parts, "; ")
}

// Evaluation prints the outcome of an evaluation: counts, grounding, model
// calls per client, stages and the texts that could not be extracted.
func Evaluation(w io.Writer, r *pipeline.Evaluation) {
	rep, u := r.Report, r.Usage
	st := u.Extraction
	fmt.Fprintf(w, "\nrun %s: %d samples, %d distinct texts (%d extracted now, %d from the cache), %d entity labels; %d texts embedded now (labels, triplets, answers; the rest cached); %d graph rows\n",
		r.Run, rep.Samples, rep.Texts, rep.Extracted, st.CacheHits, rep.EmbedTexts, u.EmbedMisses, rep.GraphRows)
	if rep.Resumed > 0 {
		fmt.Fprintf(w, "resumed: %d pair graphs were scored before and kept\n", rep.Resumed)
	}
	if line := GroundingLine(r.Grounding, rep.Kept, rep.Dropped); line != "" {
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "extraction: model calls %d (retries %d, repairs %d, failures %d), tokens %d prompt + %d completion, model time %s\n",
		st.Calls, st.Retries, st.Repairs, st.Failures, st.PromptTokens, st.CompletionTokens, st.Latency.Round(time.Millisecond))
	if r.Verified {
		vs := u.Verify
		fmt.Fprintf(w, "verify (scoring.verify llm): %d questions (one per pair graph with open triplets; %d from the cache), %d triplets asked, %d unanswered; model calls %d (%.2f per sample), tokens %d prompt + %d completion\n",
			rep.VerifyBatches+rep.VerifyFailed, vs.CacheHits, rep.VerifyFacts, rep.VerifyFailed, vs.Calls, float64(vs.Calls)/float64(max(rep.Samples, 1)), vs.PromptTokens, vs.CompletionTokens)
	}
	if js := u.Judge; js.Calls+js.Failures > 0 || u.JudgeCached > 0 {
		fmt.Fprintf(w, "judge: %d questions to the model (%d from the cache), model calls %d (retries %d, repairs %d, failures %d), tokens %d prompt + %d completion, model time %s\n",
			u.JudgeAsks, u.JudgeHits, js.Calls, js.Retries, js.Repairs, js.Failures, js.PromptTokens, js.CompletionTokens, js.Latency.Round(time.Millisecond))
	}
	if r.Resumed {
		fmt.Fprintf(w, "whole run, all attempts: model calls %d, tokens %d prompt + %d completion\n", r.Calls.Calls, r.Calls.PromptTokens, r.Calls.CompletionTokens)
	}
	if r.CacheOnly {
		fmt.Fprintf(w, "cache-only: model calls %d; %d requests not in the cache (refused)\n", u.All.Calls, u.All.Refused)
	}
	Ledger(w, r.Ledger, rep.Samples)
	var stages []string
	for _, s := range []string{"extract", "ground", "embed", "store", "score", "verify", "metrics"} {
		stages = append(stages, fmt.Sprintf("%s %s", s, rep.Stages[s].Round(time.Millisecond)))
	}
	fmt.Fprintf(w, "stages: %s\n\n", strings.Join(stages, ", "))
	for _, e := range rep.Errors {
		fmt.Fprintf(w, "sample %s: %s not extracted: %s\n", e.Sample, e.Text, e.Error)
	}
}

// Scores prints a run's headline first (Headline: one metric per pair
// against its pass mark). With all, then its KG scores per pair and metric
// (Summary) and its other metric values per metric (MetricSummary);
// without, one line counts those metrics and says how to see them.
func Scores(w io.Writer, run string, rows []readmodel.SampleScores, pairs []kgeval.Pair, all bool) {
	var results []kgeval.KGResult
	var others []kgeval.MetricScore
	otherNames := map[string]bool{}
	for _, r := range rows {
		for _, k := range r.Scores {
			results = append(results, k)
		}
		for _, ms := range r.Metrics {
			others = append(others, ms)
			otherNames[ms.Metric] = true
		}
	}
	hs := analysis.Headlines(rows, pairs, nil)
	Headline(w, hs)
	if all {
		fmt.Fprintln(w)
		Summary(w, results, pairs)
		if len(others) > 0 {
			fmt.Fprintln(w)
			MetricSummary(w, others)
		}
		return
	}
	shown := map[string]bool{}
	for _, h := range hs {
		shown[h.Pair.Name+"."+h.Metric] = true
	}
	more := len(otherNames)
	for _, r := range summaryRows(results, pairs) {
		if !shown[r.pair+"."+r.metric] {
			more++
		}
	}
	if more > 0 {
		noun := "metrics"
		if more == 1 {
			noun = "metric"
		}
		fmt.Fprintf(w, "\n%d more %s: kgeval evaluate ... --all (with --resume on a finished run: no model call), or kgeval export --run %s\n", more, noun, shellArg(run))
	}
}

// shellArg quotes s for a POSIX shell when it holds anything but letters,
// digits and ._-/ (a run name in a command to copy).
func shellArg(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

var noValidJSONDetail = regexp.MustCompile("(" + strings.Replace(regexp.QuoteMeta(kgeval.ReasonNoValidJSON), "%d", `\d+`, 1) + "): .*$")

// reasonKind drops the per-sample detail from a null reason: reasons that
// differ only in the model's rejected answer ("... gave no valid JSON after
// 3 attempts: label 2 is FN but ...") have one kind. Other reasons are
// their own kind.
func reasonKind(reason string) string {
	return noValidJSONDetail.ReplaceAllString(reason, "$1")
}

// spread says how sure the calibrated mark is: the training datasets'
// balanced accuracy at it (analysis.MarkSpread).
func spread(withModel bool) string {
	if lo, hi, ok := analysis.MarkSpread(withModel); ok {
		return fmt.Sprintf("; datasets' BAcc %.2f–%.2f", lo, hi)
	}
	return ""
}
