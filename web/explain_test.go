package web

import (
	"strings"
	"testing"
)

// TestExplain draws stored explanations of each shape the metrics write,
// and bad ones.
func TestExplain(t *testing.T) {
	t.Run("TripletMatches", func(t *testing.T) {
		e := explain([]byte(`{"query":"answer","candidates":"contexts","matches":[{"query":"A is B","best":"A is also B","best_index":0,"cos":0.70587,"weight":1},{"query":"C","best":"D","best_index":2,"cos":1,"weight":0.125,"extra":[1,2]}]}`))
		if e == nil || e.Kind != "kv" || strings.Join(e.Keys, ",") != "query,candidates,matches" {
			t.Fatalf("%+v", e)
		}
		m := e.Values[2]
		if m.Kind != "table" || strings.Join(m.Keys, ",") != "query,best,best_index,cos,weight,extra" || len(m.Rows) != 2 {
			t.Fatalf("matches: %+v", m)
		}
		if got := m.Rows[0][3].Text; got != "0.706" {
			t.Errorf("cos %q, want 0.706", got)
		}
		if m.Rows[1][3].Text != "1" || m.Rows[1][4].Text != "0.125" || m.Rows[0][5].Kind != "null" || m.Rows[1][5].Kind != "list" || len(m.Rows[1][5].Items) != 2 {
			t.Errorf("row 2: %+v %+v %+v", m.Rows[1][3], m.Rows[1][4], m.Rows[1][5])
		}
		if s := e.Summary(); s != "query: answer, candidates: contexts, matches (2)" {
			t.Errorf("summary %q", s)
		}
	})
	t.Run("Scalars", func(t *testing.T) {
		e := explain([]byte(`{"precision":0.4281038,"recall":0.00012,"f1":12345678,"ok":true,"none":null,"facts":[]}`))
		var got []string
		for i, k := range e.Keys {
			got = append(got, k+"="+e.Values[i].Text)
		}
		if strings.Join(got, " ") != "precision=0.428 recall=0.00012 f1=12345678 ok=true none=null facts=" || e.Values[5].Kind != "list" {
			t.Errorf("%v", got)
		}
		if s := e.Summary(); !strings.HasSuffix(s, "…") {
			t.Errorf("summary of six keys %q: want the first four and …", s)
		}
	})
	t.Run("Caps", func(t *testing.T) {
		rows := strings.Repeat(`{"a":1},`, explainMaxRows+5)
		e := explain([]byte(`[` + strings.TrimSuffix(rows, ",") + `]`))
		if e.Kind != "table" || len(e.Rows) != explainMaxRows || e.More != 5 {
			t.Errorf("rows %d, more %d", len(e.Rows), e.More)
		}
		deep := strings.Repeat(`{"x":`, 10) + "1" + strings.Repeat("}", 10)
		e = explain([]byte(deep))
		d := 0
		for e.Kind == "kv" {
			e, d = e.Values[0], d+1
		}
		if d > explainMaxDepth || e.Kind != "text" || !strings.Contains(e.Text, "x: 1") {
			t.Errorf("depth %d, then %+v", d, e)
		}
	})
	t.Run("Bad", func(t *testing.T) {
		for _, raw := range []string{"", "  ", "{", `{"a":1} {"b":2}`, "not json", `[1,`} {
			if e := explain([]byte(raw)); e != nil {
				t.Errorf("%q: %+v, want nil", raw, e)
			}
		}
		if e := explain([]byte(`"<script>x</script>"`)); e == nil || e.Text != "<script>x</script>" {
			t.Errorf("a string explanation: %+v", e)
		}
	})
}
