package export_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/export"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/readmodel"
)

// rows are samples with a pair score missing, null scores with reasons,
// metric values and nulls, text that a spreadsheet would run as a formula,
// a reason holding quotes and a newline, and a sample without any score.
func rows() []readmodel.SampleScores {
	f := kgeval.Float
	return []readmodel.SampleScores{
		{ID: "s1", Record: 1, System: "grounded", Scores: map[string]kgeval.KGResult{
			"faithfulness":     kgeval.KGResult{}.With(metricreg.MetricMultihop, f(0.5)).With(metricreg.MetricCommunityOverlap, f(0.25)),
			"answer_relevancy": {Reason: "no triplets extracted from answer"}},
			Metrics: map[string]kgeval.MetricScore{
				"ts_groundedness_avg": {Metric: "ts_groundedness_avg", Value: f(0.75)},
				"bert_score_f1":       {Metric: "bert_score_f1", Value: f(88.1234567)},
				"llm_faithfulness":    {Metric: "llm_faithfulness", Reason: "no LLM judge configured"}}},
		{ID: `=HYPERLINK("http://x")`, Record: 2, System: "-poor", Scores: map[string]kgeval.KGResult{
			"faithfulness": kgeval.KGResult{}.With(metricreg.MetricMultihop, f(1)).With(metricreg.MetricCommunityOverlap, f(1)).With(metricreg.MetricCommunityCoverage, f(1))},
			Metrics: map[string]kgeval.MetricScore{
				"+odd":                {Metric: "+odd", Value: f(1e-7)},
				"ts_groundedness_avg": {Metric: "ts_groundedness_avg", Reason: "@reason, with \"quotes\"\nand a line"}}},
		{ID: "s3", Record: 3, Scores: map[string]kgeval.KGResult{}, Metrics: map[string]kgeval.MetricScore{}},
	}
}

var pairs = []kgeval.Pair{{Name: "faithfulness"}, {Name: "answer_relevancy"}}

// The files in testdata were written by the two writers this package
// replaced (`kgeval export` and the dashboard's export), byte for byte.
func TestWrite(t *testing.T) {
	for _, tc := range []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"scores.jsonl", func(b *bytes.Buffer) error { return export.WriteJSONL(b, rows()) }},
		{"scores.csv", func(b *bytes.Buffer) error { return export.WriteCSV(b, rows(), pairs, export.CSVOptions{}) }},
		{"scores-guarded.csv", func(b *bytes.Buffer) error {
			return export.WriteCSV(b, rows(), pairs, export.CSVOptions{GuardFormulas: true})
		}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("got\n%s\nwant\n%s", b.Bytes(), want)
			}
		})
	}
}

// failWriter injects the fault of a closed connection.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, os.ErrClosed }

func TestWrite_Error(t *testing.T) {
	if err := export.WriteJSONL(failWriter{}, rows()); err == nil {
		t.Error("WriteJSONL to a closed writer: no error")
	}
	if err := export.WriteCSV(failWriter{}, rows(), pairs, export.CSVOptions{}); err == nil {
		t.Error("WriteCSV to a closed writer: no error")
	}
}

// TestWriteCSV_VerdictColumns: a pair's verdict scores get columns when some
// sample has a value, in KG metric order, and only then.
func TestWriteCSV_VerdictColumns(t *testing.T) {
	f := kgeval.Float
	rows := []readmodel.SampleScores{
		{ID: "a", Record: 1, Scores: map[string]kgeval.KGResult{
			"faithfulness":        kgeval.KGResult{}.With(metricreg.MetricMultihop, f(1)).With(metricreg.MetricSupport, f(0.5)).With(metricreg.MetricContradiction, f(0.25)),
			"factual_correctness": kgeval.KGResult{}.With(metricreg.MetricMultihop, f(1)).With(metricreg.MetricSupport, f(1)).With(metricreg.MetricRecall, f(0.5)).With(metricreg.MetricF1, f(2.0/3))}},
		{ID: "b", Record: 2, Scores: map[string]kgeval.KGResult{
			"faithfulness": {Reason: "no triplets extracted from answer"}}},
	}
	var b bytes.Buffer
	if err := export.WriteCSV(&b, rows, []kgeval.Pair{{Name: "faithfulness"}, {Name: "factual_correctness"}}, export.CSVOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "id,record,system,faithfulness.multihop,faithfulness.community_overlap,faithfulness.community_coverage,faithfulness.support,faithfulness.contradiction,faithfulness.reason," +
		"factual_correctness.multihop,factual_correctness.community_overlap,factual_correctness.community_coverage,factual_correctness.support,factual_correctness.recall,factual_correctness.f1,factual_correctness.reason\n" +
		"a,1,,1,,,0.5,0.25,,1,,,1,0.5,0.6666666666666666,\n" +
		"b,2,,,,,,,no triplets extracted from answer,,,,,,,\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestPairScoreOrder sets every KG metric of a pair and checks the order of
// the JSONL keys: the graph scores, the claim scores, the verdict scores
// (the order `kgeval export` has always written), then the reason; the
// values come from the registry, so a metric added there is exported too.
func TestPairScoreOrder(t *testing.T) {
	r := kgeval.KGResult{Reason: "a <reason>"}
	for i, m := range metricreg.KGMetricNames {
		r.SetValue(m, kgeval.Float(float64(i)/100))
	}
	row := export.RowOf(readmodel.SampleScores{ID: "s", Scores: map[string]kgeval.KGResult{"faithfulness": r}})
	b, err := json.Marshal(row.Scores["faithfulness"])
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"multihop", "community_overlap", "community_coverage", "score", "score_min", "p_supported", "claim_contradiction",
		"support", "contradiction", "recall", "f1", "slot_coverage", "support_text", "contradiction_text", "slot_coverage_text",
		"atom_support", "typed_slot_coverage", "support_verified", "contradiction_verified", "reason"}
	var keys []string
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.Token()
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(keys, want) || len(want)-1 != len(metricreg.KGMetricNames) {
		t.Errorf("keys %v\nwant %v", keys, want)
	}
	if !strings.Contains(string(b), `"multihop":0.04,`) || !strings.HasSuffix(string(b), `"reason":"a \u003creason\u003e"}`) {
		t.Errorf("json %s", b)
	}
	// A null verdict score is left out, a null graph score kept.
	b, _ = json.Marshal(export.RowOf(readmodel.SampleScores{ID: "s", Scores: map[string]kgeval.KGResult{"p": {}}}).Scores["p"])
	if string(b) != `{"multihop":null,"community_overlap":null,"community_coverage":null}` {
		t.Errorf("empty pair: %s", b)
	}
}
