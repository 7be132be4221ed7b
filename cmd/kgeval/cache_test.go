package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cachefile"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/runner"
)

// snapshotLines returns the lines of a snapshot file (gunzipped): the
// header first.
func snapshotLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func writeGz(t *testing.T, path string, lines []string) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(strings.Join(lines, "\n") + "\n"))
	zw.Close()
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// cacheKind deletes, when the test ends, every cache entry of kind (a
// kind unique to the test).
func cacheKind(t *testing.T, db *graphstore.DB, kind string) {
	t.Cleanup(func() {
		c := &graphstore.Cache{DB: db}
		es, err := c.Entries(context.Background(), kgeval.CacheFilter{Kinds: []string{kind}}, "", 100000)
		if err != nil {
			t.Error(err)
			return
		}
		var keys []string
		for _, e := range es {
			keys = append(keys, e.Key)
		}
		if err := c.Delete(context.Background(), keys); err != nil {
			t.Error(err)
		}
	})
}

// TestCache_ExportImport exports the entries a run used, deletes them,
// imports the file and exports again: the entry lines are identical, and
// two exports of one store are byte-identical with --no-time. Import is
// idempotent, finishes an import cut short, keeps or overwrites existing
// keys, reports a malformed line with its number and goes on, refuses an
// unknown format, and warns about other prompt versions and models.
func TestCache_ExportImport(t *testing.T) {
	db := graphstoretest.MustOpenDB(t)
	ctx := context.Background()
	args := dbArgs(t)
	dir := t.TempDir()
	stamp := time.Now().UnixNano()
	kind := fmt.Sprintf("exptest%d", stamp) // only this test's entries have this kind
	cacheKind(t, db, kind)
	run := mustRunName(t, db, "cache-export")
	cfg, _ := json.Marshal(map[string]any{"Scoring": map[string]any{"Metrics": []string{"kg", "ts"}}})
	if err := db.CreateRun(ctx, kgeval.Run{Name: run, Dataset: "d.jsonl", Fingerprint: "f00d", Config: string(cfg), LLM: "http://127.0.0.1:1/v1#model-a",
		Encoder: "enc-a", Engine: "native", Status: kgeval.RunDone, Started: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	if err := db.UpdateRun(ctx, run, kgeval.RunUpdate{Calls: &kgeval.Calls{Calls: 7, Failures: 2}}); err != nil {
		t.Fatal(err)
	}
	key := func(i int) string { return fmt.Sprintf("%s:%02d", kind, i) }
	used := map[string][]byte{}
	for i := range 5 {
		used[key(i)] = []byte(fmt.Sprintf(`{"triplets":[{"subject":"<Ærø %d>","relation":"&","object":"\"x\"\n"}]}`, i))
	}
	if err := (&graphstore.Cache{DB: db, Run: run}).Put(ctx, used); err != nil {
		t.Fatal(err)
	}
	plain := &graphstore.Cache{DB: db}
	if err := plain.Put(ctx, map[string][]byte{key(7): []byte("not used by the run"), key(8): []byte("nor this")}); err != nil {
		t.Fatal(err)
	}
	export := func(out string, extra ...string) string {
		t.Helper()
		o, err := runMain(t, append(append([]string{"cache", "export", "--out", out, "--kind", kind}, extra...), args...)...)
		if err != nil {
			t.Fatalf("cache export: %v\n%s", err, o)
		}
		return o
	}
	importFile := func(file string, extra ...string) (string, error) {
		return runMain(t, append(append([]string{"cache", "import", file}, extra...), args...)...)
	}
	f1, f1b := filepath.Join(dir, "f1.jsonl.gz"), filepath.Join(dir, "f1b.jsonl.gz")
	if o := export(f1, "--run", run, "--no-time"); !strings.Contains(o, "5 entries ("+kind+" 5)") {
		t.Errorf("export output: %s", o)
	}
	export(f1b, "--run", run, "--no-time")
	a, _ := os.ReadFile(f1)
	b, _ := os.ReadFile(f1b)
	if !bytes.Equal(a, b) {
		t.Error("two exports of the same store differ")
	}
	lines := snapshotLines(t, f1)
	var h cachefile.Header
	if err := json.Unmarshal([]byte(lines[0]), &h); err != nil {
		t.Fatal(err)
	}
	if h.Format != cachefile.Format || h.Entries != 5 || h.Counts[kind] != 5 || len(h.Runs) != 1 || h.Runs[0].Model != "model-a" ||
		h.Runs[0].Encoder != "enc-a" || strings.Join(h.Runs[0].Metrics, ",") != "kg,ts" || h.Exported != nil || h.Runs[0].ModelCalls != 7 || h.Runs[0].Failed != 2 ||
		!slices.Contains(h.Prompts["extraction"], llm.ExtractPromptVersion) || len(h.Prompts["judge"]) == 0 {
		t.Errorf("header %s", lines[0])
	}
	entryLines := lines[1:]
	if len(entryLines) != 5 || !slices.IsSorted(entryLines) {
		t.Fatalf("entry lines %v", entryLines)
	}
	var keys []string
	for k := range used {
		keys = append(keys, k)
	}

	// stats of the run.
	o, err := runMain(t, append([]string{"cache", "stats", "--run", run}, args...)...)
	if err != nil || !regexpMatch(`(?m)^`+kind+`\s+5\s+5\s`, o) {
		t.Errorf("stats: %v\n%s", err, o)
	}

	// Round trip: delete, import, export the kind again.
	if err := plain.Delete(ctx, keys); err != nil {
		t.Fatal(err)
	}
	o, err = importFile(f1)
	if err != nil || !strings.Contains(o, "5 entries ("+kind+" 5): 5 new, 0 kept, 0 overwritten; 0 malformed lines skipped") {
		t.Fatalf("import: %v\n%s", err, o)
	}
	o, err = importFile(f1)
	if err != nil || !strings.Contains(o, "0 new, 5 kept, 0 overwritten") {
		t.Errorf("second import: %v\n%s", err, o)
	}
	f2 := filepath.Join(dir, "f2.jsonl.gz")
	export(f2, "--no-time")
	var again []string
	for _, l := range snapshotLines(t, f2)[1:] {
		if !strings.Contains(l, "used") && !strings.Contains(l, "nor this") {
			again = append(again, l)
		}
	}
	if strings.Join(again, "\n") != strings.Join(entryLines, "\n") {
		t.Errorf("entry lines after the round trip:\n%s\nwant\n%s", strings.Join(again, "\n"), strings.Join(entryLines, "\n"))
	}

	// An import cut short, then run again: the same store, nothing twice.
	if err := plain.Delete(ctx, keys); err != nil {
		t.Fatal(err)
	}
	big := append(slices.Clone(lines), strings.Repeat(`{"key":"`+key(9)+`","value":"`+strings.Repeat("z", 5000)+`"}`, 1))
	writeGz(t, filepath.Join(dir, "big.jsonl.gz"), big)
	bigBytes, _ := os.ReadFile(filepath.Join(dir, "big.jsonl.gz"))
	cut := filepath.Join(dir, "cut.jsonl.gz")
	if err := os.WriteFile(cut, bigBytes[:len(bigBytes)-30], 0o644); err != nil { // a crash while copying the file
		t.Fatal(err)
	}
	o, err = importFile(cut)
	if kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.Contains(err.Error(), "cut short or corrupt") {
		t.Fatalf("import of a cut file: %v\n%s", err, o)
	}
	if got, _ := plain.Get(ctx, keys); len(got) != 5 {
		t.Errorf("the cut import stored %d of the 5 entries before the break", len(got))
	}
	o, err = importFile(f1)
	if err != nil || !strings.Contains(o, "0 new, 5 kept") {
		t.Errorf("import after the cut one: %v\n%s", err, o)
	}
	f3 := filepath.Join(dir, "f3.jsonl.gz")
	export(f3, "--no-time")
	if n := len(snapshotLines(t, f3)) - 1; n != 7 {
		t.Errorf("%d entries of the kind after the cut import and its rerun, want 7", n)
	}

	// Existing keys with another value: kept, or overwritten.
	if err := plain.Put(ctx, map[string][]byte{key(2): []byte("changed")}); err != nil {
		t.Fatal(err)
	}
	o, err = importFile(f1)
	if err != nil || !strings.Contains(o, "5 kept (1 of them differ from the file; --overwrite replaces them), 0 overwritten") {
		t.Errorf("import over a changed entry: %v\n%s", err, o)
	}
	o, err = importFile(f1, "--overwrite")
	if got, _ := plain.Get(ctx, []string{key(2)}); err != nil || !strings.Contains(o, "4 kept, 1 overwritten") || string(got[key(2)]) != string(used[key(2)]) {
		t.Errorf("import --overwrite: %v, %s\n%s", err, got[key(2)], o)
	}

	// A malformed line: reported with its number, the rest imported.
	if err := plain.Delete(ctx, keys); err != nil {
		t.Fatal(err)
	}
	bad := slices.Clone(lines)
	bad = slices.Insert(bad, 3, `{"key":"`+kind+`:bad","value":`)
	badFile := filepath.Join(dir, "bad.jsonl.gz")
	writeGz(t, badFile, bad)
	o, err = importFile(badFile)
	if kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.Contains(o, "bad.jsonl.gz: line 4: not a JSON object") || !strings.Contains(o, "5 new") {
		t.Errorf("malformed line: %v\n%s", err, o)
	}

	// An unknown format is refused before anything is stored.
	unknown := filepath.Join(dir, "v9.jsonl.gz")
	writeGz(t, unknown, []string{`{"format":"kgeval-cache/9","entries":1}`, `{"key":"` + key(11) + `","value":"x"}`})
	o, err = importFile(unknown)
	if kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.Contains(err.Error(), `unknown cache snapshot format "kgeval-cache/9"`) || exitCode(err) != 2 {
		t.Errorf("unknown format: %v\n%s", err, o)
	}
	if got, _ := plain.Get(ctx, []string{key(11)}); len(got) != 0 {
		t.Error("a file of unknown format was imported")
	}

	// Other prompt versions and another model: warnings.
	var old cachefile.Header
	_ = json.Unmarshal([]byte(lines[0]), &old)
	old.Prompts = runner.Prompts()
	old.Prompts["extraction"] = []string{"extract_triplets.v1", llm.AskedPromptVersion}
	hb, _ := json.Marshal(old)
	oldFile := filepath.Join(dir, "old.jsonl.gz")
	writeGz(t, oldFile, append([]string{string(hb)}, entryLines...))
	o, err = importFile(oldFile)
	for _, want := range []string{"made with prompt versions this kgeval does not send (extract_triplets.v1)", "made without prompt versions this kgeval sends (" + llm.ExtractPromptVersion + ")",
		"its runs used model model-a, llm.model is qwen2.5-coder-1.5b-instruct", "its runs used encoder enc-a"} {
		if err != nil || !strings.Contains(o, want) {
			t.Errorf("import of an old snapshot: %v, output lacks %q:\n%s", err, want, o)
		}
	}

	if _, err := runMain(t, append([]string{"cache", "export", "--out", filepath.Join(dir, "x.gz"), "--run", run + "-nope"}, args...)...); kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
		t.Errorf("export of an unknown run: %v", err)
	}
}

// mustNotCallModel is an OpenAI-compatible endpoint that fails the test
// when any request reaches it.
func mustNotCallModel(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the model server was called: %s %s", r.Method, r.URL.Path)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// TestEvaluate_CacheOnlyReplay imports a snapshot holding the model's
// extraction answers for a small dataset and evaluates it with --cache-only
// against a model server that fails the test if called: the run finishes
// with 0 model calls, and `cache export --run` writes back exactly the
// entries it used (the answers and the label vectors). With one text more
// than the snapshot holds, that request is refused at once (still no
// call) and only its values are null.
func TestEvaluate_CacheOnlyReplay(t *testing.T) {
	// The snapshot holds extraction answers alone: no claim question; the
	// model extracts (rules is the default).
	t.Setenv("KGEVAL_SCORING_VERIFY", "off")
	t.Setenv("KGEVAL_EXTRACTION_METHOD", "both")
	db := graphstoretest.MustOpenDB(t)
	args := append(dbArgs(t), "--llm-base-url", mustNotCallModel(t))
	dir := t.TempDir()
	stamp := time.Now().UnixNano()
	// A model name of its own makes every extraction key unique to this
	// test, and a token in every label every vector key.
	model := fmt.Sprintf("replay-test-%d", stamp)
	tok := fmt.Sprintf("Zq%d", stamp%1e6)
	args = append(args, "--llm-model", model)
	tr := func(s, r, o string) kgeval.Triplet { return kgeval.Triplet{Subject: s, Relation: r, Object: o} }
	type rec struct {
		q, a, ref, ctx string
		qt, at, rt     []kgeval.Triplet
		ct             [][3]string
	}
	recs := []rec{
		{q: "What is another name for Erica " + tok + "?", a: "Erica " + tok + " is also called Cornish " + tok + ".", ref: "Erica " + tok + " is known as the Cornish " + tok + ".",
			ctx: "Erica " + tok + ", the Cornish " + tok + ", is a heath of the family Ericaceae " + tok + ".",
			qt:  []kgeval.Triplet{tr("Erica "+tok, "is also called", "?")}, at: []kgeval.Triplet{tr("Erica "+tok, "is also called", "Cornish "+tok)},
			rt: []kgeval.Triplet{tr("Erica "+tok, "is known as", "Cornish "+tok)}, ct: [][3]string{{"Erica " + tok, "is also called", "Cornish " + tok}, {"Erica " + tok, "belongs to", "Ericaceae " + tok}}},
		{q: "Where is the tower " + tok + "?", a: "The tower " + tok + " stands in Paris " + tok + ".", ref: "The tower " + tok + " is in Paris " + tok + ".",
			ctx: "The tower " + tok + " is a lattice tower in Paris " + tok + ".",
			qt:  []kgeval.Triplet{tr("tower "+tok, "is located in", "?")}, at: []kgeval.Triplet{tr("tower "+tok, "stands in", "Paris "+tok)},
			rt: []kgeval.Triplet{tr("tower "+tok, "is in", "Paris "+tok)}, ct: [][3]string{{"tower " + tok, "is located in", "Paris " + tok}}},
	}
	x := &llm.Extractor{Client: llm.New(llm.Config{Model: model})}
	answer := func(ts []kgeval.Triplet) string {
		b, _ := json.Marshal(map[string]any{"triplets": ts})
		return string(b)
	}
	var dataLines []string
	var entries []string
	for i, r := range recs {
		b, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("r%d", i), "question": r.q, "answer": r.a, "reference": r.ref, "contexts": []string{r.ctx},
			"triplets": map[string]any{"contexts": [][][3]string{r.ct}}})
		dataLines = append(dataLines, string(b))
		for _, e := range []struct {
			it llm.ExtractItem
			ts []kgeval.Triplet
		}{{llm.ExtractItem{Text: r.q, Asked: true}, r.qt}, {llm.ExtractItem{Text: r.a, Question: r.q}, r.at}, {llm.ExtractItem{Text: r.ref, Question: r.q}, r.rt}} {
			l, _ := json.Marshal(cachefile.Entry{Key: x.Key(e.it), Value: answer(e.ts)})
			entries = append(entries, string(l))
		}
	}
	slices.Sort(entries)
	var keys []string
	for _, l := range entries {
		var e cachefile.Entry
		_ = json.Unmarshal([]byte(l), &e)
		keys = append(keys, e.Key)
	}
	cache := &graphstore.Cache{DB: db}
	t.Cleanup(func() { _ = cache.Delete(context.Background(), keys) })
	h, _ := json.Marshal(cachefile.Header{Format: cachefile.Format, Kgeval: "test", Prompts: runner.Prompts(), Counts: map[string]int{"extract": len(entries)}, Entries: len(entries),
		Runs: []cachefile.Run{{Name: "made-by-hand", Model: model, Encoder: "all-MiniLM-L6-v2"}}})
	snap := filepath.Join(dir, "snap.jsonl.gz")
	writeGz(t, snap, append([]string{string(h)}, entries...))
	data := filepath.Join(dir, "replay.jsonl")
	if err := os.WriteFile(data, []byte(strings.Join(dataLines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	o, err := runMain(t, append([]string{"cache", "import", snap}, args...)...)
	if err != nil || !strings.Contains(o, "6 entries (extract 6): 6 new") || strings.Contains(o, "warning") {
		t.Fatalf("import: %v\n%s", err, o)
	}
	run := mustRunName(t, db, "replay")
	// The label vectors this run computes and caches are the test's own
	// (every label holds tok): delete them with the run.
	t.Cleanup(func() {
		es, err := cache.Entries(context.Background(), kgeval.CacheFilter{Kinds: []string{"embed"}, Runs: []string{run}}, "", 100000)
		if err != nil {
			t.Error(err)
			return
		}
		var ks []string
		for _, e := range es {
			ks = append(ks, e.Key)
		}
		_ = cache.Delete(context.Background(), ks)
	})
	o, err = runMain(t, append([]string{"evaluate", "--dataset", data, "--run", run, "--cache-only", "--engine", "native"}, args...)...)
	if err != nil {
		t.Fatalf("evaluate --cache-only: %v\n%s", err, o)
	}
	if !strings.Contains(o, "cache-only: model calls 0; 0 requests not in the cache (refused)") || !strings.Contains(o, "6 from the cache") {
		t.Errorf("evaluate --cache-only output:\n%s", o)
	}
	rows := graphstoretest.ExportScores(t, run, kgeval.DefaultVariant)
	if len(rows) != 2 || rows[0].Scores["faithfulness"].Value(metricreg.MetricMultihop) == nil {
		t.Errorf("replayed scores: %+v", rows)
	}

	// The run's entries: the 6 answers it read and the vectors it wrote.
	out := filepath.Join(dir, "used.jsonl.gz")
	if o, err := runMain(t, append([]string{"cache", "export", "--run", run, "--out", out}, args...)...); err != nil {
		t.Fatalf("export: %v\n%s", err, o)
	}
	lines := snapshotLines(t, out)
	var got cachefile.Header
	_ = json.Unmarshal([]byte(lines[0]), &got)
	if got.Counts["extract"] != 6 || got.Counts["embed"] == 0 || got.Runs[0].Model != model || got.Exported == nil {
		t.Errorf("export of the replayed run: header %s", lines[0])
	}
	var extract []string
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, `{"key":"extract:`) {
			extract = append(extract, l)
		}
	}
	if strings.Join(extract, "\n") != strings.Join(entries, "\n") {
		t.Errorf("exported answers differ from the imported ones:\n%s\nwant\n%s", strings.Join(extract, "\n"), strings.Join(entries, "\n"))
	}

	// One text the snapshot lacks: refused at once, no call; its values are
	// null with the reason, the others replayed, the run done.
	more := append(slices.Clone(dataLines), strings.Replace(dataLines[1], `"r1"`, `"r2"`, 1))
	more[2] = strings.Replace(more[2], "stands in Paris", "is found in Paris", 1)
	if err := os.WriteFile(data, []byte(strings.Join(more, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run2 := mustRunName(t, db, "replay-miss")
	o, err = runMain(t, append([]string{"evaluate", "--dataset", data, "--run", run2, "--cache-only", "--engine", "native"}, args...)...)
	if err != nil || !strings.Contains(o, "cache-only: model calls 0; 1 requests not in the cache (refused)") ||
		!strings.Contains(o, "--cache-only: 1 model requests were not in the cache; their values are null") {
		t.Errorf("evaluate --cache-only with a text the cache lacks: %v\n%s", err, o)
	}
	rows = graphstoretest.ExportScores(t, run2, kgeval.DefaultVariant)
	if len(rows) != 3 {
		t.Fatalf("rows %+v", rows)
	}
	for _, r := range rows {
		s := r.Scores["faithfulness"]
		if missing := r.ID == "r2"; missing != (s.Value(metricreg.MetricMultihop) == nil) || missing && !strings.Contains(s.Reason, "not in the cache (--cache-only)") {
			t.Errorf("sample %s: faithfulness %+v", r.ID, s)
		}
	}
	if rec, err := db.GetRun(context.Background(), run2); err != nil || rec.Status != kgeval.RunDone || rec.Calls == nil || rec.Calls.Refused != 1 || rec.Calls.Calls != 0 {
		t.Errorf("run with a refused request: %+v %v, want done with 1 refused and 0 calls recorded", rec, err)
	}
}

func regexpMatch(pattern, s string) bool { return regexp.MustCompile(pattern).MatchString(s) }
