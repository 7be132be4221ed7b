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

// PairScore is one pair's KG scores in a Row.
type PairScore struct {
	Multihop          *float64 `json:"multihop"`
	CommunityOverlap  *float64 `json:"community_overlap"`
	CommunityCoverage *float64 `json:"community_coverage"`
	// The claim scores (SPEC §4d) are left out when null.
	Score              *float64 `json:"score,omitempty"`
	ScoreMin           *float64 `json:"score_min,omitempty"`
	PSupported         *float64 `json:"p_supported,omitempty"`
	ClaimContradiction *float64 `json:"claim_contradiction,omitempty"`
	// The verdict scores (SPEC §4b, §4c) are left out when null.
	Support               *float64 `json:"support,omitempty"`
	Contradiction         *float64 `json:"contradiction,omitempty"`
	Recall                *float64 `json:"recall,omitempty"`
	F1                    *float64 `json:"f1,omitempty"`
	SlotCoverage          *float64 `json:"slot_coverage,omitempty"`
	SupportText           *float64 `json:"support_text,omitempty"`
	ContradictionText     *float64 `json:"contradiction_text,omitempty"`
	SlotCoverageText      *float64 `json:"slot_coverage_text,omitempty"`
	AtomSupport           *float64 `json:"atom_support,omitempty"`
	TypedSlotCoverage     *float64 `json:"typed_slot_coverage,omitempty"`
	SupportVerified       *float64 `json:"support_verified,omitempty"`
	ContradictionVerified *float64 `json:"contradiction_verified,omitempty"`
	Reason                string   `json:"reason,omitempty"`
}

// RowOf returns the JSONL line of one sample.
func RowOf(r readmodel.SampleScores) Row {
	row := Row{ID: r.ID, Record: r.Record, System: r.System, Scores: map[string]PairScore{}}
	for pair, s := range r.Scores {
		row.Scores[pair] = PairScore{Score: s.Value(metricreg.MetricClaimScore), ScoreMin: s.Value(metricreg.MetricClaimScoreMin), PSupported: s.Value(metricreg.MetricPSupported), ClaimContradiction: s.Value(metricreg.MetricClaimContradiction), Multihop: s.Value(metricreg.MetricMultihop), CommunityOverlap: s.Value(metricreg.MetricCommunityOverlap), CommunityCoverage: s.Value(metricreg.MetricCommunityCoverage),
			Support: s.Value(metricreg.MetricSupport), Contradiction: s.Value(metricreg.MetricContradiction), Recall: s.Value(metricreg.MetricRecall), F1: s.Value(metricreg.MetricF1), SlotCoverage: s.Value(metricreg.MetricSlotCoverage),
			SupportText: s.Value(metricreg.MetricSupportText), ContradictionText: s.Value(metricreg.MetricContradictionText), SlotCoverageText: s.Value(metricreg.MetricSlotCoverageText), AtomSupport: s.Value(metricreg.MetricAtomSupport), TypedSlotCoverage: s.Value(metricreg.MetricTypedSlotCoverage), SupportVerified: s.Value(metricreg.MetricSupportVerified), ContradictionVerified: s.Value(metricreg.MetricContradictionVerified), Reason: s.Reason}
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
