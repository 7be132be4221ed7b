// Package dataset loads RAG samples from JSONL, JSON-array, CSV and Parquet
// files (SPEC §1). It accepts the RAGAS field aliases, validates every record
// and never stops at a bad one: each rejected record is reported with its
// 1-based record number and the reason, and the others load.
package dataset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/kgeval/kgeval"
)

// Options bound what a record may hold.
type Options struct {
	// MaxTextChars caps every text field (question, answer, reference, each
	// context passage) in characters; 0 means no cap.
	MaxTextChars int
	// MaxLabelChars caps each field of a pre-extracted triplet; longer fields
	// are cut (SPEC §2); 0 means no cap.
	MaxLabelChars int
}

// Result is what a load produced.
type Result struct {
	Path     string
	Format   string
	Samples  []kgeval.Sample
	Rejected []kgeval.Rejection
}

// Records returns the number of records read, loaded or not.
func (r *Result) Records() int { return len(r.Samples) + len(r.Rejected) }

// Formats kgeval reads, by name.
const (
	FormatJSONL   = "jsonl"
	FormatJSON    = "json"
	FormatCSV     = "csv"
	FormatParquet = "parquet"
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Load reads the dataset in path. The format comes from the extension
// (.jsonl/.ndjson, .json, .csv, .parquet); a .json file holding one object
// per line is read as JSONL. Errors: ENOTFOUND when the file does not exist,
// EINVALID when it is not a dataset at all (unknown extension, unreadable
// header). Bad records are not errors: they are in Result.Rejected.
func Load(path string, opt Options) (*Result, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, kgeval.Errorf(kgeval.ENOTFOUND, "dataset %s: no such file", path)
	} else if err != nil {
		return nil, kgeval.Wrap(kgeval.EINVALID, err, "dataset %s", path)
	}
	defer f.Close()
	format, err := formatOf(path)
	if err != nil {
		return nil, err
	}
	var res *Result
	if format == FormatParquet {
		st, err := f.Stat()
		if err != nil {
			return nil, kgeval.Wrap(kgeval.EINVALID, err, "dataset %s", path)
		}
		res, err = readParquet(f, st.Size(), opt)
		if err != nil {
			return nil, kgeval.Wrap(kgeval.EINVALID, err, "dataset %s: not a readable Parquet file", path)
		}
	} else {
		res, err = Read(f, format, opt)
		if err != nil {
			return nil, kgeval.Wrap(kgeval.EINVALID, err, "dataset %s", path)
		}
	}
	res.Path = path
	return res, nil
}

func formatOf(path string) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jsonl", ".ndjson":
		return FormatJSONL, nil
	case ".json":
		return FormatJSON, nil
	case ".csv":
		return FormatCSV, nil
	case ".parquet", ".pq":
		return FormatParquet, nil
	}
	return "", kgeval.Errorf(kgeval.EINVALID, "dataset %s: unknown format %q (use .jsonl, .json, .csv or .parquet)", path, filepath.Ext(path))
}

// Read reads a dataset in a text format (jsonl, json or csv) from r.
func Read(r io.Reader, format string, opt Options) (*Result, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if b, _ := br.Peek(3); bytes.Equal(b, utf8BOM) {
		br.Discard(3)
	}
	v := newValidator(opt)
	switch format {
	case FormatJSONL:
		readJSONL(br, v)
	case FormatJSON:
		// A .json file may hold an array or one object per line.
		if first, _ := peekNonSpace(br); first == '[' {
			readJSONArray(br, v)
		} else {
			readJSONL(br, v)
		}
	case FormatCSV:
		if err := readCSV(br, v); err != nil {
			return nil, err
		}
	default:
		return nil, kgeval.Errorf(kgeval.EINVALID, "unknown dataset format %q", format)
	}
	return &Result{Format: format, Samples: v.samples, Rejected: v.rejected}, nil
}

func peekNonSpace(br *bufio.Reader) (byte, error) {
	for n := 1; ; n++ {
		b, err := br.Peek(n)
		if len(b) < n {
			return 0, err
		}
		if c := b[n-1]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return c, nil
		}
	}
}

// readJSONL reads one JSON object per line; blank lines are skipped but
// still counted, so record numbers are line numbers.
func readJSONL(br *bufio.Reader, v *validator) {
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		b = bytes.TrimRight(b, "\r\n")
		if len(bytes.TrimSpace(b)) > 0 {
			v.addJSON(line, b)
		}
		if err != nil {
			if err != io.EOF {
				v.reject(line, "", "read error: "+err.Error())
			}
			return
		}
	}
}

// readJSONArray reads a JSON array of objects element by element, so that a
// broken element is reported with its position. A syntax error that breaks
// the array itself (a truncated file) ends the read at that element.
func readJSONArray(br *bufio.Reader, v *validator) {
	dec := json.NewDecoder(br)
	if _, err := dec.Token(); err != nil {
		v.reject(1, "", "invalid JSON array: "+err.Error())
		return
	}
	for rec := 1; dec.More(); rec++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			v.reject(rec, "", "invalid JSON (file truncated or malformed; nothing after this record was read): "+err.Error())
			return
		}
		v.addJSON(rec, raw)
	}
	if _, err := dec.Token(); err != nil {
		v.reject(len(v.samples)+len(v.rejected)+1, "", "invalid JSON array end (file truncated?): "+err.Error())
	}
}

// addJSON decodes one JSON record and validates it.
func (v *validator) addJSON(rec int, b []byte) {
	if !utf8.Valid(b) {
		v.reject(rec, "", "invalid UTF-8 at byte "+fmt.Sprint(firstInvalidUTF8(b)))
		return
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			v.reject(rec, "", fmt.Sprintf("wrong type: a record must be a JSON object, got %s", te.Value))
		} else {
			v.reject(rec, "", "invalid JSON: "+err.Error())
		}
		return
	}
	if m == nil {
		v.reject(rec, "", "wrong type: a record must be a JSON object, got null")
		return
	}
	if dec.More() {
		v.reject(rec, "", "invalid JSON: more than one value on the line")
		return
	}
	v.add(rec, m)
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}
