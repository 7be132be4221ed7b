package cachefile_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/cachefile"
)

// pages serves entries in pages, as graphstore.Cache.Entries does.
func pages(entries []cachefile.Entry) cachefile.Source {
	return func(_ context.Context, after string, limit int) ([]cachefile.Entry, error) {
		var out []cachefile.Entry
		for _, e := range entries {
			if e.Key > after && len(out) < limit {
				out = append(out, e)
			}
		}
		return out, nil
	}
}

func gz(s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.Bytes()
}

const header = `{"format":"kgeval-cache/1","kgeval":"test","kinds":[],"runs":[],"prompts":{},"counts":{"extract":2},"entries":2}` + "\n"

// TestExport writes a snapshot and reads it back: header first with the
// counts, entries in key order, HTML characters and multi-byte text kept,
// the same bytes from the same entries, and no time with a nil Exported.
func TestExport(t *testing.T) {
	entries := []cachefile.Entry{
		{Key: "embed:01", Value: "AAAAPw=="},
		{Key: "extract:aa", Value: `{"triplets":[{"subject":"<b>Ærø</b>","relation":"&","object":"x"}]}`},
		{Key: "judge:ff", Value: "{}"},
	}
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	write := func(exported *time.Time) []byte {
		var b bytes.Buffer
		h, err := cachefile.Export(context.Background(), &b, cachefile.Header{Kgeval: "test", Exported: exported}, pages(entries))
		if err != nil {
			t.Fatal(err)
		}
		if h.Entries != 3 || h.Counts["extract"] != 1 || h.Counts["embed"] != 1 || h.Format != cachefile.Format {
			t.Errorf("header %+v", h)
		}
		return b.Bytes()
	}
	a, b := write(nil), write(nil)
	if !bytes.Equal(a, b) {
		t.Error("two exports of the same entries differ")
	}
	zr, err := gzip.NewReader(bytes.NewReader(write(&at)))
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(zr)
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	if len(lines) != 4 || !strings.HasSuffix(lines[0], `"entries":3,"exported":"2025-01-02T03:04:05Z"}`) ||
		lines[2] != `{"key":"extract:aa","value":"{\"triplets\":[{\"subject\":\"<b>Ærø</b>\",\"relation\":\"&\",\"object\":\"x\"}]}"}` {
		t.Errorf("file:\n%s", text)
	}
	r, err := cachefile.NewReader(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	if r.Header().Exported != nil {
		t.Errorf("exported %v, want none", r.Header().Exported)
	}
	for i := 0; ; i++ {
		e, err := r.Next()
		if errors.Is(err, io.EOF) {
			if i != 3 {
				t.Errorf("%d entries read back", i)
			}
			break
		}
		if err != nil || e != entries[i] {
			t.Fatalf("entry %d: %+v %v", i, e, err)
		}
	}

	// A source out of key order is a bug, not a snapshot.
	bad := func(_ context.Context, after string, _ int) ([]cachefile.Entry, error) {
		if after == "" {
			return []cachefile.Entry{{Key: "b:1", Value: "x"}, {Key: "a:1", Value: "y"}}, nil
		}
		return nil, nil
	}
	if _, err := cachefile.Export(context.Background(), io.Discard, cachefile.Header{}, bad); kgeval.ErrorCode(err) != kgeval.EINTERNAL {
		t.Errorf("out of order: %v", err)
	}
}

// TestNewReader checks the header: what is refused, with EINVALID and a
// message saying why.
func TestNewReader(t *testing.T) {
	cases := []struct {
		name string
		file []byte
		want string // "" for OK
	}{
		{"Gzip", gz(header), ""},
		{"Plain", []byte(header), ""},
		{"UnknownFormat", gz(`{"format":"kgeval-cache/9","entries":0}` + "\n"), `unknown cache snapshot format "kgeval-cache/9": this kgeval reads "kgeval-cache/1"`},
		{"NoFormat", gz(`{"key":"extract:1","value":"x"}` + "\n"), `line 1 is not a header object with a "format"`},
		{"NotJSON", []byte("key,value\nextract:1,x\n"), `line 1 is not a header object`},
		{"Empty", gz(""), "line 1 is empty"},
		{"BadGzip", []byte{0x1f, 0x8b, 0, 0, 1, 2}, "bad gzip data"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := cachefile.NewReader(bytes.NewReader(c.file))
			switch {
			case c.want == "" && err != nil:
				t.Fatal(err)
			case c.want != "" && (kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.Contains(err.Error(), c.want)):
				t.Errorf("err = %v, want EINVALID %q", err, c.want)
			}
		})
	}
}

// TestImport reads a file with malformed lines among good ones: each bad
// line is reported with its number and reason, the rest goes on in batches.
func TestImport(t *testing.T) {
	file := header +
		`{"key":"extract:01","value":"a"}` + "\n" + // 2
		`{"key":"extract:02","value":` + "\n" + // 3 cut JSON
		"\n" + // 4 blank: skipped
		`{"key":"extract:03"}` + "\n" + // 5 no value
		`{"key":"extract:04","value":{"triplets":[]}}` + "\n" + // 6 value not a string
		`{"key":"nokind","value":"x"}` + "\n" + // 7
		`{"key":"extract:01","value":"b"}` + "\n" + // 8 duplicate
		`["extract:05","x"]` + "\n" + // 9
		`{"key":"judge:06","value":"c","extra":1}` + "\n" + // 10 unknown fields are ignored
		`{"key":"embed:07","value":"d"}` // 11, no final newline
	want := map[int]string{
		3:  "not a JSON object",
		5:  `no "value"`,
		6:  `"value" is not a string`,
		7:  `key "nokind" has no kind`,
		8:  "duplicate key extract:01 (first on line 2)",
		9:  "not a JSON object",
		11: "",
	}
	r, err := cachefile.NewReader(bytes.NewReader(gz(file)))
	if err != nil {
		t.Fatal(err)
	}
	var got []cachefile.Entry
	var batches []int
	bad := map[int]string{}
	n, malformed, err := cachefile.Import(context.Background(), r, func(_ context.Context, b []cachefile.Entry) error {
		batches = append(batches, len(b))
		got = append(got, b...)
		return nil
	}, 2, func(e *cachefile.LineError) { bad[e.Line] = e.Reason })
	if err != nil {
		t.Fatal(err)
	}
	if n != 3 || malformed != 6 || len(got) != 3 || got[0].Value != "a" || got[2].Key != "embed:07" || len(batches) != 2 {
		t.Errorf("entries %d malformed %d got %+v batches %v", n, malformed, got, batches)
	}
	for line, reason := range want {
		if reason == "" {
			continue
		}
		if !strings.Contains(bad[line], reason) {
			t.Errorf("line %d: reason %q, want %q", line, bad[line], reason)
		}
	}
	if len(bad) != 6 {
		t.Errorf("bad lines %v", bad)
	}
	if c := r.Counts(); c["extract"] != 1 || c["judge"] != 1 || c["embed"] != 1 {
		t.Errorf("counts %v", c)
	}

	// A file cut short in the gzip stream: the entries before are stored,
	// then EINVALID with the line.
	whole := gz(header + strings.Repeat(`{"key":"extract:0","value":"`+strings.Repeat("x", 200)+`"}`+"\n", 1))
	r, err = cachefile.NewReader(bytes.NewReader(whole[:len(whole)-12]))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = cachefile.Import(context.Background(), r, func(context.Context, []cachefile.Entry) error { return nil }, 0, nil)
	if kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.Contains(err.Error(), "cut short or corrupt") {
		t.Errorf("truncated file: %v", err)
	}
}

func TestPromptDiff(t *testing.T) {
	stale, missing := cachefile.PromptDiff(
		map[string][]string{"extraction": {"extract_triplets.v2", "extract_asked_facts.v1"}, "judge": {"geval.v1"}},
		map[string][]string{"extraction": {"extract_triplets.v3", "extract_asked_facts.v1"}, "judge": {"geval.v1", "fact_labels.v2"}})
	if strings.Join(stale, ",") != "extract_triplets.v2" || strings.Join(missing, ",") != "extract_triplets.v3,fact_labels.v2" {
		t.Errorf("stale %v missing %v", stale, missing)
	}
}
