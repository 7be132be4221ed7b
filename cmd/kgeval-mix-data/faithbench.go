package main

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
)

// fbBatch is a FaithBench data_for_release/batch_N.json.
type fbBatch struct {
	Samples []struct {
		SampleID    int    `json:"sample_id"`
		Source      string `json:"source"`
		Summary     string `json:"summary"`
		Annotations []struct {
			Label        []string `json:"label"`
			SummarySpan  string   `json:"summary_span"`
			SummaryStart *int     `json:"summary_start"`
			SummaryEnd   *int     `json:"summary_end"`
		} `json:"annotations"`
		Metadata struct {
			Summarizer  string `json:"summarizer"`
			RawSampleID int    `json:"raw_sample_id"`
		} `json:"metadata"`
	} `json:"samples"`
}

// faithBenchQuestion is the question of every FaithBench sample: FaithBench
// has none, kgeval rejects an empty one, and this is the instruction the
// summarizers were given (Vectara's hallucination leaderboard prompt, which
// many of the summaries echo).
const faithBenchQuestion = "Provide a concise summary of the following passage, covering the core pieces of information described."

// faithBench makes one candidate per sentence of each FaithBench summary:
// unsupported (0) when an annotation with a label starting "Unwanted"
// touches it (contradiction 1 when such a label names Intrinsic), supported
// (1) when no annotation touches it; a sentence touched only by
// Questionable or Benign annotations is left out. contexts: the source;
// question: faithBenchQuestion.
func faithBench(o options, log io.Writer) ([]sample, error) {
	files, err := filepath.Glob(filepath.Join(o.faithbench, "batch_*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no batch_*.json in %s", o.faithbench)
	}
	sort.Strings(files)
	drop := dropped{}
	var out []sample
	for _, path := range files {
		batch := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "batch_"), ".json")
		var b fbBatch
		if err := readJSON(path, &b); err != nil {
			return nil, err
		}
		for _, s := range b.Samples {
			if n := contextLen([]string{s.Source}); n > maxContext {
				drop["summaries whose source is over 6,000 characters"]++
				continue
			}
			toByte := runeToByte(s.Summary)
			var spans []span
			bad := false
			for _, a := range s.Annotations {
				if a.SummaryStart == nil || a.SummaryEnd == nil {
					bad = true
					break
				}
				st, ok1 := toByte(*a.SummaryStart)
				en, ok2 := toByte(*a.SummaryEnd)
				if !ok1 || !ok2 || s.Summary[st:en] != a.SummarySpan {
					bad = true
					break
				}
				spans = append(spans, span{st, en, a.Label})
			}
			if bad {
				drop["summaries with an annotation span that does not match its offsets"]++
				continue
			}
			for k, se := range sentences(s.Summary) {
				text := s.Summary[se.start:se.end]
				var unwanted, other []string
				for _, sp := range spans {
					if !overlaps(s.Summary, se.start, se.end, sp) {
						continue
					}
					isUnwanted := false
					for _, l := range sp.labels {
						if strings.HasPrefix(l, "Unwanted") {
							isUnwanted = true
						}
					}
					if isUnwanted {
						for _, l := range sp.labels {
							if strings.HasPrefix(l, "Unwanted") {
								unwanted = append(unwanted, l)
							}
						}
					} else {
						other = append(other, sp.labels...)
					}
				}
				if len(unwanted) == 0 && len(other) > 0 {
					drop["sentences touched only by Questionable/Benign annotations"]++
					continue
				}
				claim := claimText(text)
				if ok, why := claimOK(claim); !ok {
					drop["sentences "+why]++
					continue
				}
				c := sample{
					ID:       fmt.Sprintf("faithbench-b%s-%d#%d", batch, s.SampleID, k),
					Question: faithBenchQuestion,
					Contexts: []string{s.Source},
					Answer:   claim,
					System:   s.Metadata.Summarizer,
					group:    fmt.Sprintf("b%s-%d", batch, s.SampleID),
				}
				c.Metadata = meta{Dataset: "faithbench", Kind: "summary",
					Preceding: strings.TrimSpace(s.Summary[:se.start]),
					Batch:     batch, SampleID: atoi(s.SampleID), RawSampleID: atoi(s.Metadata.RawSampleID),
					Sentence: intp(k)}
				if len(unwanted) > 0 {
					labels := distinct(unwanted)
					c.Metadata.Label = strings.Join(labels, "; ")
					con := 0
					for _, l := range labels {
						if strings.Contains(l, "Intrinsic") {
							con = 1
						}
					}
					c.Metadata.Contradiction = intp(con)
				} else {
					c.Human.Faithfulness = 1
					c.Metadata.Label = "no annotation"
				}
				out = append(out, c)
			}
		}
	}
	drop.report(log, "faithbench")
	return out, nil
}

// distinct is xs sorted, each once, without the bare "Unwanted" when a
// more precise Unwanted.* label is there.
func distinct(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	precise := false
	for _, x := range xs {
		if strings.HasPrefix(x, "Unwanted.") {
			precise = true
		}
	}
	for _, x := range xs {
		if seen[x] || (precise && x == "Unwanted") {
			continue
		}
		seen[x] = true
		out = append(out, x)
	}
	sort.Strings(out)
	return out
}
