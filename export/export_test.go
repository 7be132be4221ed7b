package export_test

import (
	"bytes"
	"os"
	"path/filepath"
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
