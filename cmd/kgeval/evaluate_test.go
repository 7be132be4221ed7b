package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/pipeline"
)

// mustRunName returns a unique run name that is deleted when the test ends.
func mustRunName(t *testing.T, db *graphstore.DB, prefix string) string {
	t.Helper()
	b := make([]byte, 4)
	rand.Read(b)
	name := prefix + "-" + hex.EncodeToString(b)
	t.Cleanup(func() {
		if err := db.DeleteRun(context.Background(), name); err != nil && kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
			t.Error(err)
		}
	})
	return name
}

// dbArgs points the program at the test Neo4j.
func dbArgs(t *testing.T) []string {
	t.Setenv("KGEVAL_NEO4J_PASSWORD", graphstoretest.Password())
	return []string{"--neo4j-uri", graphstoretest.URI()}
}

// TestEvaluate_BrokenRecords evaluates a dataset in which 2 of 20 records are
// broken: the run finishes, names each broken record with its number and
// reason, and scores the other 18.
func TestEvaluate_BrokenRecords(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	src, err := os.ReadFile("../../testdata/triplets.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var good []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(src)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		good = append(good, m)
	}
	var lines []string
	for i := 1; i <= 20; i++ {
		switch i {
		case 7:
			lines = append(lines, `{"id": "cut", "question": "What is`) // truncated JSON
		case 15:
			lines = append(lines, `{"id": "noq", "answer": "an answer without its question"}`)
		default:
			m := map[string]any{}
			for k, v := range good[i%len(good)] {
				m[k] = v
			}
			m["id"] = fmt.Sprintf("s%02d", i)
			b, _ := json.Marshal(m)
			lines = append(lines, string(b))
		}
	}
	path := filepath.Join(t.TempDir(), "broken.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := mustRunName(t, db, "broken")
	out, err := runMain(t, append([]string{"evaluate", "--dataset", path, "--run", run, "--engine", "native"}, dbArgs(t)...)...)
	if err != nil {
		t.Fatalf("evaluate: %v\n%s", err, out)
	}
	// The headline first, one row per pair; the full tables only with --all
	// (here on a resume of the finished run, which makes no model call).
	for _, want := range []string{`record 7 rejected: invalid JSON`, `record 15 \(id noq\) rejected: .*question`, `20 records, 18 loaded, 2 rejected`,
		`(?m)^pair +headline +(system +)?mean +n +pass mark +passing +null +why null$`, `(?m)^faithfulness +score +`, `(?m)^context_relevancy +slot_coverage +`,
		`(?m)^\d+ more metrics: kgeval evaluate \.\.\. --all .*, or kgeval export --run ` + run + `$`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output does not match %q:\n%s", want, out)
		}
	}
	if regexp.MustCompile(`(?m)^pair +metric +mean +std`).MatchString(out) {
		t.Errorf("the full table without --all:\n%s", out)
	}
	all, err := runMain(t, append([]string{"evaluate", "--dataset", path, "--run", run, "--engine", "native", "--resume", "--all"}, dbArgs(t)...)...)
	if err != nil {
		t.Fatalf("evaluate --resume --all: %v\n%s", err, all)
	}
	head, full := regexp.MustCompile(`(?m)^pair +headline +(system +)?mean`).FindStringIndex(all), regexp.MustCompile(`(?m)^pair +metric +mean +std +n +null +why null$`).FindStringIndex(all)
	if head == nil || full == nil || head[0] > full[0] || !regexp.MustCompile(`(?m)^faithfulness +multihop +`).MatchString(all) || strings.Contains(all, "more metrics") {
		t.Errorf("evaluate --all: the headline, then the full table:\n%s", all)
	}
	rows := graphstoretest.ExportScores(t, run, kgeval.DefaultVariant)
	scores := 0
	for _, r := range rows {
		for _, s := range r.Scores {
			if s.Value(metricreg.MetricMultihop) != nil || s.Reason != "" { // a value, or null with its reason
				scores++
			}
		}
	}
	if len(rows) != 18 || scores != 18*4 {
		t.Errorf("%d samples stored with %d pair scores; want 18 and 72", len(rows), scores)
	}
	rec, err := db.GetRun(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != kgeval.RunDone || rec.Samples != 18 || rec.Rejected != 2 {
		t.Errorf("run record: status %s, samples %d, rejected %d", rec.Status, rec.Samples, rec.Rejected)
	}
}

// TestSweep evaluates the bundled pre-extracted samples, sweeps a 2 x 2 grid
// and checks the stored variants: the grid point of the run's own tau and
// delta reproduces its multihop scores exactly, and multihop can only rise
// when tau falls (more SIMILAR edges) or delta rises (a looser budget).
func TestSweep(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	run := mustRunName(t, db, "sweep")
	args := dbArgs(t)
	if out, err := runMain(t, append([]string{"evaluate", "--dataset", "../../testdata/triplets.jsonl", "--run", run}, args...)...); err != nil {
		t.Fatalf("evaluate: %v\n%s", err, out)
	}
	out, err := runMain(t, append([]string{"sweep", "--run", run, "--tau", "0.7,0", "--delta", "0.5,1"}, args...)...)
	if err != nil {
		t.Fatalf("sweep: %v\n%s", err, out)
	}
	if !strings.Contains(out, "4 grid points stored as variants; 0 model calls, 0 embedding calls") {
		t.Errorf("sweep output:\n%s", out)
	}
	scores := func(variant string) map[string]*float64 {
		rows := graphstoretest.ExportScores(t, run, variant)
		m := map[string]*float64{}
		for _, r := range rows {
			for pair, s := range r.Scores {
				m[r.ID+"/"+pair] = s.Value(metricreg.MetricMultihop)
			}
		}
		if len(m) != 12 {
			t.Fatalf("variant %s: %d scores, want 12", variant, len(m))
		}
		return m
	}
	def := scores(kgeval.DefaultVariant)
	same := scores(pipeline.SweepVariant(0.7, 0.5))
	looseTau := scores(pipeline.SweepVariant(0, 0.5))
	looseDelta := scores(pipeline.SweepVariant(0.7, 1))
	loose := scores(pipeline.SweepVariant(0, 1))
	changed := 0
	for k, v := range def {
		if fmtPtr(v) != fmtPtr(same[k]) {
			t.Errorf("%s: default multihop %s, sweep at the run's own tau and delta %s", k, fmtPtr(v), fmtPtr(same[k]))
		}
		if v == nil {
			continue
		}
		if *looseTau[k] < *v || *looseDelta[k] < *v || *loose[k] < *looseTau[k] || *loose[k] < *looseDelta[k] {
			t.Errorf("%s: multihop %v fell to %v (tau 0), %v (delta 1) or %v (both)", k, *v, *looseTau[k], *looseDelta[k], *loose[k])
		}
		if *loose[k] != *v {
			changed++
		}
	}
	if changed == 0 {
		t.Error("no score changed over the grid: the sweep did not rebuild or rescore")
	}
	// The text-only checks do not depend on tau or delta: every grid point
	// keeps the default's.
	atoms := func(variant string) map[string]string {
		m := map[string]string{}
		for _, r := range graphstoretest.ExportScores(t, run, variant) {
			for pair, s := range r.Scores {
				m[r.ID+"/"+pair] = fmtPtr(s.Value(metricreg.MetricAtomSupport)) + " " + fmtPtr(s.Value(metricreg.MetricTypedSlotCoverage))
			}
		}
		return m
	}
	defAtoms, looseAtoms, stated := atoms(kgeval.DefaultVariant), atoms(pipeline.SweepVariant(0, 1)), 0
	for k, v := range defAtoms {
		if looseAtoms[k] != v {
			t.Errorf("%s: atom_support, typed_slot_coverage %s in the default, %s at tau 0, delta 1", k, v, looseAtoms[k])
		}
		if !strings.HasPrefix(v, "null") {
			stated++
		}
	}
	if stated == 0 {
		t.Error("no atom_support in the default variant")
	}
	if _, err := runMain(t, append([]string{"sweep", "--run", run + "-missing", "--tau", "0.7", "--delta", "0.5"}, args...)...); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
		t.Errorf("sweep of a missing run: %v, want ENOTFOUND", err)
	}
}

// TestExport_RunPairs exports a run scored with one custom pair while the
// configuration in force has the four default pairs: the CSV columns are
// the run's own pair.
func TestExport_RunPairs(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	run := mustRunName(t, db, "export-pairs")
	args := dbArgs(t)
	cfgFile := filepath.Join(t.TempDir(), "one-pair.yaml")
	if err := os.WriteFile(cfgFile, []byte("scoring:\n  pairs:\n    - {name: grounding, input: answer, context: contexts}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := runMain(t, append([]string{"--config", cfgFile, "evaluate", "--dataset", "../../testdata/triplets.jsonl", "--run", run, "--engine", "native"}, args...)...); err != nil {
		t.Fatalf("evaluate: %v\n%s", err, out)
	}
	out, err := runMain(t, append([]string{"export", "--run", run, "--format", "csv"}, args...)...)
	if err != nil {
		t.Fatalf("export: %v\n%s", err, out)
	}
	header := strings.SplitN(out, "\n", 2)[0]
	if !strings.Contains(header, "grounding.multihop") || strings.Contains(header, "faithfulness.") {
		t.Errorf("CSV header %q: want the run's pair grounding only", header)
	}
}

// TestEvaluate_ModelPreflight: with llm.required (the Python package sets
// it), an evaluation that would call a model endpoint that does not answer
// stops before any work with EUNAVAILABLE naming llm.base_url (no run is
// stored); one that calls no model (rules extraction, verify off), or one
// from the cache alone, does not ask the endpoint.
func TestEvaluate_ModelPreflight(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	t.Setenv("KGEVAL_LLM_REQUIRED", "true")
	t.Setenv("KGEVAL_LLM_BASE_URL", "http://127.0.0.1:1/v1")
	run := mustRunName(t, db, "preflight")
	args := append([]string{"evaluate", "--dataset", "../../testdata/triplets.jsonl", "--run", run, "--engine", "native", "--metrics", "kg"}, dbArgs(t)...)
	t.Setenv("KGEVAL_SCORING_VERIFY", "cascade") // the defaults ask no model (issue 50)
	out, err := runMain(t, args...)
	if kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE || !strings.Contains(err.Error(), "http://127.0.0.1:1/v1 (llm.base_url) does not answer") ||
		!strings.Contains(err.Error(), "scoring.verify cascade") {
		t.Fatalf("err = %v\n%s", err, out)
	}
	if _, err := db.GetRun(context.Background(), run); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
		t.Errorf("a run was stored before the preflight failed: %v", err)
	}
	t.Setenv("KGEVAL_EXTRACTION_METHOD", "rules")
	t.Setenv("KGEVAL_SCORING_VERIFY", "off")
	if out, err := runMain(t, args...); err != nil {
		t.Fatalf("rules, verify off: %v\n%s", err, out)
	}
}

// TestEvaluate_Traces: evaluate --traces turns recorded spans into samples
// and scores them in one step (the samples import-traces writes); --system
// names their system; --dataset and --traces exclude each other.
func TestEvaluate_Traces(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	t.Setenv("KGEVAL_EXTRACTION_METHOD", "rules")
	t.Setenv("KGEVAL_SCORING_VERIFY", "off")
	noLLM(t)
	run := mustRunName(t, db, "traces")
	spans := "../../testdata/traces/langchain-otlp.jsonl"
	out, err := runMain(t, append([]string{"evaluate", "--traces", spans, "--system", "rag-v1", "--run", run, "--engine", "native", "--metrics", "kg"}, dbArgs(t)...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "otlp-json, 22 spans in 3 traces: 2 samples, 1 rejected") {
		t.Errorf("no import line:\n%s", out)
	}
	rows := graphstoretest.ExportScores(t, run, kgeval.DefaultVariant)
	if len(rows) != 2 || rows[0].System != "rag-v1" {
		t.Fatalf("rows %+v", rows)
	}
	want, err := runMain(t, "import-traces", spans)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if !strings.Contains(want, `"id":"`+r.ID+`"`) {
			t.Errorf("sample %s is not one import-traces gives:\n%s", r.ID, want)
		}
	}
	if _, err := runMain(t, "evaluate", "--traces", spans, "--dataset", spans); kgeval.ErrorCode(err) != kgeval.EINVALID {
		t.Errorf("--traces with --dataset: %v", err)
	}
}
