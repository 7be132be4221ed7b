package export_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/export"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// TestWriteJSONLWith_Headline: each row gains its pairs' headlines against
// the run's pass marks (analysis.PairPassMark) and a pass that is false
// when one fails, true when one passes and none fails, null with no value;
// without Headline the rows are WriteJSONL's.
func TestWriteJSONLWith_Headline(t *testing.T) {
	f := kgeval.Float
	ps := []kgeval.Pair{{Name: "faithfulness", Input: kgeval.TextAnswer, Context: kgeval.TextContexts},
		{Name: "context_relevancy", Input: kgeval.TextQuestion, Context: kgeval.TextContexts}}
	rs := []readmodel.SampleScores{
		{ID: "good", Scores: map[string]kgeval.KGResult{
			"faithfulness":      kgeval.KGResult{}.With(metricreg.MetricClaimScore, f(0.9)),
			"context_relevancy": kgeval.KGResult{}.With(metricreg.MetricSlotCoverage, f(1))}},
		{ID: "bad", Scores: map[string]kgeval.KGResult{
			"faithfulness":      kgeval.KGResult{}.With(metricreg.MetricClaimScore, f(0.1)),
			"context_relevancy": kgeval.KGResult{}.With(metricreg.MetricSlotCoverage, f(1))}},
		{ID: "null", Scores: map[string]kgeval.KGResult{"faithfulness": {Reason: "no claims"}}},
	}
	var plain, with bytes.Buffer
	if err := export.WriteJSONLWith(&plain, rs, export.JSONLOptions{}); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	_ = export.WriteJSONL(&want, rs)
	if plain.String() != want.String() {
		t.Errorf("without Headline:\n%s\nwant\n%s", plain.String(), want.String())
	}
	if err := export.WriteJSONLWith(&with, rs, export.JSONLOptions{Headline: true, Pairs: ps}); err != nil {
		t.Fatal(err)
	}
	mark := analysis.PassMark(metricreg.MetricClaimScore, false)
	var got []struct {
		ID       string                     `json:"id"`
		Headline map[string]export.Headline `json:"headline"`
		Pass     *bool                      `json:"pass"`
	}
	for _, l := range strings.Split(strings.TrimSpace(with.String()), "\n") {
		var r struct {
			ID       string                     `json:"id"`
			Headline map[string]export.Headline `json:"headline"`
			Pass     *bool                      `json:"pass"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	pass := func(p *bool) string {
		if p == nil {
			return "null"
		}
		return map[bool]string{true: "true", false: "false"}[*p]
	}
	if h := got[0].Headline["faithfulness"]; h.Metric != metricreg.MetricClaimScore || h.PassMark == nil || *h.PassMark != mark || pass(h.Pass) != "true" || pass(got[0].Pass) != "true" {
		t.Errorf("good: %+v pass %s", got[0].Headline, pass(got[0].Pass))
	}
	// context_relevancy has no fitted mark: its score, no pass.
	if h := got[1].Headline["context_relevancy"]; h.Metric != metricreg.MetricSlotCoverage || h.PassMark != nil || pass(h.Pass) != "null" ||
		pass(got[1].Headline["faithfulness"].Pass) != "false" || pass(got[1].Pass) != "false" {
		t.Errorf("bad: %+v pass %s", got[1].Headline, pass(got[1].Pass))
	}
	if h := got[2].Headline["faithfulness"]; h.Value != nil || h.Reason != "no claims" || h.Pass != nil || got[2].Pass != nil {
		t.Errorf("null: %+v pass %s", got[2].Headline, pass(got[2].Pass))
	}
	// The flag says which marks were fitted: the claim score's is, the
	// default 0.5 of slot coverage is not; a configured one is neither.
	for _, r := range got {
		for pair, h := range r.Headline {
			if h.Calibrated != (h.PassMark != nil) || h.Configured {
				t.Errorf("%s %s: calibrated %v configured %v", r.ID, pair, h.Calibrated, h.Configured)
			}
		}
	}
	if !got[0].Headline["faithfulness"].Calibrated || got[1].Headline["context_relevancy"].Calibrated {
		t.Errorf("calibrated flags: faithfulness %v, context_relevancy %v", got[0].Headline["faithfulness"].Calibrated, got[1].Headline["context_relevancy"].Calibrated)
	}
	var conf bytes.Buffer
	if err := export.WriteJSONLWith(&conf, rs, export.JSONLOptions{Headline: true, Pairs: ps, Thresholds: map[string]float64{metricreg.MetricClaimScore: 0.3}}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(conf.String(), `"pass_mark":0.3,"pass":true,"calibrated":false,"configured":true`) {
		t.Errorf("configured mark:\n%s", conf.String())
	}
	// web.thresholds' default slot_coverage 0.5 is the built-in mark: neither.
	conf.Reset()
	if err := export.WriteJSONLWith(&conf, rs, export.JSONLOptions{Headline: true, Pairs: ps, Thresholds: map[string]float64{metricreg.MetricSlotCoverage: 0.5}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(conf.String(), `"configured"`) {
		t.Errorf("the default slot_coverage mark reads as configured:\n%s", conf.String())
	}
}

// TestClaimRows: one row per claim, in row, pair and claim order, with the
// model's P(supported) only when it was asked and the best evidence
// sentence with its 1-based passage.
func TestClaimRows(t *testing.T) {
	ps := []kgeval.Pair{{Name: "faithfulness"}, {Name: "factual_correctness"}}
	rs := []readmodel.SampleScores{{ID: "s", System: "sys", Scores: map[string]kgeval.KGResult{
		"factual_correctness": {Claims: []kgeval.ClaimCheck{{Text: "c", Verdict: kgeval.ClaimSupported, Score: 0.8,
			Evidence: []kgeval.ClaimEvidence{{Passage: -1, Text: "ref"}}}}},
		"faithfulness": {Claims: []kgeval.ClaimCheck{
			{Text: "a", Verdict: kgeval.ClaimSupported, Score: 0.9, Model: &kgeval.ClaimProb{P: 0.7},
				Evidence: []kgeval.ClaimEvidence{{Passage: 1, Text: "best", Why: []string{"path"}}, {Passage: 0, Text: "second"}}},
			{Text: "b", Verdict: kgeval.ClaimContradicted, Score: 0.2, Conflicts: []kgeval.ClaimConflict{{Kind: "date", Claim: "1990", Evidence: "1989"}}}}},
	}}}
	got := export.ClaimRows(rs, ps)
	if len(got) != 3 || got[0].Text != "a" || got[1].Text != "b" || got[2].Text != "c" || got[2].Pair != "factual_correctness" {
		t.Fatalf("%+v", got)
	}
	if a := got[0]; a.PSupported == nil || *a.PSupported != 0.7 || a.Evidence != "best" || a.EvidencePassage != 2 || a.System != "sys" || a.Claim != 0 {
		t.Errorf("a: %+v", a)
	}
	if b := got[1]; b.PSupported != nil || b.Evidence != "" || b.Verdict != kgeval.ClaimContradicted || len(b.Conflicts) != 1 || b.Claim != 1 {
		t.Errorf("b: %+v", b)
	}
	if c := got[2]; c.EvidencePassage != 0 || c.Evidence != "ref" {
		t.Errorf("c: %+v", c)
	}
	var b bytes.Buffer
	if err := export.WriteClaimsJSONL(&b, rs, ps); err != nil || strings.Count(b.String(), "\n") != 3 || !strings.Contains(b.String(), `"p_supported":null`) {
		t.Errorf("%v\n%s", err, b.String())
	}
}
