// Package export writes a run's per-sample scores as JSONL or CSV, one row
// per sample: the KG scores of each pair and every other metric value with
// the reason of a null. `kgeval export` and the dashboard's
// /api/runs/{run}/export both write through it, so their files agree.
package export

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// Row is one JSONL line: the KG scores per pair, the other metric values
// (a number or null) in Metrics with the reasons of the nulls in Nulls.
type Row struct {
	ID      string               `json:"id"`
	Record  int                  `json:"record"`
	System  string               `json:"system,omitempty"`
	Scores  map[string]PairScore `json:"scores"`
	Metrics map[string]*float64  `json:"metrics,omitempty"`
	Nulls   map[string]string    `json:"nulls,omitempty"`
}

// PairScore is one pair's KG scores in a Row. Its JSON holds the paper's
// graph scores first (SPEC §4; a null one is kept), then every other KG
// metric in display order (metricreg.KGMetricNames; the claim scores, SPEC
// §4d, then the verdict scores, §4b, §4c), each left out when null, then
// the reason when there is one. The names come from the metric registry:
// a new KG metric is exported with no change here.
type PairScore struct {
	// Values are the pair's KG metric values by name (nil or absent:
	// null).
	Values map[string]*float64
	Reason string
}

// pairScoreOrder is the order of a PairScore's JSON: the graph scores,
// then the other KG metrics, each in display order; graphScores counts the
// graph scores at its head (kept when null).
var pairScoreOrder, graphScores = func() ([]string, int) {
	var graph, other []string
	for _, m := range metricreg.KGMetricNames {
		if metricreg.GraphMetric(m) {
			graph = append(graph, m)
		} else {
			other = append(other, m)
		}
	}
	return append(graph, other...), len(graph)
}()

// MarshalJSON writes the values in pairScoreOrder (see PairScore).
func (p PairScore) MarshalJSON() ([]byte, error) {
	out := []byte{'{'}
	add := func(name string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(out, '"'), name...), `":`...)
		out = append(out, b...)
		return nil
	}
	for i, m := range pairScoreOrder {
		v := p.Values[m]
		if v == nil && i >= graphScores {
			continue
		}
		if err := add(m, v); err != nil {
			return nil, err
		}
	}
	if p.Reason != "" {
		if err := add("reason", p.Reason); err != nil {
			return nil, err
		}
	}
	return append(out, '}'), nil
}

// RowOf returns the JSONL line of one sample.
func RowOf(r readmodel.SampleScores) Row {
	row := Row{ID: r.ID, Record: r.Record, System: r.System, Scores: map[string]PairScore{}}
	for pair, s := range r.Scores {
		ps := PairScore{Values: map[string]*float64{}, Reason: s.Reason}
		for _, m := range metricreg.KGMetricNames {
			ps.Values[m] = s.Value(m)
		}
		row.Scores[pair] = ps
	}
	for name, m := range r.Metrics {
		if row.Metrics == nil {
			row.Metrics, row.Nulls = map[string]*float64{}, map[string]string{}
		}
		row.Metrics[name] = m.Value
		if m.Value == nil {
			row.Nulls[name] = m.Reason
		}
	}
	return row
}

// WriteJSONL writes one JSON object (a Row) per sample and line.
func WriteJSONL(w io.Writer, rows []readmodel.SampleScores) error {
	enc := json.NewEncoder(w)
	for _, r := range rows {
		if err := enc.Encode(RowOf(r)); err != nil {
			return err
		}
	}
	return nil
}

// CSVOptions configures WriteCSV.
type CSVOptions struct {
	// GuardFormulas puts a quote before every text cell that starts with
	// = + - @ tab or carriage return, so that a spreadsheet opening the
	// file shows it instead of running it as a formula. The dashboard's
	// downloads set it; `kgeval export` writes the values as they are.
	GuardFormulas bool
}

// WriteCSV writes a header and one row per sample: id, record, system; for
// each of pairs, in order, its multihop, community_overlap,
// community_coverage and reason; then a value and a reason column for every
// other metric any sample has, sorted by name. A null is an empty cell;
// numbers are written in the shortest form that reads back exactly.
func WriteCSV(w io.Writer, rows []readmodel.SampleScores, pairs []kgeval.Pair, o CSVOptions) error {
	text := func(s string) string { return s }
	if o.GuardFormulas {
		text = guard
	}
	cw := csv.NewWriter(w)
	header := []string{"id", "record", "system"}
	// Per pair: the graph scores, and the verdict scores some row has a
	// value of (recall only against the reference, slot_coverage only for
	// a question, ...).
	kgCols := map[string][]string{}
	for _, p := range pairs {
		for _, m := range metricreg.KGMetricNames {
			if metricreg.GraphMetric(m) {
				kgCols[p.Name] = append(kgCols[p.Name], m)
				continue
			}
			for _, r := range rows {
				if s, ok := r.Scores[p.Name]; ok && s.Value(m) != nil {
					kgCols[p.Name] = append(kgCols[p.Name], m)
					break
				}
			}
		}
		for _, m := range kgCols[p.Name] {
			header = append(header, p.Name+"."+m)
		}
		header = append(header, p.Name+".reason")
	}
	seen := map[string]bool{}
	var names []string
	for _, r := range rows {
		for name := range r.Metrics {
			if !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	sort.Strings(names)
	for _, name := range names {
		header = append(header, text(name), text(name+".reason"))
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	num := func(v *float64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(*v, 'g', -1, 64)
	}
	for _, r := range rows {
		rec := []string{text(r.ID), strconv.Itoa(r.Record), text(r.System)}
		for _, p := range pairs {
			s := r.Scores[p.Name]
			for _, m := range kgCols[p.Name] {
				rec = append(rec, num(s.Value(m)))
			}
			rec = append(rec, text(s.Reason))
		}
		for _, name := range names {
			m := r.Metrics[name]
			rec = append(rec, num(m.Value), text(m.Reason))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// guard quotes a cell a spreadsheet would run as a formula.
func guard(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
