package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/kgeval/kgeval/graphstore/graphstoretest"
)

var updateGolden = flag.Bool("update", false, "rewrite the replay goldens in testdata/golden (TestEvaluate_ReplayGolden)")

// replaySamples is how many records of testdata/wikieval50.jsonl the golden
// replay evaluates: 4 questions, each with its grounded, ungrounded and
// poor answer.
const replaySamples = 12

// TestEvaluate_ReplayGolden replays the first records of WikiEval-50 from
// the bundled snapshot with --cache-only, as make validity does, with the
// default extraction (both) and the model's triplets alone (llm), and
// compares each export with the committed one in testdata/golden: a
// replay's scores are a function of the snapshot and the configuration, on
// any machine (label vectors recomputed with other last bits had moved
// win rates of the committed validity reports). After an intended
// change of the scores, rewrite the goldens with
//
//	go test ./cmd/kgeval -run TestEvaluate_ReplayGolden -update
//
// and regenerate the reports (make validity).
func TestEvaluate_ReplayGolden(t *testing.T) {
	noLLM(t)
	db := graphstoretest.MustOpenDB(t)
	args := dbArgs(t)
	if out, err := runMain(t, append([]string{"cache", "import", "--overwrite", "../../testdata/cache/wikieval50.jsonl.gz"}, args...)...); err != nil {
		t.Fatalf("cache import: %v\n%s", err, out)
	}
	data := filepath.Join(t.TempDir(), "wikieval50-head.jsonl")
	writeHead(t, "../../testdata/wikieval50.jsonl", data, replaySamples)
	for _, c := range []struct{ method, metrics string }{
		{"both", "kg,ts,semantic_similarity,bert_score_f1,k_precision"},
		{"llm", "kg,ts,k_precision"},
	} {
		t.Run(c.method, func(t *testing.T) {
			t.Setenv("KGEVAL_EXTRACTION_METHOD", c.method)
			// The snapshot holds extraction and asked-fact answers, not
			// claim checks: replayed as make validity does, without them.
			t.Setenv("KGEVAL_SCORING_VERIFY", "off")
			run := mustRunName(t, db, "replay-golden-"+c.method)
			out, err := runMain(t, append([]string{"evaluate", "--dataset", data, "--run", run, "--cache-only", "--metrics", c.metrics}, args...)...)
			if err != nil || !strings.Contains(out, "cache-only: model calls 0; 0 requests not in the cache (refused)") {
				t.Fatalf("evaluate --cache-only: %v\n%s", err, out)
			}
			got := filepath.Join(t.TempDir(), "export.jsonl")
			if out, err := runMain(t, append([]string{"export", "--run", run, "--out", got}, args...)...); err != nil {
				t.Fatalf("export: %v\n%s", err, out)
			}
			compareGolden(t, got, filepath.Join("..", "..", "testdata", "golden", fmt.Sprintf("replay-wikieval50-%d-%s.jsonl", replaySamples, c.method)))
		})
	}
}

// writeHead copies the first n lines of src to dst.
func writeHead(t *testing.T, src, dst string, n int) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if len(lines) < n {
		t.Fatalf("%s has %d lines, want at least %d", src, len(lines), n)
	}
	if err := os.WriteFile(dst, []byte(strings.Join(lines[:n], "")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// compareGolden compares the export at got with the golden file want byte
// for byte (-update rewrites want) and names every value that differs.
func compareGolden(t *testing.T, got, want string) {
	t.Helper()
	g, err := os.ReadFile(got)
	if err != nil {
		t.Fatal(err)
	}
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(want), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(want, g, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", want)
		return
	}
	w, err := os.ReadFile(want)
	if err != nil {
		t.Fatalf("%v (write it with -update)", err)
	}
	if bytes.Equal(g, w) {
		return
	}
	diffs := exportDiff(t, w, g)
	const show = 20
	more := ""
	if len(diffs) > show {
		more = fmt.Sprintf("\n... and %d more", len(diffs)-show)
		diffs = diffs[:show]
	}
	t.Errorf("the replay's export differs from %s in %d values (golden -> replay):\n%s%s\nA replay must not depend on the machine; after an intended change run this test with -update and make validity",
		want, len(diffs), strings.Join(diffs, "\n"), more)
}

// exportDiff lists the values that differ between two exports, as
// "sample path: golden -> replay", sorted.
func exportDiff(t *testing.T, want, got []byte) []string {
	t.Helper()
	flat := func(b []byte) map[string]string {
		out := map[string]string{}
		for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var row map[string]any
			if err := json.Unmarshal([]byte(line), &row); err != nil {
				t.Fatalf("export line %d: %v", i+1, err)
			}
			flatten(fmt.Sprint(row["id"]), row, out)
		}
		return out
	}
	w, g := flat(want), flat(got)
	var diffs []string
	for k, v := range w {
		if g[k] != v {
			diffs = append(diffs, fmt.Sprintf("%s: %s -> %s", k, v, orNone(g[k])))
		}
	}
	for k, v := range g {
		if _, ok := w[k]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s: (none) -> %s", k, v))
		}
	}
	sort.Strings(diffs)
	return diffs
}

func flatten(prefix string, v any, out map[string]string) {
	if m, ok := v.(map[string]any); ok {
		for k, x := range m {
			flatten(prefix+" "+k, x, out)
		}
		return
	}
	b, _ := json.Marshal(v)
	out[prefix] = string(b)
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
