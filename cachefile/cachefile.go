// Package cachefile reads and writes cache snapshots: the model answers and
// label vectors of kgeval's shared cache (graphstore.Cache), as a file that
// can live in a repository and be imported into another store, so that an
// evaluation replays with no model call (`kgeval evaluate --cache-only`).
//
// # Format (kgeval-cache/1)
//
// A snapshot is gzip-compressed JSON Lines (an uncompressed file is read
// too). The first line is the Header; every other line is one entry,
//
//	{"key":"extract:3f2a…","value":"{\"triplets\":[…]}"}
//
// with the key and value exactly as the cache stores them: the key is a
// kind ("extract", "embed", "judge"), ':' and a sha256 of everything the
// answer depends on (model, prompt version, input), the value a model's
// JSON answer or a base64 vector. Entries are sorted by key and each key
// appears once, so the same store gives the same entry lines byte for byte;
// the header's export time is its last field and can be left out
// (`cache export --no-time`), so two snapshots of one store diff clean.
//
// A key's hash includes the prompt version, so an entry made with a prompt
// this kgeval no longer sends is never hit: the header lists the prompt
// versions of the kgeval that wrote it, and import warns when they differ.
package cachefile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/kgeval/kgeval"
)

// Format is the format version this package writes and reads.
const Format = "kgeval-cache/1"

// Header is the first line of a snapshot.
type Header struct {
	Format string `json:"format"`
	// Kgeval is the version of the kgeval that wrote the file.
	Kgeval string `json:"kgeval"`
	// Kinds and Runs are the export's selection (empty: all).
	Kinds []string `json:"kinds"`
	// Runs describes each selected run: the entries are those it used.
	Runs []Run `json:"runs"`
	// Prompts lists the prompt versions of the kgeval that wrote the file,
	// by package ("extraction", "judge").
	Prompts map[string][]string `json:"prompts"`
	// Counts is the number of entries by kind; Entries their total.
	Counts  map[string]int `json:"counts"`
	Entries int            `json:"entries"`
	// Exported is when the file was written (omitted with --no-time). Last,
	// so that the rest of the header diffs clean.
	Exported *time.Time `json:"exported,omitempty"`
}

// Run is a run whose cache entries a snapshot holds, as its record in the
// store describes it.
type Run struct {
	Name        string `json:"name"`
	Dataset     string `json:"dataset"`
	Fingerprint string `json:"fingerprint"`
	// LLM is the endpoint and model ("http://…/v1#model"), Model the model
	// alone: part of every extraction and judge key.
	LLM   string `json:"llm"`
	Model string `json:"model"`
	// Encoder is the sentence encoder: part of every embed key.
	Encoder string   `json:"encoder"`
	Metrics []string `json:"metrics,omitempty"`
	Status  string   `json:"status"`
	// ModelCalls and Failed are the run's model requests, all attempts:
	// answered, and ended without a valid answer. A failed request left
	// nothing in the cache, so a --cache-only replay refuses it again.
	ModelCalls int64 `json:"model_calls"`
	Failed     int64 `json:"failed_requests"`
}

// Entry is one cached answer or vector.
type Entry struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Kind returns the kind of a cache key: its prefix up to the first ':'
// ("" when there is none).
func Kind(key string) string {
	k, _, ok := strings.Cut(key, ":")
	if !ok {
		return ""
	}
	return k
}

// Source returns the entries after the key after, in key order, at most
// limit of them; an empty page ends the export.
type Source func(ctx context.Context, after string, limit int) ([]Entry, error)

// pageSize is how many entries Export asks its Source for at a time.
const pageSize = 2000

// Export reads every entry src gives into a temporary file, counting them
// by kind, then writes h (with Format, Counts and Entries set) and the
// entries to w as a gzip-compressed snapshot, and returns the header
// written. Errors: EINTERNAL when src breaks key order or gives a value that
// is not UTF-8 text (JSON would not keep it exactly); src's and w's errors.
func Export(ctx context.Context, w io.Writer, h Header, src Source) (Header, error) {
	spool, err := os.CreateTemp("", "kgeval-cache-*.jsonl")
	if err != nil {
		return h, kgeval.Wrap(kgeval.EINTERNAL, err, "cache export: temporary file")
	}
	defer os.Remove(spool.Name())
	defer spool.Close()
	bw := bufio.NewWriter(spool)
	h.Format, h.Counts, h.Entries = Format, map[string]int{}, 0
	after := ""
	for {
		page, err := src(ctx, after, pageSize)
		if err != nil {
			return h, err
		}
		if len(page) == 0 {
			break
		}
		for _, e := range page {
			if h.Entries > 0 && e.Key <= after {
				return h, kgeval.Errorf(kgeval.EINTERNAL, "cache export: key %q after %q: the source broke key order", e.Key, after)
			}
			if !isText(e.Value) {
				return h, kgeval.Errorf(kgeval.EINTERNAL, "cache export: the value of %s is not UTF-8 text", e.Key)
			}
			if err := writeLine(bw, e); err != nil {
				return h, kgeval.Wrap(kgeval.EINTERNAL, err, "cache export: temporary file")
			}
			after = e.Key
			h.Counts[Kind(e.Key)]++
			h.Entries++
		}
	}
	if err := bw.Flush(); err != nil {
		return h, kgeval.Wrap(kgeval.EINTERNAL, err, "cache export: temporary file")
	}
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return h, kgeval.Wrap(kgeval.EINTERNAL, err, "cache export: temporary file")
	}
	// A zero gzip header (no name, no time): the same entries give the
	// same bytes.
	zw := gzip.NewWriter(w)
	if err := writeLine(zw, h); err != nil {
		return h, err
	}
	if _, err := io.Copy(zw, spool); err != nil {
		return h, err
	}
	return h, zw.Close()
}

func isText(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// writeLine writes v as one line of JSON, HTML characters unescaped.
func writeLine(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// LineError is a malformed entry line: the import reports it and goes on.
type LineError struct {
	Line   int
	Reason string
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Reason) }

// Reader reads a snapshot: the header first (NewReader), then one entry at
// a time (Next).
type Reader struct {
	h      Header
	r      *bufio.Reader
	line   int
	seen   map[string]int // key -> line
	counts map[string]int
}

// NewReader reads and checks the header of the snapshot in r (gzip or
// plain). Errors: EINVALID when the first line is not a kgeval cache header
// or names a format other than Format.
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, kgeval.Wrap(kgeval.EINVALID, err, "not a kgeval cache snapshot: bad gzip data")
		}
		br = bufio.NewReaderSize(zr, 1<<16)
	}
	rd := &Reader{r: br, seen: map[string]int{}, counts: map[string]int{}}
	first, err := rd.readLine()
	switch {
	case err != nil && !errors.Is(err, io.EOF):
		return nil, kgeval.Wrap(kgeval.EINVALID, err, "not a kgeval cache snapshot: line 1 cannot be read")
	case len(bytes.TrimSpace(first)) == 0:
		return nil, kgeval.Errorf(kgeval.EINVALID, "not a kgeval cache snapshot: line 1 is empty (want a header with \"format\": %q)", Format)
	}
	var probe struct {
		Format *string `json:"format"`
	}
	if err := json.Unmarshal(first, &probe); err != nil || probe.Format == nil {
		return nil, kgeval.Errorf(kgeval.EINVALID, "not a kgeval cache snapshot: line 1 is not a header object with a \"format\" (want %q)", Format)
	}
	if *probe.Format != Format {
		return nil, kgeval.Errorf(kgeval.EINVALID, "unknown cache snapshot format %q: this kgeval reads %q (a newer kgeval wrote it? export it again with this version)", *probe.Format, Format)
	}
	if err := json.Unmarshal(first, &rd.h); err != nil {
		return nil, kgeval.Wrap(kgeval.EINVALID, err, "cache snapshot header (line 1)")
	}
	return rd, nil
}

// Header returns the snapshot's header.
func (r *Reader) Header() Header { return r.h }

// Counts returns the number of entries read so far, by kind.
func (r *Reader) Counts() map[string]int { return r.counts }

// readLine returns the next line without its newline, counting lines.
func (r *Reader) readLine() ([]byte, error) {
	b, err := r.r.ReadBytes('\n')
	if len(b) > 0 || err == nil {
		r.line++
	}
	return bytes.TrimRight(b, "\r\n"), err
}

// Next returns the next entry. It returns io.EOF after the last one, a
// *LineError for a malformed line (the caller may go on with Next), and
// EINVALID when the file is cut short or corrupt (no entry follows).
// Blank lines are skipped.
func (r *Reader) Next() (Entry, error) {
	for {
		b, err := r.readLine()
		if err != nil && !errors.Is(err, io.EOF) {
			return Entry{}, kgeval.Wrap(kgeval.EINVALID, err, "line %d: the snapshot is cut short or corrupt", r.line)
		}
		if len(bytes.TrimSpace(b)) == 0 {
			if err != nil {
				return Entry{}, io.EOF
			}
			continue
		}
		// A last line without its newline is read like any other: cut
		// short, it is not valid JSON.
		e, lerr := r.parse(b)
		if lerr != nil {
			return Entry{}, lerr
		}
		r.seen[e.Key] = r.line
		r.counts[Kind(e.Key)]++
		return e, nil
	}
}

func (r *Reader) parse(b []byte) (Entry, *LineError) {
	bad := func(format string, args ...any) (Entry, *LineError) {
		return Entry{}, &LineError{Line: r.line, Reason: fmt.Sprintf(format, args...)}
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return bad("not a JSON object: %v", err)
	}
	var e Entry
	for _, f := range []struct {
		name string
		dst  *string
	}{{"key", &e.Key}, {"value", &e.Value}} {
		v, ok := raw[f.name]
		if !ok {
			return bad("no %q", f.name)
		}
		if err := json.Unmarshal(v, f.dst); err != nil {
			return bad("%q is not a string", f.name)
		}
	}
	switch {
	case Kind(e.Key) == "":
		return bad("key %q has no kind (want kind:hash, e.g. extract:…)", truncate(e.Key, 40))
	case r.seen[e.Key] > 0:
		return bad("duplicate key %s (first on line %d)", truncate(e.Key, 40), r.seen[e.Key])
	}
	return e, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Sink stores one batch of entries with distinct keys.
type Sink func(ctx context.Context, batch []Entry) error

// Import reads every entry of r and hands them to sink in batches of
// batch (1000 when 0), in file order. Malformed lines go to onBad (may be
// nil) and are skipped. It returns the number of entries read and of
// malformed lines. Errors: the file's (cut short: the entries before the
// break are stored) and sink's.
func Import(ctx context.Context, r *Reader, sink Sink, batch int, onBad func(*LineError)) (entries, malformed int, err error) {
	if batch <= 0 {
		batch = 1000
	}
	buf := make([]Entry, 0, batch)
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		if err := sink(ctx, buf); err != nil {
			return err
		}
		entries += len(buf)
		buf = buf[:0]
		return nil
	}
	for {
		e, err := r.Next()
		var le *LineError
		switch {
		case errors.Is(err, io.EOF):
			return entries, malformed, flush()
		case errors.As(err, &le):
			malformed++
			if onBad != nil {
				onBad(le)
			}
			continue
		case err != nil:
			if ferr := flush(); ferr != nil {
				return entries, malformed, ferr
			}
			return entries, malformed, err
		}
		buf = append(buf, e)
		if len(buf) == batch {
			if err := flush(); err != nil {
				return entries, malformed, err
			}
		}
	}
}

// PromptDiff compares the prompt versions of a snapshot's header with
// current ones (by package): stale are versions in the file that current
// lacks (their entries will never be hit), missing versions current uses
// that the file lacks (a replay needing them finds nothing). Both sorted.
func PromptDiff(file, current map[string][]string) (stale, missing []string) {
	flat := func(m map[string][]string) map[string]bool {
		out := map[string]bool{}
		for _, vs := range m {
			for _, v := range vs {
				out[v] = true
			}
		}
		return out
	}
	f, c := flat(file), flat(current)
	for v := range f {
		if !c[v] {
			stale = append(stale, v)
		}
	}
	for v := range c {
		if !f[v] {
			missing = append(missing, v)
		}
	}
	slices.Sort(stale)
	slices.Sort(missing)
	return stale, missing
}
