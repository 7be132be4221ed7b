package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// rtLabel is a RAGTruth hallucination span of a response (offsets in
// characters, as Python counts them).
type rtLabel struct {
	Start     int    `json:"start"`
	End       int    `json:"end"`
	Text      string `json:"text"`
	LabelType string `json:"label_type"`
}

// rtResponse is what ragTruth needs of a response, whichever file gave it.
type rtResponse struct {
	id, sourceID, model, split, quality, response string
	line                                          int // its line in -ragtruth
	labels                                        []rtLabel
	task, source, question                        string
	contexts                                      []string
}

// rtSource is a line of RAGTruth's source_info.jsonl.
type rtSource struct {
	SourceID   string          `json:"source_id"`
	TaskType   string          `json:"task_type"`
	Source     string          `json:"source"`
	SourceInfo json.RawMessage `json:"source_info"`
}

var passageMark = regexp.MustCompile(`(?m)^passage \d+:\s*`)

// contexts returns a source's question (QA only) and passages: QA the
// passages of its "passages" text one by one, Summary the news text,
// Data2txt the structured data as compact JSON.
func (s rtSource) contexts() (string, []string, error) {
	switch s.TaskType {
	case "QA":
		var qa struct {
			Question string `json:"question"`
			Passages string `json:"passages"`
		}
		if err := json.Unmarshal(s.SourceInfo, &qa); err != nil {
			return "", nil, err
		}
		return strings.TrimSpace(qa.Question), splitPassages(qa.Passages), nil
	case "Summary":
		var text string
		if err := json.Unmarshal(s.SourceInfo, &text); err != nil {
			return "", nil, err
		}
		return "", []string{strings.TrimSpace(text)}, nil
	default:
		var b bytes.Buffer
		if err := json.Compact(&b, s.SourceInfo); err != nil {
			return "", nil, err
		}
		return "", []string{b.String()}, nil
	}
}

// splitPassages splits RAGTruth's "passage 1:...\n\npassage 2:..." text.
func splitPassages(text string) []string {
	locs := passageMark.FindAllStringIndex(text, -1)
	if len(locs) == 0 {
		return []string{strings.TrimSpace(text)}
	}
	var out []string
	for i, l := range locs {
		end := len(text)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		if p := strings.TrimSpace(text[l[1]:end]); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// readRAGTruth reads -ragtruth, one response a line, in either of two forms:
// RAGTruth's own response.jsonl (id, source_id, model, labels, split,
// quality, response), joined with -ragtruth-source (source_info.jsonl) for
// the task type, question and passages; or a copy that carries them on the
// response's line (qid, source_id, task_type, source, split,
// generator_model, quality, query, contexts [{id, text}], answer,
// gold_spans with RAGTruth's labels unchanged).
func readRAGTruth(o options) ([]rtResponse, error) {
	sources := map[string]rtSource{}
	if o.ragtruthSource != "" {
		err := readLines(o.ragtruthSource, func(_ int, b []byte) error {
			var s rtSource
			if err := json.Unmarshal(b, &s); err != nil {
				return err
			}
			sources[s.SourceID] = s
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	var out []rtResponse
	err := readLines(o.ragtruth, func(line int, b []byte) error {
		var r struct {
			ID       json.RawMessage `json:"id"`
			QID      string          `json:"qid"`
			SourceID json.RawMessage `json:"source_id"`
			Model    string          `json:"model"`
			GenModel string          `json:"generator_model"`
			Labels   []rtLabel       `json:"labels"`
			Gold     []rtLabel       `json:"gold_spans"`
			Split    string          `json:"split"`
			Quality  string          `json:"quality"`
			Response *string         `json:"response"`
			Answer   *string         `json:"answer"`
			TaskType string          `json:"task_type"`
			Source   string          `json:"source"`
			Query    string          `json:"query"`
			Contexts []struct {
				Text string `json:"text"`
			} `json:"contexts"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		x := rtResponse{sourceID: unquote(r.SourceID), split: r.Split, quality: r.Quality, line: line}
		switch {
		case r.Response != nil:
			s, ok := sources[x.sourceID]
			if !ok {
				return fmt.Errorf("source_id %s not in %s", x.sourceID, o.ragtruthSource)
			}
			q, cs, err := s.contexts()
			if err != nil {
				return fmt.Errorf("source %s: %w", x.sourceID, err)
			}
			x.id, x.model, x.response, x.labels = unquote(r.ID), r.Model, *r.Response, r.Labels
			x.task, x.source, x.question, x.contexts = s.TaskType, s.Source, q, cs
		case r.Answer != nil:
			x.id, x.model, x.response, x.labels = r.QID, r.GenModel, *r.Answer, r.Gold
			x.task, x.source, x.question = r.TaskType, r.Source, strings.TrimSpace(r.Query)
			for _, c := range r.Contexts {
				if t := strings.TrimSpace(c.Text); t != "" {
					x.contexts = append(x.contexts, t)
				}
			}
		default:
			return fmt.Errorf("neither a response nor an answer")
		}
		switch x.task {
		case "QA":
		case "Summary":
			x.question = "Summarize the following news."
		default:
			x.question = "Write an objective overview of the business from its structured data."
		}
		out = append(out, x)
		return nil
	})
	return out, err
}

// unquote is a JSON string or number as text.
func unquote(b json.RawMessage) string {
	var s string
	if json.Unmarshal(b, &s) == nil {
		return s
	}
	return strings.TrimSpace(string(b))
}

// ragTruth makes one candidate per sentence of each RAGTruth train response
// of good quality: unsupported (0) when a hallucination span touches it
// (contradiction 1 for Evident or Subtle Conflict, 0 for Baseless Info),
// supported (1) otherwise; contexts the source passages, question the
// question for QA and otherwise a fixed instruction for the task (kgeval
// rejects an empty question), preceding the response before the
// sentence. Responses of the test split are never read into candidates.
func ragTruth(o options, log io.Writer) ([]sample, error) {
	rs, err := readRAGTruth(o)
	if err != nil {
		return nil, err
	}
	drop := dropped{}
	var out []sample
	for _, r := range rs {
		switch {
		case r.split != "train":
			drop["responses not of the train split ("+r.split+")"]++
			continue
		case r.quality != "" && r.quality != "good":
			drop["responses of quality "+r.quality]++
			continue
		case contextLen(r.contexts) > maxContext:
			drop["responses whose sources are over 6,000 characters"]++
			continue
		}
		toByte := runeToByte(r.response)
		var spans []span
		bad := false
		for _, l := range r.labels {
			st, ok1 := toByte(l.Start)
			en, ok2 := toByte(l.End)
			if !ok1 || !ok2 || st > en || strings.TrimSpace(r.response[st:en]) != strings.TrimSpace(l.Text) {
				bad = true
				break
			}
			spans = append(spans, span{st, en, []string{l.LabelType}})
		}
		if bad {
			drop["responses with a label span that does not match its offsets"]++
			continue
		}
		for k, se := range sentences(r.response) {
			claim := claimText(r.response[se.start:se.end])
			if ok, why := claimOK(claim); !ok {
				drop["sentences "+why]++
				continue
			}
			var labels []string
			for _, sp := range spans {
				if overlaps(r.response, se.start, se.end, sp) {
					labels = append(labels, sp.labels...)
				}
			}
			c := sample{
				ID:       fmt.Sprintf("ragtruth-%s#%d", r.id, k),
				Question: r.question,
				Contexts: r.contexts,
				Answer:   claim,
				System:   r.model,
				group:    r.id,
				task:     r.task,
				first:    r.line <= o.ragtruthFirst,
			}
			c.Metadata = meta{Dataset: "ragtruth", Kind: "rag",
				Preceding: strings.TrimSpace(r.response[:se.start]),
				TaskType:  r.task, Source: r.source, SourceID: r.sourceID, ResponseID: r.id, Split: r.split,
				Sentence: intp(k)}
			if len(labels) > 0 {
				labels = distinct(labels)
				c.Metadata.Label = strings.Join(labels, "; ")
				con := 0
				for _, l := range labels {
					if strings.HasSuffix(l, "Conflict") {
						con = 1
					}
				}
				c.Metadata.Contradiction = intp(con)
			} else {
				c.Human.Faithfulness = 1
				c.Metadata.Label = "no hallucination span"
			}
			out = append(out, c)
		}
	}
	drop.report(log, "ragtruth")
	return out, nil
}

// ragTruthQuota: of n claims of one label, at most half from QA, a quarter
// from Summary and the rest from Data2txt in pick's first pass (its second
// pass fills any shortfall from whatever is left).
func ragTruthQuota(task string, n int) int {
	switch task {
	case "QA":
		return n / 2
	case "Summary":
		return n / 4
	default:
		return n - n/2 - n/4
	}
}
