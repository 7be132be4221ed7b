package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgeval/kgeval/export"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/render"
)

// TestMachineOutputs: what the Python package reads. evaluate --json prints
// one JSON object on standard output (the dataset report and progress go to
// standard error) with the rejected record and its reason; export
// --headline adds the headline and pass to export's rows; export claims has
// one row per claim of the run's stored claim checks.
func TestMachineOutputs(t *testing.T) {
	noLLM(t)
	db := graphstoretest.MustOpenDB(t)
	args := dbArgs(t)
	src := copiesOfTriplets(t, 1, nil)
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(t.TempDir(), "d.jsonl")
	if err := os.WriteFile(data, append(b, []byte(`{"id": "broken", "answer": "no question"}`+"\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	run := mustRunName(t, db, "machine")
	var stdout, stderr bytes.Buffer
	m := NewMain(&stdout, &stderr)
	if err := m.Run(context.Background(), append([]string{"evaluate", "--dataset", data, "--run", run, "--json", "--metrics", "kg"}, args...)); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var ev render.EvaluationOutput
	if err := json.Unmarshal(stdout.Bytes(), &ev); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout.String())
	}
	if ev.Run != run || ev.Samples != 3 || len(ev.Rejected) != 1 || ev.Rejected[0].ID != "broken" || ev.Rejected[0].Reason == "" || len(ev.Headline) == 0 {
		t.Errorf("evaluate --json: %+v", ev)
	}
	if !strings.Contains(stderr.String(), "rejected") {
		t.Errorf("the dataset report is not on standard error:\n%s", stderr.String())
	}
	out, err := runMain(t, append([]string{"export", "--run", run, "--headline"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := runMain(t, append([]string{"export", "--run", run}, args...)...)
	lines, plainLines := strings.Split(strings.TrimSpace(out), "\n"), strings.Split(strings.TrimSpace(plain), "\n")
	if len(lines) != 3 || len(plainLines) != 3 {
		t.Fatalf("export --headline:\n%s", out)
	}
	for i, l := range lines {
		var row struct {
			export.Row
			Headline map[string]export.Headline `json:"headline"`
			Pass     *bool                      `json:"pass"`
		}
		if err := json.Unmarshal([]byte(l), &row); err != nil {
			t.Fatal(err)
		}
		if h, ok := row.Headline["faithfulness"]; !ok || h.Metric == "" || (h.Value != nil) != (h.Pass != nil) {
			t.Errorf("row %d headline %+v", i, row.Headline)
		}
		var a, b map[string]any
		_ = json.Unmarshal([]byte(l), &a)
		_ = json.Unmarshal([]byte(plainLines[i]), &b)
		delete(a, "headline")
		delete(a, "pass")
		if ja, jb := mustJSON(t, a), mustJSON(t, b); ja != jb {
			t.Errorf("row %d: --headline changes the export's columns:\n%s\n%s", i, ja, jb)
		}
	}
	out, err = runMain(t, append([]string{"export", "claims", "--run", run}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var c export.ClaimRow
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		if c.Text == "" || c.Verdict == "" || c.Pair == "" || c.ID == "" {
			t.Errorf("claim %+v", c)
		}
		n++
	}
	if n == 0 {
		t.Errorf("export claims wrote no claim")
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
