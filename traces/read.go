// Package traces reads the spans an instrumented RAG application records
// (OpenInference semantic conventions over OpenTelemetry) and turns each
// trace into a kgeval.Sample: the retriever's documents become the
// contexts, the question and the answer come from the chain's input and
// the last LLM call's output (Samples says the rules). It reads two
// formats: OTLP JSON (an OTLP/HTTP export request, or the OpenTelemetry
// Collector's file exporter: one request per line) and a Phoenix span
// export (the rows of Phoenix's spans dataframe as a JSON array or JSONL,
// or the spans of its REST API). `kgeval import-traces` and the Python
// package's from_traces both read through it.
package traces

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/kgeval/kgeval"
)

// Formats Read recognises.
const (
	FormatOTLP    = "otlp-json"
	FormatPhoenix = "phoenix"
)

// Span is one span, whatever format it came in: its attributes flattened
// to dotted keys with list elements indexed ("retrieval.documents.0.document.content"),
// as the OpenInference conventions name them in OTLP.
type Span struct {
	TraceID, SpanID, ParentID string
	Name                      string
	// Kind is the OpenInference span kind (openinference.span.kind): CHAIN,
	// RETRIEVER, RERANKER, LLM, EMBEDDING, TOOL, AGENT...; "" when unset.
	Kind string
	// Start and End are Unix nanoseconds (0 when unknown).
	Start, End int64
	// Service is the resource's service.name.
	Service string
	Attrs   map[string]any
}

// MaxSpans caps the spans one file may hold.
const MaxSpans = 1_000_000

// Read reads every span of r and reports the format it found. Errors:
// EINVALID for input that is neither format (naming what it found).
func Read(r io.Reader) ([]Span, string, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	var spans []Span
	format := ""
	for n := 1; ; n++ {
		var v any
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			return nil, format, kgeval.Wrap(kgeval.EINVALID, err, "traces: JSON value %d", n)
		}
		got, f, err := readValue(v)
		if err != nil {
			return nil, format, kgeval.Wrap(kgeval.EINVALID, err, "traces: JSON value %d", n)
		}
		if format != "" && f != format {
			return nil, format, kgeval.Errorf(kgeval.EINVALID, "traces: JSON value %d is %s, the ones before it %s: one format per file", n, f, format)
		}
		format = f
		spans = append(spans, got...)
		if len(spans) > MaxSpans {
			return nil, format, kgeval.Errorf(kgeval.ETOOLARGE, "traces: more than %d spans", MaxSpans)
		}
	}
	if len(spans) == 0 {
		return nil, format, kgeval.Errorf(kgeval.EINVALID, "traces: no span found (want OTLP JSON with resourceSpans, or a Phoenix span export)")
	}
	return spans, format, nil
}

// readValue reads the spans of one top-level JSON value.
func readValue(v any) ([]Span, string, error) {
	switch x := v.(type) {
	case map[string]any:
		if rs, ok := x["resourceSpans"]; ok {
			spans, err := otlpSpans(rs)
			return spans, FormatOTLP, err
		}
		if rs, ok := x["resource_spans"]; ok {
			spans, err := otlpSpans(rs)
			return spans, FormatOTLP, err
		}
		if data, ok := x["data"].([]any); ok { // Phoenix REST API: {"data": [span...], "next_cursor"}
			spans, err := phoenixRows(data)
			return spans, FormatPhoenix, err
		}
		s, err := phoenixRow(x)
		if err != nil {
			return nil, "", err
		}
		return []Span{s}, FormatPhoenix, nil
	case []any:
		spans, err := phoenixRows(x)
		return spans, FormatPhoenix, err
	}
	return nil, "", fmt.Errorf("a %T: want an OTLP export request {\"resourceSpans\": ...} or Phoenix span rows", v)
}

// otlpSpans reads the resourceSpans of an OTLP JSON export request.
func otlpSpans(v any) ([]Span, error) {
	rss, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("resourceSpans is a %T, want a list", v)
	}
	var out []Span
	for _, rs := range rss {
		rsm, _ := rs.(map[string]any)
		res, _ := rsm["resource"].(map[string]any)
		service, _ := otlpAttrs(res["attributes"])["service.name"].(string)
		scopes, _ := first(rsm, "scopeSpans", "scope_spans", "instrumentationLibrarySpans").([]any)
		for _, sc := range scopes {
			scm, _ := sc.(map[string]any)
			spans, _ := scm["spans"].([]any)
			for _, sp := range spans {
				spm, ok := sp.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("a span is a %T, want an object", sp)
				}
				s := Span{Service: service, Name: str(spm["name"]), Attrs: otlpAttrs(spm["attributes"])}
				var err error
				if s.TraceID, err = otlpID(first(spm, "traceId", "trace_id"), 16); err != nil {
					return nil, fmt.Errorf("span %q traceId: %w", s.Name, err)
				}
				if s.SpanID, err = otlpID(first(spm, "spanId", "span_id"), 8); err != nil {
					return nil, fmt.Errorf("span %q spanId: %w", s.Name, err)
				}
				if s.ParentID, err = otlpID(first(spm, "parentSpanId", "parent_span_id"), 8); err != nil {
					return nil, fmt.Errorf("span %q parentSpanId: %w", s.Name, err)
				}
				s.Start = nanos(first(spm, "startTimeUnixNano", "start_time_unix_nano"))
				s.End = nanos(first(spm, "endTimeUnixNano", "end_time_unix_nano"))
				s.Kind = strings.ToUpper(str(s.Attrs["openinference.span.kind"]))
				if s.TraceID == "" || s.SpanID == "" {
					return nil, fmt.Errorf("span %q has no traceId or spanId", s.Name)
				}
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// otlpID reads a trace or span id of n bytes: lower-case hex as the OTLP
// JSON encoding has it, or base64 as a generic protobuf-to-JSON writer
// gives it. "" stays "" (no parent).
func otlpID(v any, n int) (string, error) {
	s := str(v)
	if s == "" {
		return "", nil
	}
	if len(s) == 2*n {
		if _, err := hex.DecodeString(s); err == nil {
			return strings.ToLower(s), nil
		}
	}
	if b, err := base64.StdEncoding.DecodeString(s); err == nil && len(b) == n {
		return hex.EncodeToString(b), nil
	}
	return "", fmt.Errorf("%q is neither %d hex digits nor base64 of %d bytes", s, 2*n, n)
}

// otlpAttrs flattens a list of OTLP KeyValue into dotted keys.
func otlpAttrs(v any) map[string]any {
	out := map[string]any{}
	kvs, _ := v.([]any)
	for _, kv := range kvs {
		m, _ := kv.(map[string]any)
		flatten(out, str(m["key"]), otlpValue(m["value"]))
	}
	return out
}

// otlpValue decodes an OTLP AnyValue.
func otlpValue(v any) any {
	m, _ := v.(map[string]any)
	for k, x := range m {
		switch k {
		case "stringValue", "string_value":
			return str(x)
		case "intValue", "int_value", "doubleValue", "double_value":
			f, _ := strconv.ParseFloat(str(x), 64)
			return f
		case "boolValue", "bool_value":
			b, _ := x.(bool)
			return b
		case "bytesValue", "bytes_value":
			return str(x)
		case "arrayValue", "array_value":
			am, _ := x.(map[string]any)
			vs, _ := am["values"].([]any)
			out := make([]any, len(vs))
			for i, e := range vs {
				out[i] = otlpValue(e)
			}
			return out
		case "kvlistValue", "kvlist_value":
			km, _ := x.(map[string]any)
			return otlpAttrsMap(km["values"])
		}
	}
	return nil
}

func otlpAttrsMap(v any) map[string]any {
	out := map[string]any{}
	kvs, _ := v.([]any)
	for _, kv := range kvs {
		m, _ := kv.(map[string]any)
		out[str(m["key"])] = otlpValue(m["value"])
	}
	return out
}

// phoenixRows reads the rows of a Phoenix span export.
func phoenixRows(rows []any) ([]Span, error) {
	out := make([]Span, 0, len(rows))
	for i, r := range rows {
		m, ok := r.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("row %d is a %T, want an object", i+1, r)
		}
		s, err := phoenixRow(m)
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", i+1, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// phoenixRow reads one span of Phoenix: a row of its spans dataframe
// (flat columns context.span_id, attributes.input.value, ...) or a span of
// its REST API (context {trace_id, span_id}, attributes {...}).
func phoenixRow(m map[string]any) (Span, error) {
	flat := map[string]any{}
	for k, v := range m {
		flatten(flat, k, v)
	}
	s := Span{Name: str(flat["name"]), TraceID: str(flat["context.trace_id"]), SpanID: str(flat["context.span_id"]),
		ParentID: str(flat["parent_id"]), Attrs: map[string]any{}}
	for k, v := range flat {
		if a, ok := strings.CutPrefix(k, "attributes."); ok {
			s.Attrs[a] = v
		}
	}
	s.Kind = strings.ToUpper(str(first(flat, "span_kind", "attributes.openinference.span.kind")))
	s.Start, s.End = phoenixTime(flat["start_time"]), phoenixTime(flat["end_time"])
	if s.TraceID == "" || s.SpanID == "" {
		return s, fmt.Errorf("no context.trace_id or context.span_id: not a Phoenix span (keys: %s)", keys(m))
	}
	return s, nil
}

// phoenixTime reads a time of a Phoenix export: RFC 3339 text, or Unix
// milliseconds as pandas writes a timestamp to JSON.
func phoenixTime(v any) int64 {
	switch x := v.(type) {
	case string:
		if t, err := time.Parse(time.RFC3339Nano, x); err == nil {
			return t.UnixNano()
		}
		if t, err := time.Parse("2006-01-02 15:04:05.999999999Z07:00", x); err == nil {
			return t.UnixNano()
		}
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return int64(f * 1e6)
		}
	}
	return 0
}

// flatten puts v into out under key, objects and lists spread into dotted
// keys; a string that holds a JSON list or object (Phoenix writes some
// columns so) is left a string.
func flatten(out map[string]any, key string, v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			flatten(out, key+"."+k, e)
		}
	case []any:
		for i, e := range x {
			flatten(out, key+"."+strconv.Itoa(i), e)
		}
	case json.Number:
		f, _ := x.Float64()
		out[key] = f
	default:
		out[key] = v
	}
}

func first(m map[string]any, names ...string) any {
	for _, n := range names {
		if v, ok := m[n]; ok && v != nil {
			return v
		}
	}
	return nil
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return ""
}

func nanos(v any) int64 {
	n, _ := strconv.ParseInt(str(v), 10, 64)
	return n
}

func keys(m map[string]any) string {
	var b bytes.Buffer
	n := 0
	for k := range m {
		if n == 8 {
			b.WriteString(", ...")
			break
		}
		if n > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k)
		n++
	}
	return b.String()
}
