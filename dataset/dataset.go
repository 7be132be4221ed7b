// Package dataset loads RAG samples from JSONL, JSON-array, CSV and Parquet
// files (SPEC §1). It accepts the RAGAS field aliases, validates every record
// and never stops at a bad one: each rejected record is reported with its
// 1-based record number and the reason, and the others load.
//
// A file is bounded by what it expands to, not only by its size:
// at most Options.MaxRecords records and Options.MaxDecodedBytes decoded
// bytes, and a Parquet file's footer and pages are checked against those
// limits before anything is decompressed (parquet.go). MemoryBound says what
// a load within them may hold, for a memory budget shared by loads at once.
//
// A record is bounded by its structure too: how deep it nests
// (Options.MaxDepth) and how many values it holds (Options.MaxValues) are
// counted on its JSON text before it is decoded (shape.go), so that a
// record of millions of empty objects is rejected, naming the field, for
// the cost of reading its bytes; the values of all records are capped too
// (Options.MaxFileValues). Meter counts the same as an upload arrives: what
// the load will hold, the decoded structure of its records included.
package dataset

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
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
	// MaxRecords caps the records of a file (dataset.max_records): the
	// load stops at the first record over it with ETOOLARGE. 0: no cap.
	MaxRecords int
	// MaxDecodedBytes caps what a file expands to
	// (dataset.max_decoded_bytes): the bytes read of a JSONL, JSON or CSV
	// file; for Parquet, its pages decompressed (checked against the
	// footer and each page header before any page is decompressed) and,
	// apart, the bytes of the values its rows hold (a dictionary repeats
	// one value many times). Over it the load stops with ETOOLARGE; a
	// Parquet file also holds at most MaxDecodedBytes/ValueCost values.
	// 0: no cap.
	MaxDecodedBytes int64
	// MaxRejections caps the rejections Result.Rejected lists (the first
	// ones); Result.RejectedTotal counts them all. 0: all are listed.
	MaxRejections int
	// MaxDepth caps how deep a record nests (dataset.max_depth; the
	// record is level 1, its fields level 2) and MaxValues the values it
	// holds (dataset.max_values: every member of an object and element of
	// an array in it, at any depth). A record over either is rejected,
	// the field where it passed named, before it is decoded. 0: no cap.
	MaxDepth, MaxValues int
	// MaxFileValues caps the values of all records of a file, counted as
	// they are read, rejected records' included (dataset.max_file_values):
	// over it the load stops with ETOOLARGE. 0: no cap.
	MaxFileValues int64
}

// Result is what a load produced.
type Result struct {
	Path   string
	Format string
	// Fingerprint is the file's Fingerprint, hashed as Load read it (Read
	// leaves it empty).
	Fingerprint string
	Samples     []kgeval.Sample
	// Rejected lists the rejected records, the first Options.MaxRejections
	// of them when that is set; RejectedTotal counts them all.
	Rejected      []kgeval.Rejection
	RejectedTotal int
}

// Records returns the number of records read, loaded or not.
func (r *Result) Records() int { return len(r.Samples) + r.RejectedTotal }

// Evaluable tells why r's samples cannot be evaluated, naming the file
// name in the message: it has no valid record or, with strict
// (dataset.strict), it has rejected records.
func (r *Result) Evaluable(name string, strict bool) error {
	if len(r.Samples) == 0 {
		return kgeval.Errorf(kgeval.EINVALID, "%s: no valid record", name)
	}
	if r.RejectedTotal > 0 && strict {
		return kgeval.Errorf(kgeval.EINVALID, "%d record(s) rejected and dataset.strict is set", r.RejectedTotal)
	}
	return nil
}

// MemoryBound returns about the most a load of a file of format and size
// bytes within opt's limits adds to the process's memory at its peak, for
// a memory budget shared by the loads that run at the same time: 3 bytes
// per byte of a text format (its size, or opt.MaxDecodedBytes if less) or
// 2.5 per byte a Parquet file may expand to (opt.MaxDecodedBytes), 512
// bytes per record it may hold (a sample, its id, its strings' headers)
// and 8 MiB for the readers. Peaks measured without GOMEMLIMIT stay under
// it (TestMemoryBound). It is -1 when opt leaves a Parquet file unbounded
// (no MaxDecodedBytes).
func MemoryBound(format string, size int64, opt Options) int64 {
	expands := size
	if format == FormatParquet {
		expands = -1
	}
	if opt.MaxDecodedBytes > 0 && (expands < 0 || expands > opt.MaxDecodedBytes) {
		expands = opt.MaxDecodedBytes
	}
	if expands < 0 {
		return -1
	}
	// A valid record takes 16 bytes at least ({"question":"a"}); in
	// Parquet, a value costs ValueCost.
	records := max(expands/16, expands/ValueCost) + 1
	if opt.MaxRecords > 0 {
		records = min(records, int64(opt.MaxRecords))
	}
	per := int64(6) // half-bytes per byte
	if format == FormatParquet {
		per = 5
	}
	return expands*per/2 + records*512 + 8<<20
}

// UploadCost is what reading an upload may hold within opt's limits
// (MemoryBound), for the dashboard's upload memory budget
// (web.upload_memory_bytes).
func UploadCost(opt Options) func(name string, size int64) int64 {
	return func(name string, size int64) int64 {
		format, err := FormatOf(name)
		if err != nil {
			return 1 // refused by its name before it is read
		}
		return MemoryBound(format, size, opt)
	}
}

// FormatOf returns the format the name of a dataset file gives by its
// extension (.jsonl, .ndjson, .json, .csv, .parquet, .pq). Errors:
// EINVALID.
func FormatOf(name string) (string, error) { return formatOf(name) }

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
// header), ETOOLARGE when it is over a limit of opt (the message says which
// and what was read before it). Bad records are not errors: they are in
// Result.Rejected.
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
			return nil, fileError(err, path, "dataset %s: not a readable Parquet file", path)
		}
		// A Parquet file is read where its columns are: its bytes are
		// hashed apart, from the file already open.
		if res.Fingerprint, err = fingerprintOf(io.NewSectionReader(f, 0, st.Size())); err != nil {
			return nil, kgeval.Wrap(kgeval.EINVALID, err, "dataset %s", path)
		}
	} else {
		h := sha256.New()
		res, err = Read(io.TeeReader(f, h), format, opt)
		if err != nil {
			return nil, fileError(err, path, "dataset %s", path)
		}
		// The fingerprint is of the whole file: what Read left unread too.
		if _, err := io.Copy(h, f); err != nil {
			return nil, kgeval.Wrap(kgeval.EINVALID, err, "dataset %s", path)
		}
		res.Fingerprint = hex.EncodeToString(h.Sum(nil))
	}
	res.Path = path
	return res, nil
}

// fileError names path in err's message when err is an application error
// (a limit, a refused Parquet structure), keeping its code; any other error
// is EINVALID with the message of format and args, the details logged.
func fileError(err error, path, format string, args ...any) error {
	var e *kgeval.Error
	if errors.As(err, &e) {
		return &kgeval.Error{Code: e.Code, Message: fmt.Sprintf("dataset %s: %s", path, e.Message), Err: e.Err}
	}
	return kgeval.Wrap(kgeval.EINVALID, err, format, args...)
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
// Errors: EINVALID (unknown format, unreadable CSV header), ETOOLARGE (over
// opt.MaxRecords or opt.MaxDecodedBytes).
func Read(r io.Reader, format string, opt Options) (*Result, error) {
	v := newValidator(opt)
	br := bufio.NewReaderSize(&countingReader{r: r, v: v}, 1<<16)
	if b, _ := br.Peek(3); bytes.Equal(b, utf8BOM) {
		br.Discard(3)
	}
	res, err := read(br, format, v)
	if v.err != nil {
		return nil, v.err
	}
	return res, err
}

func read(br *bufio.Reader, format string, v *validator) (*Result, error) {
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
	return v.result(format), nil
}

// errDecodedBytes ends a text read at dataset.max_decoded_bytes (the
// validator holds the error the user sees).
var errDecodedBytes = errors.New("over dataset.max_decoded_bytes")

// countingReader counts the bytes a text format reads against
// dataset.max_decoded_bytes, and fails the read past it: no line, array
// element or CSV field can then grow past the limit.
type countingReader struct {
	r io.Reader
	v *validator
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.v.err != nil {
		return 0, errDecodedBytes
	}
	n, err := c.r.Read(p)
	if !c.v.decode(int64(n), "the file holds") {
		return 0, errDecodedBytes
	}
	return n, err
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
	for line := 1; v.err == nil; line++ {
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
	for rec := 1; v.err == nil && dec.More(); rec++ {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			v.reject(rec, "", "invalid JSON (file truncated or malformed; nothing after this record was read): "+err.Error())
			return
		}
		v.addJSON(rec, raw)
	}
	if _, err := dec.Token(); err != nil {
		v.reject(v.records()+1, "", "invalid JSON array end (file truncated?): "+err.Error())
	}
}

// addJSON decodes one JSON record and validates it.
func (v *validator) addJSON(rec int, b []byte) {
	if !utf8.Valid(b) {
		v.reject(rec, "", "invalid UTF-8 at byte "+fmt.Sprint(firstInvalidUTF8(b)))
		return
	}
	// A record that is valid JSON but not an object gets the decoder's
	// reason without the decoder: a file of millions of them costs a
	// pass over its bytes.
	if kind := jsonKind(b); kind != "" && kind != "object" && json.Valid(b) {
		v.reject(rec, "", "wrong type: a record must be a JSON object, got "+kind)
		return
	}
	// Its structure is walked before anything is built.
	if !v.room(rec) {
		return
	}
	v.cur = rec
	if reason, ok := v.shape("", b); !ok {
		if reason != "" {
			v.reject(rec, "", reason)
		}
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

// jsonKind names the JSON value b starts with as the decoder's type errors
// do ("" if it starts with none).
func jsonKind(b []byte) string {
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return ""
	}
	switch c := b[0]; {
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == '"':
		return "string"
	case c == 't' || c == 'f':
		return "bool"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "number"
	}
	return ""
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
