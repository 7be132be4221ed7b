package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/render"
)

// runMain runs the program in process and returns its output and error.
func runMain(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	m := NewMain(&out, &out)
	err := m.Run(context.Background(), args)
	return out.String(), err
}

func TestMain_Flags(t *testing.T) {
	_, err := runMain(t, "evaluate", "--engine", "spark")
	if err == nil || !strings.Contains(err.Error(), "scoring.engine = spark") {
		t.Errorf("err = %v", err)
	}
	if _, err := runMain(t, "export", "--run", "x", "--format", "xml"); err == nil || !strings.Contains(err.Error(), "want jsonl or csv") {
		t.Errorf("export --format xml: %v", err)
	}
	if _, err := runMain(t, "export", "graph", "--run", "x"); err == nil || !strings.Contains(err.Error(), "--sample and --pair are required") {
		t.Errorf("export graph without --sample: %v", err)
	}
	out, err := runMain(t, "version")
	if err != nil || !strings.HasPrefix(out, "kgeval ") {
		t.Errorf("version: %q %v", out, err)
	}
	out, err = runMain(t, "config")
	if err != nil || !strings.Contains(out, "tau: 0.7") {
		t.Errorf("config: %v\n%s", err, out)
	}
}

func TestDatasetCheck(t *testing.T) {
	out, err := runMain(t, "dataset", "check", filepath.Join("..", "..", "dataset", "testdata", "broken.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"9 records, 2 loaded, 7 rejected", "record 2 (id b) rejected: wrong type: field question", "record 10 rejected: invalid JSON"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	_, err = runMain(t, "dataset", "check", "--strict", filepath.Join("..", "..", "dataset", "testdata", "broken.jsonl"))
	if kgeval.ErrorCode(err) != kgeval.EINVALID {
		t.Errorf("--strict: err = %v", err)
	}
	_, err = runMain(t, "dataset", "check", "nope.jsonl")
	if err == nil || !strings.Contains(err.Error(), "nope.jsonl: no such file") {
		t.Errorf("missing file: %v", err)
	}
}

// TestDoctor runs doctor against the Neo4j `make test` started, then against
// a port where nothing listens.
func TestDoctor(t *testing.T) {
	if os.Getenv("KGEVAL_NEO4J_URI") == "" || os.Getenv("KGEVAL_NEO4J_PASSWORD") == "" {
		t.Fatal("KGEVAL_NEO4J_URI / KGEVAL_NEO4J_PASSWORD not set: run `make test`, which starts Neo4j")
	}
	out, err := runMain(t, "doctor", "--fix")
	for _, want := range []string{"ok    neo4j      Neo4j 5.26", "ok    gds        Graph Data Science 2.13", "ok    schema"} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q (err %v):\n%s", want, err, out)
		}
	}
	t.Setenv("KGEVAL_NEO4J_URI", "bolt://127.0.0.1:1")
	t.Setenv("KGEVAL_NEO4J_CONNECT_TIMEOUT", "2s")
	out, err = runMain(t, "doctor")
	if kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE || exitCode(err) != 3 {
		t.Errorf("stopped Neo4j: err %v, exit %d", err, exitCode(err))
	}
	line := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "neo4j ") {
			line = l
		}
	}
	if !strings.HasPrefix(line, "FAIL  neo4j") || !strings.Contains(line, "not reachable") || !strings.Contains(line, "make neo4j-start") {
		t.Errorf("neo4j line = %q, want a FAIL with what to do", line)
	}
}

func TestTopReason(t *testing.T) {
	cases := []struct {
		in   map[string]int
		want string
	}{
		{map[string]int{}, ""},
		{map[string]int{"no facts extracted from answer": 3}, "no facts extracted from answer (3)"},
		{
			// The real nulls of llm_factual_correctness on WikiEval: the
			// model's rejected answers differ, the kind does not.
			map[string]int{
				"no facts extracted from answer": 3,
				"TP/FN labels: fact_labels.v2: model m gave no valid JSON after 3 attempts: label 2 is FN but matches answer fact 6": 1,
				"TP/FN labels: fact_labels.v2: model m gave no valid JSON after 3 attempts: label 1 is FN but matches answer fact 3": 2,
				"TP/FN labels: fact_labels.v2: model m gave no valid JSON after 3 attempts: label 3 is FN but matches answer fact 1": 2,
				"TP/FN labels: fact_labels.v2: model m gave no valid JSON after 3 attempts: label 2 is FN but matches answer fact 1": 1,
			},
			"TP/FN labels: fact_labels.v2: model m gave no valid JSON after 3 attempts (6); no facts extracted from answer (3)",
		},
		{map[string]int{"b": 2, "a": 2, "c": 1, "d": 4}, "d (4); a (2); 2 other kinds (3)"},
	}
	for _, c := range cases {
		if got := render.TopReason(c.in); got != c.want {
			t.Errorf("render.TopReason(%v)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
