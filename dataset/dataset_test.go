package dataset_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/dataset"
	"github.com/parquet-go/parquet-go"
)

var opt = dataset.Options{MaxTextChars: 200000, MaxLabelChars: 256}

// MustLoad loads path and fails the test on a file-level error, or when
// the fingerprint Load hashed as it read is not the file's.
func MustLoad(tb testing.TB, path string) *dataset.Result {
	tb.Helper()
	res, err := dataset.Load(path, opt)
	if err != nil {
		tb.Fatalf("Load(%s): %v", path, err)
	}
	if fp, err := dataset.FingerprintFile(path); err != nil || res.Fingerprint != fp {
		tb.Errorf("Load(%s): fingerprint %q, the file's %q (%v)", path, res.Fingerprint, fp, err)
	}
	return res
}

func rejections(res *dataset.Result) map[int]string {
	out := map[int]string{}
	for _, r := range res.Rejected {
		out[r.Record] = r.Reason
	}
	return out
}

func TestLoad_Aliases(t *testing.T) {
	for _, name := range []string{"good.jsonl", "good_crlf_bom.jsonl", "good.json"} {
		t.Run(name, func(t *testing.T) {
			res := MustLoad(t, filepath.Join("testdata", name))
			if len(res.Rejected) != 0 || len(res.Samples) != 3 {
				t.Fatalf("got %d samples, rejections %v", len(res.Samples), res.Rejected)
			}
			a, b, c := res.Samples[0], res.Samples[1], res.Samples[2]
			if a.ID != "a" || a.System != "s1" || a.Human["faithfulness"] != 1.0 || len(a.Contexts) != 1 {
				t.Errorf("record 1: %+v", a)
			}
			if b.ID != "2" || b.Question != "Who wrote Hamlet?" || b.Answer != "Shakespeare." ||
				b.Reference != "William Shakespeare" || b.System != "s2" || b.Contexts[0] != "Hamlet is a tragedy by William Shakespeare." {
				t.Errorf("record 2 (RAGAS aliases): %+v", b)
			}
			if c.Question != "Capital of France?" || c.Reference != "Paris" || len(c.Contexts) != 1 || c.Contexts[0] != "Paris is the capital of France." {
				t.Errorf("record 3 (query/context/ground_truths): %+v", c)
			}
			if c.Triplets == nil || len(c.Triplets.Answer) != 1 || c.Triplets.Answer[0].Subject != "Paris" {
				t.Fatalf("record 3 triplets: %+v", c.Triplets)
			}
			// "?" is the slot of an asked fact (SPEC §4c): kept. The
			// duplicated context triplet counts once.
			if q, ok := c.Triplets.Triplets(kgeval.TextQuestion); !ok || len(q) != 1 || q[0].Object != kgeval.Slot {
				t.Errorf("question triplets = %v, %v; want the asked fact (France, has capital, ?)", q, ok)
			}
			if ctx, _ := c.Triplets.Triplets(kgeval.TextContexts); len(ctx) != 1 {
				t.Errorf("context triplets = %v; want 1 after dedup", ctx)
			}
			if _, ok := c.Triplets.Triplets(kgeval.TextReference); ok {
				t.Errorf("reference triplets reported as provided")
			}
		})
	}
}

// TestLoad_SampleID: sample_id (RAGAS's and Python's name) is read as the
// id, a number too; a record without either is numbered.
func TestLoad_SampleID(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ids.jsonl")
	data := `{"sample_id": "q-7", "question": "a?", "contexts": ["b"]}
{"sample_id": 12, "question": "c?", "contexts": ["d"]}
{"question": "e?", "contexts": ["f"]}
`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	res := MustLoad(t, path)
	var ids []string
	for _, s := range res.Samples {
		ids = append(ids, s.ID)
	}
	if strings.Join(ids, ",") != "q-7,12,3" || len(res.Rejected) != 0 {
		t.Errorf("ids %v, rejected %v; want q-7,12,3", ids, res.Rejected)
	}
}

func TestLoad_BrokenJSONL(t *testing.T) {
	res := MustLoad(t, "testdata/broken.jsonl")
	want := map[int]string{
		2:  "wrong type: field question: expected string, got number",
		3:  "empty question",
		4:  "missing question",
		5:  `duplicate id "a" (first at record 1)`,
		6:  "wrong type: field contexts[0]: expected string, got number",
		7:  "wrong type: a record must be a JSON object",
		10: "invalid JSON",
	}
	got := rejections(res)
	if len(got) != len(want) {
		t.Errorf("rejections = %v", res.Rejected)
	}
	for rec, reason := range want {
		if !strings.Contains(got[rec], reason) {
			t.Errorf("record %d: reason %q, want it to contain %q", rec, got[rec], reason)
		}
	}
	if len(res.Samples) != 2 || res.Samples[0].ID != "a" || res.Samples[1].ID != "f" || res.Samples[1].Record != 9 {
		t.Errorf("samples = %+v", res.Samples)
	}
}

func TestLoad_TruncatedJSONArray(t *testing.T) {
	res := MustLoad(t, "testdata/truncated.json")
	if len(res.Samples) != 2 {
		t.Errorf("loaded %d samples before the break, want 2", len(res.Samples))
	}
	if r := rejections(res); !strings.Contains(r[3], "truncated") {
		t.Errorf("rejections = %v, want record 3 reported as truncated", res.Rejected)
	}
}

func TestLoad_CSV(t *testing.T) {
	res := MustLoad(t, "testdata/good.csv")
	if len(res.Samples) != 2 {
		t.Fatalf("samples = %+v, rejected %v", res.Samples, res.Rejected)
	}
	a, b := res.Samples[0], res.Samples[1]
	if len(a.Contexts) != 2 || a.Contexts[0] != "Erica vagans, the Cornish heath, is a plant." || a.Human["faithfulness"] != 1.0 {
		t.Errorf("row 1: %+v", a)
	}
	if b.Question != "Multi-line\nquestion?" || len(b.Contexts) != 1 || b.Contexts[0] != "plain single passage" {
		t.Errorf("row 2: %+v", b)
	}
	got := rejections(res)
	if !strings.Contains(got[3], "fields, header has 7") || !strings.Contains(got[4], "missing question") && !strings.Contains(got[4], "empty question") {
		t.Errorf("rejections = %v", res.Rejected)
	}
}

func TestLoad_Generated(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	t.Run("InvalidUTF8", func(t *testing.T) {
		var b bytes.Buffer
		b.WriteString(`{"question": "ok", "answer": "fine"}` + "\n")
		b.WriteString(`{"question": "bad ` + "\xff\xfe" + `", "answer": "x"}` + "\n")
		b.WriteString(`{"question": "also ok"}` + "\n")
		res := MustLoad(t, write("utf8.jsonl", b.Bytes()))
		if got := rejections(res); len(res.Samples) != 2 || !strings.Contains(got[2], "invalid UTF-8") {
			t.Errorf("samples %d, rejections %v", len(res.Samples), res.Rejected)
		}
	})
	t.Run("FiveMegabyteText", func(t *testing.T) {
		big := strings.Repeat("lorem ipsum ", 5<<20/12)
		data := `{"question": "q1", "answer": "a"}` + "\n" + `{"question": "q2", "answer": "` + big + `"}` + "\n" + `{"question": "q3"}`
		res := MustLoad(t, write("big.jsonl", []byte(data)))
		if got := rejections(res); len(res.Samples) != 2 || !strings.Contains(got[2], "over the size limit") {
			t.Errorf("samples %d, rejections %v", len(res.Samples), res.Rejected)
		}
	})
	t.Run("UnknownFormat", func(t *testing.T) {
		_, err := dataset.Load(write("x.txt", []byte("hi")), opt)
		if kgeval.ErrorCode(err) != kgeval.EINVALID {
			t.Errorf("err = %v, want EINVALID", err)
		}
	})
	t.Run("Missing", func(t *testing.T) {
		_, err := dataset.Load(filepath.Join(dir, "nope.jsonl"), opt)
		if kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
			t.Errorf("err = %v, want ENOTFOUND", err)
		}
	})
	t.Run("Parquet", func(t *testing.T) {
		type row struct {
			ID               string   `parquet:"id"`
			UserInput        string   `parquet:"user_input"`
			RetrievedContext []string `parquet:"retrieved_contexts,list"`
			Response         string   `parquet:"response"`
			Reference        string   `parquet:"reference"`
		}
		p := filepath.Join(dir, "d.parquet")
		rows := []row{
			{ID: "p1", UserInput: "What is Erica vagans?", RetrievedContext: []string{"c1", "c2"}, Response: "A heather.", Reference: "Cornish heath"},
			{ID: "p2", UserInput: "", RetrievedContext: nil, Response: "x"},
		}
		if err := parquet.WriteFile(p, rows); err != nil {
			t.Fatal(err)
		}
		res := MustLoad(t, p)
		if len(res.Samples) != 1 || len(res.Rejected) != 1 {
			t.Fatalf("samples %+v rejected %v", res.Samples, res.Rejected)
		}
		s := res.Samples[0]
		if s.ID != "p1" || s.Question != "What is Erica vagans?" || len(s.Contexts) != 2 || s.Contexts[1] != "c2" || s.Answer != "A heather." {
			t.Errorf("parquet sample = %+v", s)
		}
		if r := res.Rejected[0]; r.Record != 2 || !strings.Contains(r.Reason, "empty question") {
			t.Errorf("rejection = %+v", r)
		}
	})
	t.Run("NotParquet", func(t *testing.T) {
		_, err := dataset.Load(write("bad.parquet", []byte("not parquet at all")), opt)
		if kgeval.ErrorCode(err) != kgeval.EINVALID {
			t.Errorf("err = %v, want EINVALID", err)
		}
	})
}

// TestLoad_SharedDatasets loads the real datasets bundled with the project
// in testdata/ (see testdata/README.md), so that a plain clone passes.
func TestLoad_SharedDatasets(t *testing.T) {
	for name, n := range map[string]int{"wikieval.jsonl": 30, "wikieval50.jsonl": 150, "wikieval_ragflow.jsonl": 50, "expertqa.jsonl": 300} {
		path := filepath.Join("..", "testdata", name)
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("%s: %v (the datasets are bundled in testdata/)", name, err)
		}
		res := MustLoad(t, path)
		if len(res.Samples) != n || len(res.Rejected) != 0 {
			t.Errorf("%s: %d samples, %d rejected; want %d, 0", name, len(res.Samples), len(res.Rejected), n)
		}
	}
}

// TestEvaluable checks the refusals of a loaded file before an evaluation:
// no valid record, and under dataset.strict rejected records, counted in
// full when only the first are listed.
func TestEvaluable(t *testing.T) {
	data := `{"question": "q1", "answer": "a"}` + "\n1\n2\n3\n"
	res, err := dataset.Read(strings.NewReader(data), dataset.FormatJSONL, dataset.Options{MaxRejections: 1})
	if err != nil || len(res.Samples) != 1 || len(res.Rejected) != 1 || res.RejectedTotal != 3 {
		t.Fatalf("%v: %+v", err, res)
	}
	if err := res.Evaluable("upload u1", false); err != nil {
		t.Errorf("without strict: %v", err)
	}
	if err := res.Evaluable("upload u1", true); kgeval.ErrorCode(err) != kgeval.EINVALID || kgeval.ErrorMessage(err) != "3 record(s) rejected and dataset.strict is set" {
		t.Errorf("strict: %v", err)
	}
	res, _ = dataset.Read(strings.NewReader("1\n"), dataset.FormatJSONL, dataset.Options{})
	if err := res.Evaluable("dataset d.jsonl", true); kgeval.ErrorCode(err) != kgeval.EINVALID || kgeval.ErrorMessage(err) != "dataset d.jsonl: no valid record" {
		t.Errorf("no valid record: %v", err)
	}
}
