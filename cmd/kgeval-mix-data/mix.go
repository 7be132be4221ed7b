package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// mix writes OUT/mix_expertqa.jsonl: the first 2×expertqa-n lines of
// -expertqa-claims (the balanced ExpertQA claims, alternating Incomplete and
// Complete) with metadata dataset "expertqa", kind "longform", label the
// expert support label and, where the claim is found in its answer in
// -expertqa, preceding. ExpertQA ids, contexts and labels are kept;
// ExpertQA has no contradiction label, so metadata.contradiction is left
// out.
func mix(o options, log io.Writer) error {
	eq, err := expertQA(o)
	if err != nil {
		return err
	}
	path := filepath.Join(o.out, "mix_expertqa.jsonl")
	if err := write(path, eq); err != nil {
		return err
	}
	fmt.Fprintf(log, "expertqa: %d lines (%s) -> %s\n", len(eq), counts(eq), path)
	return nil
}

// expertQA reads the first 2×expertqa-n ExpertQA claims.
func expertQA(o options) ([]sample, error) {
	answers := map[string]string{}
	err := readLines(o.expertqa, func(_ int, b []byte) error {
		var r struct {
			ID     string `json:"id"`
			Answer string `json:"answer"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		answers[r.ID] = r.Answer
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []sample
	var zeros, ones int
	err = readLines(o.expertqaClaims, func(_ int, b []byte) error {
		if len(out) >= 2*o.expertqaN {
			return nil
		}
		var r struct {
			ID       string   `json:"id"`
			Question string   `json:"question"`
			Contexts []string `json:"contexts"`
			Answer   string   `json:"answer"`
			System   string   `json:"system"`
			Human    struct {
				Faithfulness int `json:"faithfulness"`
			} `json:"human"`
			Metadata struct {
				Support string `json:"support"`
				Group   string `json:"group"`
			} `json:"metadata"`
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			return err
		}
		s := sample{ID: r.ID, Question: r.Question, Contexts: r.Contexts, Answer: r.Answer, System: r.System}
		s.Human.Faithfulness = r.Human.Faithfulness
		if r.Human.Faithfulness == 1 {
			ones++
		} else {
			zeros++
		}
		s.Metadata = meta{Dataset: "expertqa", Kind: "longform", Label: r.Metadata.Support,
			Support: r.Metadata.Support, Group: r.Metadata.Group}
		rec, _, _ := strings.Cut(r.ID, "#")
		if a, ok := answers[rec]; ok {
			if i := strings.Index(a, strings.TrimSpace(r.Answer)); i >= 0 {
				s.Metadata.Preceding = strings.TrimSpace(a[:i])
			}
		}
		out = append(out, s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if zeros != ones {
		return nil, fmt.Errorf("%s: its first %d lines hold %d unsupported and %d supported claims, not as many", o.expertqaClaims, len(out), zeros, ones)
	}
	return out, nil
}
