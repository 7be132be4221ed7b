package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/metricreg"
)

// TestRuns evaluates the bundled pre-extracted samples (no model call) into
// a run of its own, then reads it back with `runs list`, `runs show` and
// `explain`, and deletes it with `runs delete`; every command's unknown
// run or sample is ENOTFOUND.
func TestRuns(t *testing.T) {
	noLLM(t)
	db := graphstoretest.MustOpenDB(t)
	args := dbArgs(t)
	run := mustRunName(t, db, "runs")
	mustEvaluate(t, copiesOfTriplets(t, 1, nil), run, args)
	cli := func(a ...string) (string, error) { return runMain(t, append(a, args...)...) }

	t.Run("List", func(t *testing.T) {
		out, err := cli("runs", "list")
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if !strings.HasPrefix(out, "name ") || !regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(run)+` +done +3 +\S+ +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +\S*copies\.jsonl$`).MatchString(out) {
			t.Errorf("no line for %s (done, 3 samples, its dataset):\n%s", run, out)
		}
	})

	t.Run("JSON", func(t *testing.T) {
		out, err := cli("runs", "list", "--json")
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		var runs []kgeval.Run
		if err := json.Unmarshal([]byte(out), &runs); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		found := false
		for _, r := range runs {
			found = found || r.Name == run && r.Status == kgeval.RunDone && r.Samples == 3
		}
		if !found {
			t.Errorf("runs list --json lacks %s (done, 3 samples):\n%s", run, out)
		}
		out, err = cli("runs", "show", run, "--json")
		var r kgeval.Run
		if err != nil || json.Unmarshal([]byte(out), &r) != nil || r.Name != run || r.Samples != 3 || r.Calls == nil {
			t.Errorf("runs show --json: %v\n%s", err, out)
		}
		if _, err := cli("runs", "show", run+"-nope", "--json"); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
			t.Errorf("runs show --json of no run: %v", err)
		}
	})

	t.Run("Show", func(t *testing.T) {
		out, err := cli("runs", "show", run)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		for _, want := range []string{"run " + run + ": done\n", "copies.jsonl (sha256 ", ", 3 samples, 0 rejected\n", "resumed 0 times\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("missing %q in\n%s", want, out)
			}
		}
		// The multihop column holds the mean of the stored values.
		var header []string
		rows := map[string][]string{}
		for _, l := range strings.Split(out, "\n") {
			f := strings.Fields(l)
			switch {
			case len(f) > 0 && f[0] == "pair":
				header = f
			case header != nil && len(f) == len(header):
				rows[f[0]] = f
			}
		}
		col := -1
		for i, h := range header {
			if h == metricreg.MetricMultihop {
				col = i
			}
		}
		fa := rows["faithfulness"]
		if col < 0 || fa == nil {
			t.Fatalf("no multihop column or no faithfulness row:\n%s", out)
		}
		var sum float64
		n := 0
		for _, v := range exported(t, db, run, kgeval.DefaultVariant, "faithfulness", "multihop") {
			if v != nil {
				sum += *v
				n++
			}
		}
		if fa[1] != "3" || fa[col] != fmt.Sprintf("%.3f", sum/float64(n)) {
			t.Errorf("faithfulness row %v: want 3 graphs and multihop %.3f (mean of %d stored values)", fa, sum/float64(n), n)
		}
		if _, err := cli("runs", "show", run+"-nope"); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
			t.Errorf("show of an unknown run: %v", err)
		}
	})

	t.Run("Explain", func(t *testing.T) {
		sample := "erica-ungrounded-1"
		out, err := cli("explain", "--run", run, "--sample", sample)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		t.Log("\n" + out)
		for _, want := range []string{
			"sample " + sample + " (system ungrounded), run " + run + "\n",
			"\nfaithfulness (answer → contexts): ",
			"  NOT FOUND     (Erica vagans; is called; Scottish thistle)\n",
			"  NOT FOUND     (Erica vagans; grows in; Japan)\n",
			"  NOT STATED    \"Japan\" (name)\n",
			"\nanswer_relevancy (question → answer): ",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("missing %q", want)
			}
		}
		// The answer states neither fact of the passages: no input triplet
		// of faithfulness is supported.
		faith := out[strings.Index(out, "\nfaithfulness"):]
		if i := strings.Index(faith[1:], "\n\n"); i >= 0 {
			faith = faith[:i+1]
		}
		if regexp.MustCompile(`(?m)^  SUPPORTED +\(`).MatchString(faith) {
			t.Errorf("a supported triplet in the ungrounded answer's faithfulness:\n%s", faith)
		}

		// The grounded answer's triplet is supported, with its evidence.
		grounded, err := cli("explain", "--run", run, "--sample", "erica-grounded-1", "--pair", "faithfulness")
		if err != nil || !strings.Contains(grounded, "  SUPPORTED     (Erica vagans; is also called; Cornish heath)\n") ||
			!strings.Contains(grounded, "evidence (Erica vagans; is also called; Cornish heath) [passage 1]") {
			t.Errorf("grounded sample (err %v):\n%s", err, grounded)
		}

		only, err := cli("explain", "--run", run, "--sample", sample, "--pair", "answer_relevancy")
		if err != nil || strings.Contains(only, "faithfulness") || !strings.Contains(only, "answer_relevancy (") {
			t.Errorf("--pair answer_relevancy (err %v):\n%s", err, only)
		}
		if _, err := cli("explain", "--run", run); kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.Contains(err.Error(), "--run and --sample are required") {
			t.Errorf("explain without --sample: %v", err)
		}
		if _, err := cli("explain", "--run", run, "--sample", "nope"); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
			t.Errorf("explain of an unknown sample: %v", err)
		}
		if _, err := cli("explain", "--run", run+"-nope", "--sample", sample); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
			t.Errorf("explain in an unknown run: %v", err)
		}
	})

	t.Run("Delete", func(t *testing.T) {
		out, err := cli("runs", "delete", run)
		if err != nil || out != "deleted run "+run+"\n" {
			t.Fatalf("delete: %q, %v", out, err)
		}
		if _, err := cli("runs", "show", run); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
			t.Errorf("show after delete: %v, want ENOTFOUND", err)
		}
		if list, err := cli("runs", "list"); err != nil || strings.Contains(list, run+" ") {
			t.Errorf("list after delete (err %v) still names %s:\n%s", err, run, list)
		}
		if _, err := cli("runs", "delete", run); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
			t.Errorf("second delete: %v, want ENOTFOUND", err)
		}
	})
}
