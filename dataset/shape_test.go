package dataset_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/dataset/datasettest"
)

// TestLoad_StructureBomb loads a JSON structure bomb: a 31 MiB JSONL whose
// one record holds "metadata": {"x": [{}, {}, ... 10.8 million times]} was
// accepted and cost about a gigabyte once decoded. Its structure is walked
// before it is decoded: the load stops at dataset.max_file_values with
// ETOOLARGE naming the record and the field, and a child process capped
// 256 MiB over its idle size survives it.
func TestLoad_StructureBomb(t *testing.T) {
	var b bytes.Buffer
	b.ReadFrom(datasettest.StructureBomb(10_800_000))
	path := writeFile(t, "m.jsonl", b.Bytes())
	t.Logf("one record, %.1f MiB", float64(b.Len())/(1<<20))
	rep := loadCapped(t, path, limits)
	want := "the records hold more than 2,000,000 values (dataset.max_file_values): stopped at record 1, field metadata.x"
	if rep.Code != kgeval.ETOOLARGE || !strings.HasSuffix(rep.Message, want) {
		t.Errorf("%+v\nwant ETOOLARGE ending %q", rep, want)
	}
	t.Logf("refused in %.2f s, peak RSS +%.1f MiB: %s", rep.Seconds, float64(rep.PeakRSS)/(1<<20), rep.Message)
}

// TestLoad_StructureCaps checks dataset.max_depth and dataset.max_values
// on each text format and on fields holding JSON text: a record over one
// is rejected with the field and the cap, the others load.
func TestLoad_StructureCaps(t *testing.T) {
	opt := dataset.Options{MaxDepth: 4, MaxValues: 12, MaxFileValues: 1000}
	wide := `{"question": "q", "metadata": {"x": [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}]}}`
	deep := `{"question": "q", "human": {"a": {"b": {"c": [1]}}}}`
	ok := `{"question": "q", "human": {"a": {"b": [1, 2]}}, "metadata": {"n": 1}}`
	ctxs := `{"question": "q", "contexts": "[[], [], [], [], [], [], [], [], [], [], [], []]"}`
	for _, c := range []struct {
		format, data string
	}{
		{dataset.FormatJSONL, strings.Join([]string{ok, wide, deep, ctxs}, "\n")},
		{dataset.FormatJSON, "[" + strings.Join([]string{ok, wide, deep, ctxs}, ",") + "]"},
		{dataset.FormatCSV, "question,human,metadata,contexts\n" +
			`q,"{""a"": {""b"": [1, 2]}}","{""n"": 1}",` + "\n" +
			`q,,"{""x"": [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}]}",` + "\n" +
			`q,"{""a"": {""b"": {""c"": [1]}}}",,` + "\n" +
			`q,,,"[[], [], [], [], [], [], [], [], [], [], [], []]"` + "\n"},
	} {
		t.Run(c.format, func(t *testing.T) {
			res, err := dataset.Read(strings.NewReader(c.data), c.format, opt)
			if err != nil {
				t.Fatal(err)
			}
			got := rejections(res)
			want := map[int]string{
				2: "field metadata.x: over the 12 values a record may hold (dataset.max_values)",
				3: "field human.a.b.c: nested deeper than 4 levels (dataset.max_depth)",
				4: "field contexts: over the 12 values a record may hold (dataset.max_values)",
			}
			if len(res.Samples) != 1 || len(got) != 3 || got[2] != want[2] || got[3] != want[3] || got[4] != want[4] {
				t.Errorf("%d valid, rejected %v\nwant %v", len(res.Samples), got, want)
			}
		})
	}
	t.Run("FileValues", func(t *testing.T) {
		data := strings.Repeat(ok+"\n", 10) // 8 values each
		_, err := dataset.Read(strings.NewReader(data), dataset.FormatJSONL, dataset.Options{MaxFileValues: 75})
		want := "the records hold more than 75 values (dataset.max_file_values): stopped at record 10, field human.a, after 9 records (9 valid, 0 rejected)"
		if kgeval.ErrorCode(err) != kgeval.ETOOLARGE || kgeval.ErrorMessage(err) != want {
			t.Errorf("err = %v\nwant %q", err, want)
		}
		if _, err := dataset.Read(strings.NewReader(data), dataset.FormatJSONL, dataset.Options{MaxFileValues: 80}); err != nil {
			t.Errorf("at the cap: %v", err)
		}
	})
}

// TestLoad_StructureTestdata loads every bundled dataset with the default
// caps: none is over one.
func TestLoad_StructureTestdata(t *testing.T) {
	files, _ := filepath.Glob("../testdata/*.jsonl")
	more, _ := filepath.Glob("testdata/*")
	for _, p := range append(files, more...) {
		open := limits
		open.MaxDepth, open.MaxValues, open.MaxFileValues = 0, 0, 0
		want, err := dataset.Load(p, open)
		if err != nil {
			continue // a file of the loader's own error tests
		}
		got, err := dataset.Load(p, limits)
		if err != nil || len(got.Samples) != len(want.Samples) || got.RejectedTotal != want.RejectedTotal {
			t.Errorf("%s: %v; %d valid and %d rejected, without the caps %d and %d", p, err, len(got.Samples), got.RejectedTotal, len(want.Samples), want.RejectedTotal)
		}
	}
	if len(files) < 9 {
		t.Errorf("only %d files in ../testdata", len(files))
	}
}

// structureFiles are the costliest structures the default caps let
// through, each filling dataset.max_file_values (or 32 MiB), and a plain
// dataset at the upload size limit.
func structureFiles(t *testing.T) map[string][]byte {
	t.Helper()
	rec := func(field string, n int, elem func(i int) string) string {
		var b strings.Builder
		b.WriteString(`{"question": "q", "` + field + `": {"x": [`)
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(elem(i))
		}
		b.WriteString("]}}\n")
		return b.String()
	}
	// fill repeats line (of values values) up to the file's caps.
	fill := func(line string, values int) []byte {
		var b bytes.Buffer
		for n := values; b.Len()+len(line) <= 32<<20 && n <= int(limits.MaxFileValues); n += values {
			b.WriteString(line)
		}
		return b.Bytes()
	}
	files := map[string][]byte{
		"objects1.jsonl": fill(rec("metadata", 9990, func(int) string { return `{"a":0}` }), 3+2*9990),
		"empty.jsonl":    fill(rec("metadata", 19990, func(int) string { return `{}` }), 3+19990),
		"arrays.jsonl":   fill(rec("metadata", 19990, func(int) string { return `[]` }), 3+19990),
		"numbers.jsonl":  fill(rec("human", 19990, func(int) string { return `0` }), 3+19990),
		"pairs.jsonl":    fill(rec("metadata", 6660, func(int) string { return `{"a":0,"b":1}` }), 3+3*6660),
		"objects8.jsonl": fill(rec("metadata", 2220, func(int) string { return `{"a":0,"b":0,"c":0,"d":0,"e":0,"f":0,"g":0,"h":0}` }), 3+9*2220),
	}
	var wide strings.Builder
	wide.WriteString(`{"question": "q", "metadata": {`)
	for i := range 19990 {
		if i > 0 {
			wide.WriteByte(',')
		}
		fmt.Fprintf(&wide, `"%d":0`, i)
	}
	wide.WriteString("}}\n")
	files["wide.jsonl"] = fill(wide.String(), 2+19990)
	chain := `{"question": "q", "metadata": ` + strings.Repeat(`{"a":`, 30) + "0" + strings.Repeat("}", 30) + "}\n"
	files["chains.jsonl"] = fill(chain, 32)
	var plain bytes.Buffer
	for i := 0; plain.Len() < 31<<20; i++ {
		fmt.Fprintf(&plain, `{"id": "%d", "question": "What does plant %d grow in?", "contexts": ["Plant %d grows in region %d, on moors and heaths where the soil is poor and acid.", "Region %d lies in the west; its moors flower purple in late summer, and its heaths are grazed by sheep and ponies."], "answer": "Region %d, on poor acid soil.", "human": {"faithfulness": 1}, "metadata": {"source": "wiki"}}`+"\n", i, i, i, i, i, i)
	}
	files["plain.jsonl"] = plain.Bytes()
	return files
}

// TestMeter_Cost loads the costliest structures the default caps let
// through, each in a child process without GOMEMLIMIT, and checks that
// the peak RSS stays within the Meter's cost: what the dashboard reserves
// of its upload memory budget for them.
func TestMeter_Cost(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 300 MB of datasets")
	}
	dir := t.TempDir()
	for name, data := range structureFiles(t) {
		t.Run(strings.TrimSuffix(name, ".jsonl"), func(t *testing.T) {
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			m := dataset.NewMeter(name, limits)
			m.Write(data)
			cost := m.Cost()
			values, _ := m.Values()
			idle, ok, out := runChild(t, "-", nil, 0, "GOMEMLIMIT=off")
			if !ok {
				t.Fatalf("idle child: %s", out)
			}
			rep, ok, out := runChild(t, path, &limits, idle.AddrSpace+cost+memoryBudget, "GOMEMLIMIT=off")
			if !ok {
				t.Fatalf("the load died with its address space capped at the Meter's %d MiB + %d MiB: %s", cost>>20, memoryBudget>>20, firstLine(out, "fatal error"))
			}
			grew := rep.PeakRSS - idle.PeakRSS
			t.Logf("%.1f MiB, %d records, %d values: %.2f s, peak RSS +%.1f MiB, Meter %.1f MiB (MemoryBound %.1f MiB)", float64(len(data))/(1<<20),
				rep.Valid, values, rep.Seconds, float64(grew)/(1<<20), float64(cost)/(1<<20), float64(dataset.MemoryBound(dataset.FormatJSONL, int64(len(data)), limits))/(1<<20))
			if rep.Code != "" || rep.Valid == 0 {
				t.Errorf("%+v", rep)
			}
			if grew > cost {
				t.Errorf("peak RSS +%d MiB over the Meter's %d MiB", grew>>20, cost>>20)
			}
		})
	}
}

// TestMeter_Split checks that a Meter counts the same whatever the sizes
// of the writes an upload arrives in, for each text format.
func TestMeter_Split(t *testing.T) {
	rec := `{"question": "q \"x\" \\", "human": {"a\"b": {"b": [1, 2, {}]}}, "metadata": {"n": [[], {"k": null}]}, "contexts": ["a, b", "c"]}`
	files := map[string]string{
		"a.jsonl": strings.Repeat(rec+"\r\n", 5) + "\n" + strings.Repeat(rec+"\n", 5),
		"a.json":  "\ufeff [" + strings.Repeat(rec+",", 9) + rec + "]",
		"l.json":  strings.Repeat(rec+"\n", 10),
		"a.csv":   "question,human,metadata,contexts\r\n" + strings.Repeat(`"q, ""x""","{""a\""b"": {""b"": [1, 2, {}]}}","{""n"": [[], {""k"": null}]}","[""a, b"", ""c""]"`+"\r\n", 10),
	}
	for name, data := range files {
		whole := dataset.NewMeter(name, limits)
		whole.Write([]byte(data))
		want, _ := whole.Values()
		wantCost := whole.Cost()
		for size := 1; size <= 7; size++ {
			m := dataset.NewMeter(name, limits)
			for i := 0; i < len(data); i += size {
				m.Write([]byte(data[i:min(i+size, len(data))]))
			}
			if got, _ := m.Values(); got != want || m.Cost() != wantCost {
				t.Errorf("%s in writes of %d bytes: %d values, cost %d; whole: %d, %d", name, size, got, m.Cost(), want, wantCost)
			}
		}
		// 10 records of 15 values each; the CSV one's question is not JSON.
		if want != 150 && !(name == "a.csv" && want == 140) {
			t.Errorf("%s: %d values", name, want)
		}
	}
}
