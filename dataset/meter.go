package dataset

import "strings"

// What decoding a record's structure holds, by what builds it, over the
// bytes of its text (measured with the decoder the loader uses; see
// TestMeter_Cost): an object is a Go map, an array a slice, each member a
// map slot (its key and value), each element a slice slot (its value).
// A record at the caps holds its structure once while it is decoded; a
// kept sample keeps its human and metadata fields.
const (
	costObject  = 384
	costEmpty   = 64
	costArray   = 64
	costMember  = 112
	costElement = 48
)

// newWalker returns a walker with opt's structure caps.
func newWalker(opt Options) walker {
	return walker{maxDepth: opt.MaxDepth, maxValues: opt.MaxValues, maxFile: opt.MaxFileValues}
}

// Meter measures what loading a dataset file will hold as its bytes go by
// (an upload as it arrives), so that a memory budget can reserve it before
// the load: MemoryBound for the file's size, plus what the structure of
// its records within the caps costs once decoded (an object, an array, a
// member, an element each cost what the decoder builds for them). Records
// over dataset.max_depth or dataset.max_values are rejected before they
// are decoded and cost nothing; past dataset.max_file_values the load
// stops, and nothing more is counted. JSON Lines, JSON and CSV (the
// fields holding JSON) are walked; a Parquet file costs its MemoryBound.
type Meter struct {
	format string
	opt    Options
	n      int64
	w      walker
	json   int8 // JSON: 0 until its first byte, 1 an array, -1 lines
	csv    *csvWalk
}

// NewMeter returns a Meter of a file named name (its extension gives its
// format) loaded with opt; nil for a name of no format.
func NewMeter(name string, opt Options) *Meter {
	format, err := FormatOf(name)
	if err != nil {
		return nil
	}
	m := &Meter{format: format, opt: opt, w: newWalker(opt)}
	switch format {
	case FormatJSONL:
		m.w.level0, m.w.lines = 1, true
	case FormatCSV:
		m.csv = &csvWalk{w: &m.w}
	}
	return m
}

// Write walks p; it never fails.
func (m *Meter) Write(p []byte) (int, error) {
	m.n += int64(len(p))
	switch m.format {
	case FormatJSONL:
		m.w.feed(p)
	case FormatJSON:
		if m.json == 0 {
			// An array, or one object per line, as the loader tells them
			// (its first byte but spaces and a byte order mark).
			i := 0
			for i < len(p) && strings.IndexByte(" \t\r\n\xef\xbb\xbf", p[i]) >= 0 {
				i++
			}
			if i == len(p) {
				return len(p), nil
			}
			if m.json, m.w.level0 = 1, 0; p[i] != '[' {
				m.json, m.w.level0, m.w.lines = -1, 1, true
			}
			p = p[i:]
		}
		m.w.feed(p)
	case FormatCSV:
		m.csv.feed(p)
	}
	return len(p), nil
}

// Cost is what loading the bytes written may hold at its peak: their
// MemoryBound, the structure of their records, and one record at the caps
// being decoded. -1 when the format is unbounded (Parquet without
// dataset.max_decoded_bytes).
func (m *Meter) Cost() int64 {
	bound := MemoryBound(m.format, m.n, m.opt)
	if bound < 0 {
		return bound
	}
	if m.csv != nil {
		m.csv.end()
	}
	m.w.endRecord()
	return bound + m.w.cost + int64(m.opt.MaxValues)*costObject
}

// Values returns the values counted so far and whether they passed
// dataset.max_file_values (the load will stop there).
func (m *Meter) Values() (int64, bool) { return m.w.total, m.w.fileOver != "" }

// csvWalk walks the fields of a CSV file that the loader decodes as JSON
// (human, metadata, meta, triplets, ground_truths, and contexts holding
// an array) as their bytes go by: quoted fields are unescaped, the header
// names the columns, and a field is walked only when it starts with [ or
// { (any other is text to the loader).
type csvWalk struct {
	w        *walker
	header   bool // the header is read
	names    []string
	name     []byte
	col      int
	json     []bool // by column
	quoted   bool   // in a quoted field
	quote    bool   // a quote in a quoted field: its end, or an escaped quote
	started  bool   // the field has a byte other than space
	walking  bool   // the field is walked
	skipping bool   // the field is not
	begun    bool   // a record is open
	one      [1]byte
}

// csvJSON are the columns the loader may decode as JSON.
var csvJSON = map[string]bool{"human": true, "metadata": true, "meta": true, "triplets": true, "ground_truths": true,
	"contexts": true, "retrieved_contexts": true, "context": true}

func (c *csvWalk) feed(p []byte) {
	for _, b := range p {
		if c.quoted {
			if c.quote {
				c.quote = false
				if b == '"' {
					c.byte(b)
					continue
				}
				c.quoted = false
			} else {
				if b == '"' {
					c.quote = true
				} else {
					c.byte(b)
				}
				continue
			}
		}
		switch b {
		case ',':
			c.endField()
			c.col++
		case '\n':
			c.endField()
			c.endRow()
		case '\r':
		case '"':
			if !c.started {
				c.quoted, c.started = true, false
				continue
			}
			c.byte(b)
		default:
			c.byte(b)
		}
	}
}

// byte is one byte of the current field.
func (c *csvWalk) byte(b byte) {
	if !c.header {
		if len(c.name) < 64 {
			c.name = append(c.name, b)
		}
		return
	}
	if c.skipping {
		return
	}
	if !c.walking {
		if b == ' ' || b == '\t' {
			return
		}
		c.started = true
		if c.col >= len(c.json) || !c.json[c.col] || (b != '[' && b != '{') {
			c.skipping = true
			return
		}
		if !c.begun {
			c.w.beginRecord()
			c.begun = true
		}
		c.walking = true
		c.w.resetText(2, c.names[c.col])
	}
	c.one[0] = b
	c.w.feed(c.one[:])
}

func (c *csvWalk) endField() {
	if !c.header {
		c.names = append(c.names, strings.TrimSpace(strings.TrimPrefix(string(c.name), "\ufeff")))
		c.name = c.name[:0]
	}
	c.started, c.walking, c.skipping, c.quoted, c.quote = false, false, false, false, false
}

func (c *csvWalk) endRow() {
	if !c.header {
		c.header = true
		for _, n := range c.names {
			c.json = append(c.json, csvJSON[n])
		}
	} else {
		c.end()
	}
	c.col = 0
}

// end charges the record being read, if any.
func (c *csvWalk) end() {
	if c.begun {
		c.w.endRecord()
		c.begun = false
	}
}
