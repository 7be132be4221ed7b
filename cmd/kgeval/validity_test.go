package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/analysis/check"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/pipeline"
)

// TestValidity evaluates 4 copies of the bundled pre-extracted samples
// (grounded / ungrounded / poor answers to one question each), adds two
// hand-made metrics, runs the sensitivity experiment on the grounded
// answers (--system) and checks the validity report: the hand-computed win
// rates, a lower-is-better metric, the KG scores against the stored ones,
// the reference-based and answer-blind metrics listed apart, the joined
// sensitivity numbers, and the same Markdown twice.
func TestValidity(t *testing.T) {
	noLLM(t)
	db := graphstoretest.MustOpenDB(t)
	ctx := context.Background()
	args := dbArgs(t)
	dir := t.TempDir()
	// The copies differ in question and answer text, so that the wrong_answer
	// derangement exists.
	src := copiesOfTriplets(t, 4, nil)
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var m map[string]any
		_ = json.Unmarshal([]byte(l), &m)
		m["answer"] = fmt.Sprintf("%s (%s)", m["answer"], m["id"])
		out, _ := json.Marshal(m)
		lines = append(lines, string(out))
	}
	data := filepath.Join(dir, "copies.jsonl")
	if err := os.WriteFile(data, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := mustRunName(t, db, "validity")
	mustEvaluate(t, data, run, args)
	// faithfulness_validation: copy 1 win, 2 loss, 3 tie, 4 no ungrounded
	// value. faithfulness.contradiction (lower is better, a metric this
	// kgeval does not compute yet): 3 wins, 1 loss.
	hand := map[string][2][]*float64{
		"faithfulness_validation":    {{ptrTo(0.9), ptrTo(0.8), ptrTo(0.7), ptrTo(0.6)}, {ptrTo(0.2), ptrTo(0.9), ptrTo(0.7), nil}},
		"faithfulness.contradiction": {{ptrTo(0.1), ptrTo(0.1), ptrTo(0.1), ptrTo(0.1)}, {ptrTo(0.5), ptrTo(0.5), ptrTo(0.5), ptrTo(0)}},
	}
	var ms []kgeval.MetricScore
	for name, v := range hand {
		for k := 0; k < 4; k++ {
			ms = append(ms, kgeval.MetricScore{Sample: fmt.Sprintf("erica-grounded-%d", k+1), Metric: name, Family: metricreg.FamilyLLM, Value: v[0][k]},
				kgeval.MetricScore{Sample: fmt.Sprintf("erica-ungrounded-%d", k+1), Metric: name, Family: metricreg.FamilyLLM, Value: v[1][k], Reason: map[bool]string{true: "hand-made null"}[v[1][k] == nil]})
		}
	}
	if err := db.WriteMetricScores(ctx, run, ms); err != nil {
		t.Fatal(err)
	}

	sens := mustRunName(t, db, "validity-sens")
	for _, v := range []string{"reference_as_answer", "wrong_answer"} {
		name := sens + "-" + v
		t.Cleanup(func() {
			if err := db.DeleteRun(context.Background(), name); err != nil && kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
				t.Error(err)
			}
		})
	}
	if _, err := runMain(t, append([]string{"sensitivity", "--dataset", data, "--system", "nope", "--run", sens, "--dir", dir}, args...)...); kgeval.ErrorCode(err) != kgeval.EINVALID ||
		!strings.Contains(err.Error(), "has no record of that system (it has: grounded, poor, ungrounded)") {
		t.Errorf("sensitivity --system nope: %v", err)
	}
	out, err := runMain(t, append([]string{"sensitivity", "--dataset", data, "--system", "grounded", "--run", sens, "--dir", dir, "--cache-only"}, args...)...)
	if err != nil || !strings.Contains(out, "--system grounded: 4 of 12 loaded samples") || !strings.Contains(out, "4 samples used") {
		t.Fatalf("sensitivity --system grounded: %v\n%s", err, out)
	}
	var sensRep pipeline.SensitivityReport
	readJSON(t, filepath.Join(dir, "sensitivity.json"), &sensRep)

	jsonOut, md := filepath.Join(dir, "v.json"), filepath.Join(dir, "v.md")
	cmd := append([]string{"validity", "--run", run, "--good", "grounded", "--bad-faithfulness", "ungrounded", "--bad-relevance", "poor",
		"--sensitivity-run", sens, "--json", jsonOut, "--md", md}, args...)
	out, err = runMain(t, cmd...)
	if err != nil {
		t.Fatalf("validity: %v\n%s", err, out)
	}
	for _, want := range []string{"good system grounded; questions paired with ungrounded: 4, with poor: 4", "Faithfulness-type metrics: grounded over ungrounded:",
		"Relevance-type metrics: grounded over poor:", "Reference-based metrics", "Metrics that do not read the answer"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	var rep check.RunValidity
	readJSON(t, jsonOut, &rep)
	find := func(metric, against string) check.ValidityRow {
		t.Helper()
		for _, r := range rep.Rows {
			if r.Metric == metric && r.Against == against {
				return r
			}
		}
		t.Fatalf("no row %s vs %s", metric, against)
		return check.ValidityRow{}
	}
	if r := find("faithfulness_validation", "ungrounded"); r.N != 3 || r.Wins != 1 || r.Ties != 1 || r.Losses != 1 || r.NullBad != 1 || *r.Rate != 0.5 ||
		*r.Lo > 0.5 || *r.Hi < 0.5 || r.Type != "faithfulness" {
		t.Errorf("faithfulness_validation: %+v", r)
	}
	if r := find("faithfulness.contradiction", "ungrounded"); r.N != 4 || r.Wins != 3 || r.Losses != 1 || *r.Rate != 0.75 || r.Direction != "lower is better" {
		t.Errorf("faithfulness.contradiction: %+v", r)
	}
	// A KG score, against the stored values.
	mh := exported(t, db, run, kgeval.DefaultVariant, "faithfulness", "multihop")
	w := 0
	for k := 1; k <= 4; k++ {
		if *mh[fmt.Sprintf("erica-grounded-%d", k)] > *mh[fmt.Sprintf("erica-ungrounded-%d", k)] {
			w++
		}
	}
	if r := find("faithfulness.multihop", "ungrounded"); r.Wins != w || r.N != 4 {
		t.Errorf("faithfulness.multihop: %+v, want %d wins", r, w)
	}
	for _, r := range rep.Rows {
		if r.Metric == "faithfulness.multihop" && r.Against == "poor" {
			t.Error("a faithfulness-type metric compared with the poor answer")
		}
	}
	if r := find("answer_relevancy.multihop", "poor"); r.Type != "relevance" {
		t.Errorf("answer_relevancy.multihop: %+v", r)
	}
	find("semantic_similarity", "ungrounded")
	if r := find("semantic_similarity", "poor"); r.Type != "reference-based" {
		t.Errorf("semantic_similarity: %+v", r)
	}
	if r := find("context_relevancy.multihop", "poor"); r.Type != "does not read the answer" || r.N > 0 && r.Ties != r.N {
		t.Errorf("context_relevancy.multihop: %+v", r)
	}
	var sg *analysis.Separation
	for i, s := range sensRep.Metrics {
		if s.Metric == "ts_groundedness_avg" {
			sg = &sensRep.Metrics[i]
		}
	}
	if r := find("ts_groundedness_avg", "ungrounded"); sg == nil || r.AUROC == nil || *r.AUROC != *sg.AUROC {
		t.Errorf("ts_groundedness_avg AUROC: row %+v, sensitivity %+v", r, sg)
	}
	first, _ := os.ReadFile(md)
	if _, err := runMain(t, cmd...); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(md)
	if string(first) != string(second) || !strings.Contains(string(first), "## Faithfulness-type metrics: grounded over ungrounded") ||
		!strings.Contains(string(first), "| `faithfulness.contradiction` | lower | 0.750 |") {
		t.Errorf("markdown (twice the same: %v):\n%s", string(first) == string(second), first)
	}
	if _, err := runMain(t, append([]string{"validity", "--run", run}, args...)...); kgeval.ErrorCode(err) != kgeval.EINVALID ||
		!strings.Contains(err.Error(), `no system "wikieval_grounded"`) {
		t.Errorf("default systems on a run without them: %v", err)
	}
}
