package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// citeMark is the "[n] " a HAGRID quote starts with in AttributionBench.
var citeMark = regexp.MustCompile(`^\[\d+\]\s*`)

// haGRID makes one candidate of each HAGRID item of an AttributionBench file
// (src_dataset HAGRID; the other sources in the file are skipped): the
// claim, a sentence of a GPT-3.5 answer written from MIRACL passages (quotes)
// with in-line citations, as answer (citation markers such as "[2]" kept, as
// for ExpertQA); the quotes it cites as contexts, their leading "[n]"
// marker taken off; the question as question; human.faithfulness 1 when
// HAGRID's annotators judged the sentence attributable to its quotes, 0 when
// not. HAGRID does not say whether an unattributable sentence contradicts
// its quotes, so metadata.contradiction is left out. metadata.preceding is
// the answer's text before the claim when the claim is found in it. Items
// with no quote, a claim that is not a claim (claimOK) or quotes over
// maxContext characters are left out. Items are grouped by answer (the
// per-item cap of pick).
func haGRID(o options, log io.Writer) ([]sample, error) {
	drop := dropped{}
	var out []sample
	err := readLines(o.attributionBench, func(line int, b []byte) error {
		var r struct {
			Question   string   `json:"question"`
			Claim      string   `json:"claim"`
			Response   string   `json:"response"`
			References []string `json:"references"`
			Label      string   `json:"attribution_label"`
			Src        string   `json:"src_dataset"`
			ID         string   `json:"id"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			return err
		}
		if r.Src != "HAGRID" {
			drop["items of "+r.Src+" (not HAGRID)"]++
			return nil
		}
		var faithful int
		switch r.Label {
		case "attributable":
			faithful = 1
		case "not attributable":
		default:
			return fmt.Errorf("attribution_label %q", r.Label)
		}
		var ctx []string
		for _, q := range r.References {
			if t := strings.TrimSpace(citeMark.ReplaceAllString(strings.TrimSpace(q), "")); t != "" {
				ctx = append(ctx, t)
			}
		}
		claim := strings.TrimSpace(r.Claim)
		if len(ctx) == 0 {
			drop["items citing no quote"]++
			return nil
		}
		if contextLen(ctx) > maxContext {
			drop["items whose quotes are over 6,000 characters"]++
			return nil
		}
		if ok, why := claimOK(claim); !ok {
			drop["claims "+why]++
			return nil
		}
		resp := strings.TrimSpace(r.Response)
		sum := sha256.Sum256([]byte(strings.TrimSpace(r.Question) + "\x00" + resp))
		c := sample{
			ID:       "hagrid-" + strings.TrimPrefix(r.ID, "HAGRID_"),
			Question: strings.TrimSpace(r.Question),
			Contexts: ctx,
			Answer:   claim,
			System:   "gpt-3.5-turbo",
			group:    hex.EncodeToString(sum[:8]),
		}
		c.Human.Faithfulness = faithful
		c.Metadata = meta{Dataset: "hagrid", Kind: "rag", Label: r.Label}
		if i := strings.Index(resp, claim); i > 0 {
			c.Metadata.Preceding = strings.TrimSpace(resp[:i])
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, err
	}
	drop.report(log, "hagrid")
	return out, nil
}
