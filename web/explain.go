package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
)

// Explanation is a stored metric explanation (JSON of a shape that depends
// on the metric) turned into something a template can draw generically: an
// object becomes key/value rows, a list of objects a table with a column
// per key, a list of scalars an inline list, anything else its text. Keys
// keep their stored order.
type Explanation struct {
	// Kind is "text", "null", "kv", "table" or "list".
	Kind string
	Text string
	// Keys are the keys of a kv (with Values) or the columns of a table.
	Keys   []string
	Values []*Explanation
	Rows   [][]*Explanation
	Items  []*Explanation
	// More counts the rows or items left out past the caps.
	More int
}

// Caps on what an explanation may make the page draw.
const (
	explainMaxDepth = 6
	explainMaxRows  = 200
)

// explain decodes a stored explanation; nil when there is none or it is
// not JSON.
func explain(raw []byte) *Explanation {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := decodeOrdered(dec, 0)
	if err != nil {
		return nil
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil
	}
	return v
}

// decodeOrdered reads one JSON value from dec, keeping object key order.
func decodeOrdered(dec *json.Decoder, depth int) (*Explanation, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			e := &Explanation{Kind: "kv"}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeOrdered(dec, depth+1)
				if err != nil {
					return nil, err
				}
				e.Keys = append(e.Keys, k.(string))
				e.Values = append(e.Values, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return flatten(e, depth), nil
		case '[':
			e := &Explanation{Kind: "list"}
			for dec.More() {
				v, err := decodeOrdered(dec, depth+1)
				if err != nil {
					return nil, err
				}
				e.Items = append(e.Items, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return tabulate(e, depth), nil
		}
		return nil, errors.New("unexpected delimiter")
	case nil:
		return &Explanation{Kind: "null", Text: "null"}, nil
	case json.Number:
		return &Explanation{Kind: "text", Text: formatNumber(t)}, nil
	case bool:
		return &Explanation{Kind: "text", Text: strconv.FormatBool(t)}, nil
	case string:
		return &Explanation{Kind: "text", Text: t}, nil
	}
	return nil, errors.New("unexpected token")
}

// flatten turns an object nested deeper than the depth cap into its JSON
// text.
func flatten(e *Explanation, depth int) *Explanation {
	if depth < explainMaxDepth {
		return e
	}
	return &Explanation{Kind: "text", Text: e.String()}
}

// tabulate turns a list whose items are all objects into a table with a
// column per key (in order of first appearance), and caps its rows.
func tabulate(e *Explanation, depth int) *Explanation {
	if depth >= explainMaxDepth {
		return &Explanation{Kind: "text", Text: e.String()}
	}
	if len(e.Items) > explainMaxRows {
		e.More = len(e.Items) - explainMaxRows
		e.Items = e.Items[:explainMaxRows]
	}
	if len(e.Items) == 0 {
		return e
	}
	col := map[string]int{}
	var keys []string
	for _, it := range e.Items {
		if it.Kind != "kv" {
			return e
		}
		for _, k := range it.Keys {
			if _, ok := col[k]; !ok {
				col[k] = len(keys)
				keys = append(keys, k)
			}
		}
	}
	t := &Explanation{Kind: "table", Keys: keys, More: e.More}
	for _, it := range e.Items {
		row := make([]*Explanation, len(keys))
		for i, k := range it.Keys {
			row[col[k]] = it.Values[i]
		}
		for i := range row {
			if row[i] == nil {
				row[i] = &Explanation{Kind: "null", Text: ""}
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// formatNumber shows integers as they are and other numbers with at most
// three decimals.
func formatNumber(n json.Number) string {
	if _, err := n.Int64(); err == nil {
		return n.String()
	}
	f, err := n.Float64()
	if err != nil || math.IsInf(f, 0) {
		return n.String()
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	if math.Abs(f) < 0.001 {
		return strconv.FormatFloat(f, 'g', 3, 64)
	}
	s := strconv.FormatFloat(f, 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// String is the explanation as compact JSON-like text (for values nested
// past the depth cap).
func (e *Explanation) String() string {
	var b strings.Builder
	e.write(&b)
	return b.String()
}

func (e *Explanation) write(b *strings.Builder) {
	switch e.Kind {
	case "kv":
		b.WriteByte('{')
		for i, k := range e.Keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(k + ": ")
			e.Values[i].write(b)
		}
		b.WriteByte('}')
	case "list":
		b.WriteByte('[')
		for i, it := range e.Items {
			if i > 0 {
				b.WriteString(", ")
			}
			it.write(b)
		}
		b.WriteByte(']')
	case "table":
		b.WriteByte('[')
		for i, row := range e.Rows {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteByte('{')
			for j, c := range row {
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(e.Keys[j] + ": ")
				c.write(b)
			}
			b.WriteByte('}')
		}
		b.WriteByte(']')
	default:
		b.WriteString(e.Text)
	}
}

// Scalar reports whether e is drawn as a line of text (a template helper).
func (e *Explanation) Scalar() bool { return e.Kind == "text" || e.Kind == "null" }

// Summary says in a few words what the explanation holds, for a collapsed
// view: "query: answer, candidates: contexts, matches (3)".
func (e *Explanation) Summary() string {
	switch e.Kind {
	case "kv":
		var parts []string
		for i, k := range e.Keys {
			if len(parts) == 4 {
				parts = append(parts, "…")
				break
			}
			v := e.Values[i]
			switch {
			case v.Kind == "table":
				parts = append(parts, k+" ("+strconv.Itoa(len(v.Rows)+v.More)+")")
			case v.Kind == "list":
				parts = append(parts, k+" ("+strconv.Itoa(len(v.Items)+v.More)+")")
			case v.Scalar() && len(v.Text) <= 24:
				parts = append(parts, k+": "+v.Text)
			default:
				parts = append(parts, k)
			}
		}
		return strings.Join(parts, ", ")
	case "table":
		return strconv.Itoa(len(e.Rows)+e.More) + " rows"
	case "list":
		return strconv.Itoa(len(e.Items)+e.More) + " items"
	}
	if r := []rune(e.Text); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return e.Text
}
