package dataset

import (
	"bytes"
	"fmt"
	"strings"
)

// A record's structure is bounded, not only its bytes: a 31 MiB record of ten million empty objects cost a gigabyte once
// decoded. walker reads JSON text byte by byte and builds nothing: it
// counts the values decoding it would build and how deep they nest, and
// names the field where a cap is passed. The loader walks each record (and
// each field holding JSON text) before decoding it; Meter walks an upload
// as it arrives, for what loading it will hold.
//
// Levels: a record is at level 1, its fields at level 2, what they hold
// at 3 and below. A value is every member of an object and every element
// of an array at level 2 or below; nesting is the level of the deepest
// object or array.

// maxKeyBytes bounds the bytes of a key kept to name a field.
const maxKeyBytes = 40

// maxFrames bounds the open objects and arrays whose keys a walker keeps
// (the path it names), whatever the depth cap: deeper ones are counted,
// not kept.
const maxFrames = 64

// frame is an open object or array.
type frame struct {
	obj     bool
	wantKey bool   // an object expecting a key (after { or ,)
	key     []byte // the current member's key (its first maxKeyBytes)
	long    bool   // the key was cut
	index   int    // the current element (arrays)
	any     bool   // it holds a value
}

// walker reads JSON text as it comes (feed may be called with any split of
// it) and counts the values of the current record.
type walker struct {
	maxDepth, maxValues int   // per record; 0: no cap
	maxFile             int64 // values of all records; 0: no cap
	level0              int   // the level of a value at depth 0
	lines               bool  // JSON Lines: a newline ends a record
	prefix              string

	str, esc, key, scalar bool
	depth                 int
	frames                []frame

	// The current record: its values (below it), the first per-record
	// cap it passed, and what decoding it builds to keep: objects (empty
	// or not) and arrays of its fields, and the members of objects and
	// elements of arrays they hold (its own fields are the sample's).
	values                                      int64
	over                                        string
	objects, empties, arrays, members, elements int64
	// The file: its records' values, the field at which they passed
	// maxFile, and the cost of the records ended within the caps.
	total    int64
	fileOver string
	cost     int64
	charged  bool
}

// beginRecord starts counting a new record.
func (w *walker) beginRecord() {
	w.values, w.over, w.charged = 0, "", false
	w.objects, w.empties, w.arrays, w.members, w.elements = 0, 0, 0, 0, 0
}

// endRecord charges the memory of a record within the caps (once).
func (w *walker) endRecord() {
	if w.charged || w.over != "" || w.fileOver != "" {
		return
	}
	w.charged = true
	w.cost += w.objects*costObject + w.empties*costEmpty + w.arrays*costArray + w.members*costMember + w.elements*costElement
}

// resetText forgets the text state (a JSON Lines line or a CSV cell
// ended), keeping the record's counts.
func (w *walker) resetText(level0 int, prefix string) {
	w.str, w.esc, w.key, w.scalar, w.depth, w.frames = false, false, false, false, 0, w.frames[:0]
	w.level0, w.prefix = level0, prefix
}

// feed walks p.
func (w *walker) feed(p []byte) {
	stops := `"\`
	if w.lines {
		stops = "\"\\\n"
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if w.str && !w.esc {
			j := bytes.IndexAny(p[i:], stops)
			if j < 0 {
				w.keep(p[i:])
				return
			}
			w.keep(p[i : i+j])
			i += j
			c = p[i]
		}
		if c == '\n' && w.lines {
			w.endLine()
			continue
		}
		if w.str {
			w.text(c)
			continue
		}
		w.structural(c)
	}
}

// text reads c inside a string.
func (w *walker) text(c byte) {
	switch {
	case w.esc:
		w.esc = false
		w.keepByte(c)
	case c == '\\':
		w.esc = true
		w.keepByte(c)
	case c == '"':
		w.str = false
		if w.key {
			w.key = false
		} else if w.depth+w.level0 == 1 {
			w.endRecord() // a record that is a string
		}
	}
}

// keep adds b to the key being read, if one is.
func (w *walker) keep(b []byte) {
	if !w.key || len(w.frames) == 0 {
		return
	}
	f := &w.frames[len(w.frames)-1]
	if room := maxKeyBytes - len(f.key); len(b) > room {
		b, f.long = b[:max(room, 0)], true
	}
	f.key = append(f.key, b...)
}

// keepByte is keep of one byte.
func (w *walker) keepByte(c byte) {
	if w.key && len(w.frames) > 0 {
		if f := &w.frames[len(w.frames)-1]; len(f.key) < maxKeyBytes {
			f.key = append(f.key, c)
		} else {
			f.long = true
		}
	}
}

// structural reads c outside strings.
func (w *walker) structural(c byte) {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ':', ']', '}':
		if w.scalar {
			w.scalar = false
			if w.depth+w.level0 == 1 {
				w.endRecord() // a record that is a number or literal
			}
		}
	}
	switch c {
	case ' ', '\t', '\r', '\n':
	case '"':
		w.str = true
		if f := w.top(); f != nil && f.obj && f.wantKey {
			w.key, f.key, f.long = true, f.key[:0], false
			return
		}
		w.value(false, false)
	case '{', '[':
		w.value(true, c == '{')
	case '}', ']':
		w.close()
	case ',':
		if f := w.top(); f != nil {
			f.wantKey = f.obj
			f.index++
		}
	case ':':
		if f := w.top(); f != nil {
			f.wantKey = false
		}
	default:
		if !w.scalar {
			w.scalar = true
			w.value(false, false)
		}
	}
}

// top is the innermost open object or array whose frame is kept.
func (w *walker) top() *frame {
	if len(w.frames) == 0 || len(w.frames) < w.depth {
		return nil
	}
	return &w.frames[len(w.frames)-1]
}

// value counts a value starting at the current depth, and opens it if it
// is an object or array.
func (w *walker) value(container, obj bool) {
	level := w.depth + w.level0
	if level == 1 {
		w.beginRecord()
	}
	if level >= 2 {
		w.values++
		w.total++
		f := w.top()
		if f != nil {
			f.any = true
		}
		switch {
		case level == 2: // a field of the record
		case f != nil && f.obj:
			w.members++
		default:
			w.elements++
		}
		if w.maxValues > 0 && w.values == int64(w.maxValues)+1 && w.over == "" {
			w.over = fmt.Sprintf("%s: over the %s values a record may hold (dataset.max_values)", w.field(w.depth-1), thousands(int64(w.maxValues)))
		}
		if w.maxFile > 0 && w.total == w.maxFile+1 && w.fileOver == "" {
			w.fileOver = w.field(w.depth - 1)
		}
	}
	if !container {
		return
	}
	if level >= 2 {
		if obj {
			w.objects++
		} else {
			w.arrays++
		}
	}
	if w.maxDepth > 0 && level > w.maxDepth && w.over == "" {
		w.over = fmt.Sprintf("%s: nested deeper than %d levels (dataset.max_depth)", w.field(w.depth), w.maxDepth)
	}
	if len(w.frames) == w.depth && len(w.frames) < maxFrames {
		w.frames = append(w.frames, frame{obj: obj, wantKey: obj, key: w.reuseKey()})
	}
	w.depth++
}

// reuseKey returns the key buffer of the frame about to be pushed, if the
// slice holds one from before.
func (w *walker) reuseKey() []byte {
	if n := len(w.frames); n < cap(w.frames) {
		return w.frames[:n+1][n].key[:0]
	}
	return nil
}

// close ends the innermost object or array.
func (w *walker) close() {
	if w.depth == 0 {
		return
	}
	if len(w.frames) == w.depth {
		f := w.frames[len(w.frames)-1]
		if f.obj && !f.any && w.depth+w.level0 > 2 { // an empty object of a field
			w.objects--
			w.empties++
		}
		w.frames = w.frames[:len(w.frames)-1]
	}
	w.depth--
	if w.depth+w.level0 == 1 {
		w.endRecord()
	}
}

// endLine ends a JSON Lines record: what it left open is forgotten.
func (w *walker) endLine() {
	if w.depth+w.level0 > 1 || w.scalar {
		w.endRecord() // not valid JSON: the loader rejects it, but count it
	}
	w.resetText(w.level0, w.prefix)
}

// field names the field of the first n open objects and arrays, as
// "field metadata.x[3]" ("its fields" for none).
func (w *walker) field(n int) string {
	var b strings.Builder
	b.WriteString(w.prefix)
	for i, f := range w.frames[:min(n, len(w.frames))] {
		if i+w.level0 < 1 { // the array holding a JSON file's records
			continue
		}
		if b.Len() > 200 {
			b.WriteString("…")
			break
		}
		if !f.obj {
			fmt.Fprintf(&b, "[%d]", f.index)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.Write(f.key)
		if f.long {
			b.WriteString("…")
		}
	}
	if n > len(w.frames) && b.Len() > 0 {
		b.WriteString("…")
	}
	if b.Len() == 0 {
		return "its fields"
	}
	return "field " + b.String()
}
