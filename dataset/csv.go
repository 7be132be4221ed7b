package dataset

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/kgeval/kgeval"
)

// readCSV reads a CSV file with a header row. Fields holding JSON (contexts
// as a JSON array, human, metadata, triplets) are decoded. Record numbers
// count data rows from 1.
func readCSV(br *bufio.Reader, v *validator) error {
	r := csv.NewReader(br)
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return kgeval.Wrap(kgeval.EINVALID, err, "CSV header")
	}
	for i := range header {
		header[i] = strings.TrimSpace(header[i])
	}
	for rec := 1; v.err == nil; rec++ {
		row, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				v.reject(rec, "", fmt.Sprintf("invalid CSV at line %d: %v", pe.Line, pe.Err))
				continue
			}
			v.reject(rec, "", "read error: "+err.Error())
			return nil
		}
		if len(row) != len(header) {
			v.reject(rec, "", fmt.Sprintf("invalid CSV: %d fields, header has %d", len(row), len(header)))
			continue
		}
		m := make(map[string]any, len(row))
		bad := ""
		v.cur = rec
		v.walk.beginRecord()
		for i, f := range row {
			if !utf8.ValidString(f) {
				bad = header[i]
				break
			}
			name := header[i]
			switch name {
			case "human", "metadata", "meta", "triplets":
				if strings.TrimSpace(f) == "" {
					continue
				}
				var x any
				if reason, ok := v.shape(name, []byte(f)); !ok {
					if reason != "" {
						v.reject(rec, "", reason)
					}
					m = nil
				} else if err := json.Unmarshal([]byte(f), &x); err != nil {
					bad = ""
					v.reject(rec, "", fmt.Sprintf("wrong type: field %s: invalid JSON: %v", name, err))
					m = nil
				} else {
					m[name] = normaliseNumbers(x)
				}
			case "ground_truths":
				var arr []any
				if reason, ok := v.shape(name, []byte(f)); !ok {
					if reason != "" {
						v.reject(rec, "", reason)
					}
					m = nil
				} else if json.Unmarshal([]byte(f), &arr) == nil {
					m[name] = arr
				} else {
					m[name] = f
				}
			default:
				m[name] = f
			}
			if m == nil {
				break
			}
		}
		if bad != "" {
			v.reject(rec, "", "invalid UTF-8 in field "+bad)
			continue
		}
		if m == nil {
			continue
		}
		v.add(rec, m)
	}
	return nil
}
