package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/kgeval/kgeval"
)

// Field aliases of SPEC §1, in order of preference.
var aliases = map[string][]string{
	"id":        {"id", "sample_id"},
	"question":  {"question", "user_input", "query"},
	"contexts":  {"contexts", "retrieved_contexts", "context"},
	"answer":    {"answer", "response"},
	"reference": {"reference", "ground_truth", "ground_truths", "reference_answer"},
	"system":    {"system", "method"},
	"metadata":  {"metadata", "meta"},
}

// validator turns decoded records into samples or rejections. It counts
// every rejection but keeps only the first Options.MaxRejections, and stops
// the read (err) at the first record over Options.MaxRecords or the first
// byte over Options.MaxDecodedBytes: the readers check err before each
// record, and add and reject do nothing once it is set.
type validator struct {
	opt           Options
	samples       []kgeval.Sample
	rejected      []kgeval.Rejection
	rejectedTotal int
	decoded       int64          // bytes read or decoded so far
	ids           map[string]int // id -> record that holds it
	err           error          // a limit passed: the read stops
	walk          walker         // counts the structure of records before they are decoded
	cur           int            // the record being read
}

func newValidator(opt Options) *validator {
	return &validator{opt: opt, ids: map[string]int{}, walk: newWalker(opt)}
}

// shape walks b, JSON text of record v.cur, before it is decoded: the
// whole record (field "") or the text of one of its fields (the record's
// counts go on). It returns false when the record is over
// dataset.max_depth or dataset.max_values, with the reason to reject it
// for, or when the file is over dataset.max_file_values (v.err: the read
// stops).
func (v *validator) shape(field string, b []byte) (string, bool) {
	if field == "" {
		v.walk.resetText(1, "")
	} else {
		v.walk.resetText(2, field)
	}
	v.walk.feed(b)
	if v.walk.fileOver != "" {
		if v.err == nil {
			v.err = kgeval.Errorf(kgeval.ETOOLARGE, "the records hold more than %s values (dataset.max_file_values): stopped at record %s, %s%s",
				thousands(v.opt.MaxFileValues), thousands(int64(v.cur)), v.walk.fileOver, v.sofar(", after "))
		}
		return "", false
	}
	if v.walk.over != "" {
		return v.walk.over, false
	}
	return "", true
}

func (v *validator) result(format string) *Result {
	return &Result{Format: format, Samples: v.samples, Rejected: v.rejected, RejectedTotal: v.rejectedTotal}
}

// records is the number of records taken so far.
func (v *validator) records() int { return len(v.samples) + v.rejectedTotal }

// room reports whether record rec may be taken: not when a limit already
// stopped the read, nor when it is one more than dataset.max_records.
func (v *validator) room(rec int) bool {
	if v.err != nil {
		return false
	}
	if v.opt.MaxRecords > 0 && v.records() >= v.opt.MaxRecords {
		v.err = kgeval.Errorf(kgeval.ETOOLARGE, "more than %s records (dataset.max_records): stopped at record %s%s",
			thousands(int64(v.opt.MaxRecords)), thousands(int64(rec)), v.sofar(", after "))
		return false
	}
	return true
}

// decode counts n more decoded bytes and reports whether they are within
// dataset.max_decoded_bytes; what describes them in the error.
func (v *validator) decode(n int64, what string) bool {
	if v.err != nil {
		return false
	}
	v.decoded += n
	if v.opt.MaxDecodedBytes > 0 && v.decoded > v.opt.MaxDecodedBytes {
		v.err = kgeval.Errorf(kgeval.ETOOLARGE, "%s more than %s bytes (dataset.max_decoded_bytes)%s",
			what, thousands(v.opt.MaxDecodedBytes), v.sofar(": stopped after "))
		return false
	}
	return true
}

// sofar says what was read before a limit stopped the read, after lead:
// the records, valid and rejected, and the first rejection.
func (v *validator) sofar(lead string) string {
	if v.records() == 0 {
		return ""
	}
	s := fmt.Sprintf("%s%s records (%s valid, %s rejected", lead, thousands(int64(v.records())), thousands(int64(len(v.samples))), thousands(int64(v.rejectedTotal)))
	if len(v.rejected) > 0 {
		s += fmt.Sprintf("; first rejected: record %d: %s", v.rejected[0].Record, v.rejected[0].Reason)
	}
	return s + ")"
}

func (v *validator) reject(rec int, id, reason string) {
	if !v.room(rec) {
		return
	}
	v.rejectedTotal++
	if v.opt.MaxRejections <= 0 || len(v.rejected) < v.opt.MaxRejections {
		v.rejected = append(v.rejected, kgeval.Rejection{Record: rec, ID: id, Reason: reason})
	}
}

// add validates record rec and keeps it as a sample or a rejection.
func (v *validator) add(rec int, m map[string]any) {
	if !v.room(rec) {
		return
	}
	v.cur = rec
	s, err := v.sample(rec, m)
	if err != nil {
		v.reject(rec, s.ID, err.Error())
		return
	}
	if first, dup := v.ids[s.ID]; dup {
		v.reject(rec, s.ID, fmt.Sprintf("duplicate id %q (first at record %d)", s.ID, first))
		return
	}
	v.ids[s.ID] = rec
	v.samples = append(v.samples, s)
}

// leaves counts the n leaf values of Parquet row rec (the least of the
// values it holds) against dataset.max_values and max_file_values before
// the row is reconstructed, as shape does for JSON text.
func (v *validator) leaves(rec, n int) (string, bool) {
	if !v.room(rec) {
		return "", false
	}
	v.cur = rec
	v.walk.total += int64(n)
	if limit := v.opt.MaxFileValues; limit > 0 && v.walk.total > limit {
		v.err = kgeval.Errorf(kgeval.ETOOLARGE, "the records hold more than %s values (dataset.max_file_values): stopped at record %s%s",
			thousands(limit), thousands(int64(rec)), v.sofar(", after "))
		return "", false
	}
	if v.opt.MaxValues > 0 && n > v.opt.MaxValues {
		return fmt.Sprintf("its fields hold %s values, over the %s values a record may hold (dataset.max_values)", thousands(int64(n)), thousands(int64(v.opt.MaxValues))), false
	}
	return "", true
}

func pick(m map[string]any, field string) (string, any, bool) {
	for _, k := range aliases[field] {
		if x, ok := m[k]; ok {
			return k, x, true
		}
	}
	return field, nil, false
}

func typeName(x any) string {
	switch x.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case json.Number, float64, float32, int, int32, int64:
		return "number"
	case bool:
		return "boolean"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", x)
}

func (v *validator) sample(rec int, m map[string]any) (kgeval.Sample, error) {
	s := kgeval.Sample{Record: rec}
	// id
	_, idv, _ := pick(m, "id")
	switch id := idv.(type) {
	case nil:
		s.ID = fmt.Sprint(rec)
	case string:
		s.ID = strings.TrimSpace(id)
		if s.ID == "" {
			s.ID = fmt.Sprint(rec)
		}
	case json.Number:
		s.ID = id.String()
	case float64:
		s.ID = fmt.Sprint(id)
	case int64:
		s.ID = fmt.Sprint(id)
	default:
		return s, fmt.Errorf("wrong type: field id: expected string or number, got %s", typeName(id))
	}

	var err error
	name, q, ok := pick(m, "question")
	if !ok || q == nil {
		return s, fmt.Errorf("missing question (field question, user_input or query)")
	}
	if s.Question, err = v.text(name, q); err != nil {
		return s, err
	}
	if strings.TrimSpace(s.Question) == "" {
		return s, fmt.Errorf("empty question")
	}
	if name, a, ok := pick(m, "answer"); ok && a != nil {
		if s.Answer, err = v.text(name, a); err != nil {
			return s, err
		}
	}
	if name, r, ok := pick(m, "reference"); ok && r != nil {
		if arr, isArr := r.([]any); isArr && name == "ground_truths" {
			if len(arr) > 0 {
				r = arr[0]
			} else {
				r = ""
			}
		}
		if s.Reference, err = v.text(name, r); err != nil {
			return s, err
		}
	}
	if name, c, ok := pick(m, "contexts"); ok && c != nil {
		if s.Contexts, err = v.contexts(name, c); err != nil {
			return s, err
		}
	}
	if name, sys, ok := pick(m, "system"); ok && sys != nil {
		str, isStr := sys.(string)
		if !isStr {
			return s, fmt.Errorf("wrong type: field %s: expected string, got %s", name, typeName(sys))
		}
		s.System = str
	}
	if h, ok := m["human"]; ok && h != nil {
		hm, isMap := h.(map[string]any)
		if !isMap {
			return s, fmt.Errorf("wrong type: field human: expected object, got %s", typeName(h))
		}
		s.Human = normaliseNumbers(hm).(map[string]any)
	}
	if name, md, ok := pick(m, "metadata"); ok && md != nil {
		mm, isMap := md.(map[string]any)
		if !isMap {
			return s, fmt.Errorf("wrong type: field %s: expected object, got %s", name, typeName(md))
		}
		s.Metadata = normaliseNumbers(mm).(map[string]any)
	}
	if t, ok := m["triplets"]; ok && t != nil {
		if s.Triplets, err = v.triplets(t, len(s.Contexts)); err != nil {
			return s, err
		}
	}
	return s, nil
}

// text checks a text field: a string, valid UTF-8, within the size cap.
func (v *validator) text(field string, x any) (string, error) {
	str, ok := x.(string)
	if !ok {
		return "", fmt.Errorf("wrong type: field %s: expected string, got %s", field, typeName(x))
	}
	if !utf8.ValidString(str) {
		return "", fmt.Errorf("invalid UTF-8 in field %s", field)
	}
	if v.opt.MaxTextChars > 0 && len(str) > v.opt.MaxTextChars {
		if n := utf8.RuneCountInString(str); n > v.opt.MaxTextChars {
			return "", fmt.Errorf("text over the size limit: field %s has %d characters (limit %d, dataset.max_text_chars)", field, n, v.opt.MaxTextChars)
		}
	}
	return str, nil
}

// contexts accepts a list of strings, a single string (one passage), or a
// string holding a JSON array (CSV files).
func (v *validator) contexts(field string, x any) ([]string, error) {
	if str, ok := x.(string); ok {
		t := strings.TrimSpace(str)
		if strings.HasPrefix(t, "[") {
			if reason, ok := v.shape(field, []byte(t)); !ok {
				return nil, errors.New(reason)
			}
			var arr []any
			if err := json.Unmarshal([]byte(t), &arr); err == nil {
				x = arr
			}
		}
		if _, still := x.(string); still {
			p, err := v.text(field, str)
			if err != nil {
				return nil, err
			}
			return []string{p}, nil
		}
	}
	arr, ok := x.([]any)
	if !ok {
		return nil, fmt.Errorf("wrong type: field %s: expected a list of strings, got %s", field, typeName(x))
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		p, err := v.text(fmt.Sprintf("%s[%d]", field, i), e)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// triplets parses the optional pre-extracted triplets of SPEC §1.
func (v *validator) triplets(x any, passages int) (*kgeval.SampleTriplets, error) {
	if str, ok := x.(string); ok { // CSV: a JSON string
		if reason, ok := v.shape("triplets", []byte(str)); !ok {
			return nil, errors.New(reason)
		}
		var m any
		if err := json.Unmarshal([]byte(str), &m); err != nil {
			return nil, fmt.Errorf("wrong type: field triplets: invalid JSON: %v", err)
		}
		x = m
	}
	m, ok := x.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("wrong type: field triplets: expected object, got %s", typeName(x))
	}
	st := &kgeval.SampleTriplets{}
	for k, val := range m {
		if val == nil {
			continue
		}
		var err error
		switch k {
		case "question":
			st.Question, err = v.tripletList("triplets.question", val)
		case "answer":
			st.Answer, err = v.tripletList("triplets.answer", val)
		case "reference":
			st.Reference, err = v.tripletList("triplets.reference", val)
		case "contexts":
			arr, isArr := val.([]any)
			if !isArr {
				return nil, fmt.Errorf("wrong type: field triplets.contexts: expected a list (one list per passage), got %s", typeName(val))
			}
			if len(arr) != passages {
				return nil, fmt.Errorf("field triplets.contexts has %d lists but the sample has %d passages", len(arr), passages)
			}
			st.Contexts = make([][]kgeval.Triplet, len(arr))
			for i, p := range arr {
				if st.Contexts[i], err = v.tripletList(fmt.Sprintf("triplets.contexts[%d]", i), p); err != nil {
					return nil, err
				}
			}
		default:
			return nil, fmt.Errorf("field triplets: unknown text %q (want question, answer, reference, contexts)", k)
		}
		if err != nil {
			return nil, err
		}
	}
	return st, nil
}

func (v *validator) tripletList(field string, x any) ([]kgeval.Triplet, error) {
	arr, ok := x.([]any)
	if !ok {
		return nil, fmt.Errorf("wrong type: field %s: expected a list of triplets, got %s", field, typeName(x))
	}
	out := make([]kgeval.Triplet, 0, len(arr))
	for i, e := range arr {
		var f [3]any
		switch t := e.(type) {
		case []any:
			if len(t) != 3 {
				return nil, fmt.Errorf("field %s[%d]: a triplet needs 3 elements, got %d", field, i, len(t))
			}
			f = [3]any{t[0], t[1], t[2]}
		case map[string]any:
			f = [3]any{t["subject"], t["relation"], t["object"]}
		default:
			return nil, fmt.Errorf("wrong type: field %s[%d]: expected [subject, relation, object] or an object, got %s", field, i, typeName(e))
		}
		var s [3]string
		for j, p := range f {
			str, isStr := p.(string)
			if !isStr || strings.TrimSpace(str) == "" {
				return nil, fmt.Errorf("field %s[%d]: subject, relation and object must be non-empty strings", field, i)
			}
			s[j] = str
		}
		out = append(out, kgeval.Triplet{Subject: s[0], Relation: s[1], Object: s[2]})
	}
	cleaned, _ := kgeval.CleanTriplets(out, v.opt.MaxLabelChars)
	return cleaned, nil
}

// normaliseNumbers turns json.Number values into float64 so that labels are
// plain numbers for the rest of the program.
func normaliseNumbers(x any) any {
	switch t := x.(type) {
	case json.Number:
		if f, err := t.Float64(); err == nil {
			return f
		}
		return t.String()
	case map[string]any:
		for k, v := range t {
			t[k] = normaliseNumbers(v)
		}
		return t
	case []any:
		for i, v := range t {
			t[i] = normaliseNumbers(v)
		}
		return t
	}
	return x
}

// thousands writes n with thousands separators: 16,300,000.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
