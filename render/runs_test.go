package render_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cachefile"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/kgeval/kgeval/render"
)

// lineMatching returns the first line of out that re matches, failing the
// test when none does.
func lineMatching(t *testing.T, out, re string) string {
	t.Helper()
	r := regexp.MustCompile(re)
	for _, l := range strings.Split(out, "\n") {
		if r.MatchString(l) {
			return l
		}
	}
	t.Errorf("no line matches %s in:\n%s", re, out)
	return ""
}

func TestRunList(t *testing.T) {
	started := time.Date(2024, 3, 5, 14, 7, 9, 0, time.UTC)
	var b bytes.Buffer
	err := render.RunList(&b, []kgeval.Run{
		{Name: "nightly", Status: kgeval.RunDone, Samples: 50, Engine: "gds", Started: started, Dataset: "testdata/wikieval50.jsonl"},
		{Name: "a-much-longer-run-name", Status: kgeval.RunFailed, Samples: 3, Engine: "native", Started: started.Add(time.Hour), Dataset: "x.jsonl"},
	})
	if err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) != 3 || !regexp.MustCompile(`^name +status +samples +engine +started +dataset$`).MatchString(lines[0]) {
		t.Fatalf("want a header and two rows:\n%s", out)
	}
	lineMatching(t, out, `^nightly +done +50 +gds +2024-03-05 14:07:09 +testdata/wikieval50\.jsonl$`)
	lineMatching(t, out, `^a-much-longer-run-name +failed +3 +native +2024-03-05 15:07:09 +x\.jsonl$`)
	// The columns are aligned: every row's status starts where the header's does.
	col := strings.Index(lines[0], "status")
	for _, l := range lines[1:] {
		if l[col-2:col] != "  " || l[col] == ' ' {
			t.Errorf("row %q: status column not at %d", l, col)
		}
	}

	b.Reset()
	if err := render.RunList(&b, nil); err != nil || strings.Count(b.String(), "\n") != 1 {
		t.Errorf("no run: %q, %v; want the header alone", b.String(), err)
	}
}

func TestRunShow(t *testing.T) {
	started := time.Date(2024, 3, 5, 14, 7, 9, 0, time.UTC)
	r := kgeval.Run{Name: "nightly", Status: kgeval.RunDone, Dataset: "d.jsonl", Fingerprint: "abc123", Samples: 4, Rejected: 1,
		LLM: "http://h/v1#qwen", Encoder: "minilm", Engine: "native", Started: started, Finished: started.Add(90 * time.Second),
		Stages: kgeval.Stages{"extract": 1.5}, Calls: &kgeval.Calls{Calls: 7, CacheHits: 2}, Resumes: 2}
	support, zero := 0.8125, 0.0
	sum := []readmodel.PairSummary{
		{Pair: "faithfulness", Graphs: 4, Scored: 3, Means: map[string]*float64{metricreg.MetricSupport: &support, metricreg.MetricContradiction: &zero}},
		{Pair: "answer_relevancy", Graphs: 4, Scored: 4, Means: map[string]*float64{metricreg.MetricSupport: nil}},
	}
	var b bytes.Buffer
	if err := render.RunShow(&b, r, sum); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	t.Log("\n" + out)
	for _, want := range []string{
		"run nightly: done\n",
		"dataset d.jsonl (sha256 abc123), 4 samples, 1 rejected\n",
		"llm http://h/v1#qwen, encoder minilm, engine native, extraction ",
		"started 2024-03-05 14:07:09, finished 2024-03-05 14:08:39\n",
		"stages (s) {\"extract\":1.5}\n",
		`calls {"calls":7,"cancelled":0,"failures":0,"retries":0,"repairs":0,"cache_hits":2,`,
		"texts \n", // never recorded: empty, not "null"
		"resumed 2 times\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	if strings.Contains(out, "\nerror ") {
		t.Errorf("an error line for a run without error")
	}
	// Only the metrics with a value in some pair are columns; a pair
	// without one shows "-".
	header := lineMatching(t, out, `^pair +graphs +scored`)
	if f := strings.Fields(header); len(f) != 5 || !strings.Contains(header, metricreg.MetricSupport) || !strings.Contains(header, metricreg.MetricContradiction) {
		t.Errorf("header %q: want pair, graphs, scored, support and contradiction", header)
	}
	lineMatching(t, out, `^faithfulness +4 +3 +(0\.812 +0\.000|0\.000 +0\.812)$`)
	lineMatching(t, out, `^answer_relevancy +4 +4 +- +-$`)

	r.Status, r.Error, r.Stages, r.Calls = kgeval.RunFailed, "extraction: model gone", nil, nil
	b.Reset()
	if err := render.RunShow(&b, r, nil); err != nil {
		t.Fatal(err)
	}
	out = b.String()
	for _, want := range []string{"run nightly: failed\n", "stages (s) \n", "calls \n", "error extraction: model gone\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("failed run: missing %q in\n%s", want, out)
		}
	}
}

func TestDataset(t *testing.T) {
	res := &dataset.Result{Path: "d.jsonl", Format: "jsonl", RejectedTotal: 2,
		Samples: []kgeval.Sample{
			{ID: "a", System: "rag", Reference: "ref", Triplets: &kgeval.SampleTriplets{}},
			{ID: "b", System: "rag"},
			{ID: "c", System: "baseline"},
		},
		Rejected: []kgeval.Rejection{{Record: 4, ID: "d", Reason: "no question"}, {Record: 7, Reason: "not JSON"}},
	}
	var b bytes.Buffer
	render.Dataset(&b, res)
	want := "d.jsonl: jsonl, 5 records, 3 loaded, 2 rejected; 1 with reference, 1 with triplets, 2 system(s)\n" +
		"  record 4 (id d) rejected: no question\n" +
		"  record 7 rejected: not JSON\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestCacheStats(t *testing.T) {
	st := []kgeval.CacheKindStats{{Kind: "extract", Entries: 10, Used: 4, Chars: 2_500_000}, {Kind: "embed", Entries: 5, Used: 5, Chars: 100_000}}
	var b bytes.Buffer
	render.CacheStats(&b, st, nil)
	out := b.String()
	if !strings.HasPrefix(out, "all cache entries, per kind") {
		t.Errorf("scope line: %q", out)
	}
	lineMatching(t, out, `^extract +10 +4 +2\.5 *$`)
	lineMatching(t, out, `^embed +5 +5 +0\.1 *$`)
	lineMatching(t, out, `^total +15 +9 +2\.6 *$`)

	b.Reset()
	render.CacheStats(&b, nil, []string{"r1", "r2"})
	if !strings.HasPrefix(b.String(), "cache entries used by run r1, r2, per kind") {
		t.Errorf("scope of two runs: %q", b.String())
	}
	lineMatching(t, b.String(), `^total +0 +0 +0\.0 *$`)
}

func TestKindCounts(t *testing.T) {
	for _, c := range []struct {
		in   map[string]int
		want string
	}{
		{nil, "none"},
		{map[string]int{"judge": 1, "embed": 3, "extract": 2}, "embed 3, extract 2, judge 1"},
		{map[string]int{"": 4, "embed": 1}, kgeval.NoKind + " 4, embed 1"},
	} {
		if got := render.KindCounts(c.in); got != c.want {
			t.Errorf("KindCounts(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestCacheReports: the export and import summaries, and the warnings that
// go to the error stream only when something is off.
func TestCacheReports(t *testing.T) {
	var out, errw bytes.Buffer
	h := cachefile.Header{Entries: 3, Counts: map[string]int{"extract": 2, "embed": 1}}
	render.CacheExported(&out, &errw, h, 1234, kgeval.CacheFilter{Runs: []string{"r1"}, Kinds: []string{"extract", "embed"}}, "snap.gz")
	if want := "cache export: entries used by run r1 of kind extract, embed: 3 entries (embed 1, extract 2) to snap.gz, 1234 bytes\n"; out.String() != want || errw.Len() != 0 {
		t.Errorf("export: %q (stderr %q), want %q", out.String(), errw.String(), want)
	}
	out.Reset()
	render.CacheExported(&out, &errw, cachefile.Header{}, 40, kgeval.CacheFilter{}, "empty.gz")
	if !strings.Contains(out.String(), "all entries: 0 entries (none)") || !strings.Contains(errw.String(), "warning: no entry selected") {
		t.Errorf("empty export: %q, stderr %q", out.String(), errw.String())
	}

	out.Reset()
	errw.Reset()
	n := pipeline.CacheImportResult{Entries: 3, CacheImport: kgeval.CacheImport{Created: 1, Kept: 2, Differing: 1}}
	render.CacheImported(&out, &errw, "snap.gz", n, h.Counts, h, false, nil)
	if want := "cache import: snap.gz: 3 entries (embed 1, extract 2): 1 new, 2 kept (1 of them differ from the file; --overwrite replaces them), 0 overwritten; 0 malformed lines skipped\n"; out.String() != want || errw.Len() != 0 {
		t.Errorf("import: %q (stderr %q), want %q", out.String(), errw.String(), want)
	}
	// A header announcing more entries than the file holds is warned about,
	// unless lines were skipped as malformed (they explain the difference).
	out.Reset()
	n.Entries = 2
	render.CacheImported(&out, &errw, "snap.gz", n, h.Counts, h, true, nil)
	if strings.Contains(out.String(), "differ from the file") || !strings.Contains(errw.String(), "the header announces 3 entries, the file holds 2") {
		t.Errorf("short import with --overwrite: %q, stderr %q", out.String(), errw.String())
	}
	errw.Reset()
	n.Malformed = 1
	render.CacheImported(&out, &errw, "snap.gz", n, h.Counts, h, true, nil)
	if errw.Len() != 0 {
		t.Errorf("a warning beside malformed lines: %q", errw.String())
	}

	out.Reset()
	render.SnapshotRuns(&out, "snap.gz", cachefile.Header{Runs: []cachefile.Run{{Name: "r1", Model: "qwen", Encoder: "minilm", Status: "done", ModelCalls: 9, Failed: 1}}})
	if want := "cache import: snap.gz: run r1 (model qwen, encoder minilm, status done): 9 model calls, 1 failed requests (a --cache-only replay refuses those again)\n"; out.String() != want {
		t.Errorf("snapshot runs: %q, want %q", out.String(), want)
	}
}

// TestDoctor: a failed required check is FAIL and fails the doctor, a
// failed optional one is only a warning.
func TestDoctor(t *testing.T) {
	var b bytes.Buffer
	failed := render.Doctor(&b, []pipeline.Check{
		{Name: "neo4j", OK: true, Required: true, Detail: "5.20"},
		{Name: "gds", OK: false, Detail: "not installed"},
	})
	if failed || b.String() != "ok    neo4j      5.20\nwarn  gds        not installed\n" {
		t.Errorf("failed %v, output %q", failed, b.String())
	}
	b.Reset()
	if !render.Doctor(&b, []pipeline.Check{{Name: "model", Required: true, Detail: "connection refused"}}) || b.String() != "FAIL  model      connection refused\n" {
		t.Errorf("a failed required check: %q", b.String())
	}
}
