package traces_test

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/traces"
)

// The samples of the spans in ../testdata/traces, recorded from a LangChain
// RAG chain instrumented by openinference-instrumentation-langchain
// (scripts/record_traces.py): a RAG chain, a nested chain (the model
// rewrites the question, the retriever reads the rewrite) and a plain LLM
// call that has no context.
var recorded = []struct {
	question, answer string
	contexts         []string
}{
	{"When was the PSLV-C56 mission launched, and from where?",
		"The PSLV-C56 mission was launched on Sunday, 30 July 2023 at 06:30 IST from the Satish Dhawan Space Centre, Sriharikota.",
		[]string{"The PSLV-C56 mission was launched", "The Eiffel Tower is a wrought-iron"}},
	{"Which two Nobel Prizes did Marie Curie win?",
		"Marie Curie won two Nobel Prizes: physics in 1903 and chemistry in 1911.",
		[]string{"Marie Curie was the first woman", "The PSLV-C56 mission was launched"}},
}

func mustRead(t *testing.T, path string) ([]traces.Span, string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	spans, format, err := traces.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return spans, format
}

// TestSamples_Recorded reads the recorded spans in both formats: the same
// two samples, and the plain LLM call rejected for want of a context.
func TestSamples_Recorded(t *testing.T) {
	for _, tc := range []struct{ file, format, system string }{
		{"../testdata/traces/langchain-otlp.jsonl", traces.FormatOTLP, "rag-demo"},
		{"../testdata/traces/langchain-phoenix.jsonl", traces.FormatPhoenix, ""},
	} {
		t.Run(tc.format, func(t *testing.T) {
			spans, format := mustRead(t, tc.file)
			if format != tc.format || len(spans) != 22 {
				t.Fatalf("format %s, %d spans", format, len(spans))
			}
			samples, rejected := traces.Samples(spans, traces.Options{})
			if len(samples) != 2 || len(rejected) != 1 {
				t.Fatalf("%d samples, %d rejected: %+v", len(samples), len(rejected), rejected)
			}
			if r := rejected[0]; r.Record != 3 || !strings.Contains(r.Reason, "no context") {
				t.Errorf("rejected %+v", r)
			}
			for i, want := range recorded {
				s := samples[i]
				if s.Question != want.question || s.Answer != want.answer || s.System != tc.system || s.Record != i+1 {
					t.Errorf("sample %d: %q / %q / %q / %d", i, s.Question, s.Answer, s.System, s.Record)
				}
				if len(s.Contexts) != len(want.contexts) {
					t.Fatalf("sample %d: %d contexts", i, len(s.Contexts))
				}
				for k, c := range want.contexts {
					if !strings.HasPrefix(s.Contexts[k], c) {
						t.Errorf("sample %d context %d: %q", i, k, s.Contexts[k])
					}
				}
				if s.ID != s.Metadata["trace_id"] || len(s.ID) != 32 {
					t.Errorf("sample %d id %q, metadata %v", i, s.ID, s.Metadata)
				}
			}
			if got, _ := traces.Samples(spans, traces.Options{System: "v2"}); got[0].System != "v2" {
				t.Errorf("system %q", got[0].System)
			}
		})
	}
}

// TestRead_Formats covers what the recording does not: base64 ids, the
// Phoenix REST API's nested spans, a reranker, a JSON root input, and the
// errors.
func TestRead_Formats(t *testing.T) {
	b, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases map[string]json.RawMessage
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	read := func(name string) ([]kgeval.Sample, []kgeval.Rejection, string, error) {
		text := string(cases[name])
		_ = json.Unmarshal(cases[name], &text) // a string holds a file of several JSON values
		spans, format, err := traces.Read(strings.NewReader(text))
		if err != nil {
			return nil, nil, format, err
		}
		s, r := traces.Samples(spans, traces.Options{})
		return s, r, format, nil
	}
	t.Run("OTLPBase64Reranker", func(t *testing.T) {
		s, r, format, err := read("otlp_base64_reranker")
		if err != nil || format != traces.FormatOTLP || len(r) != 0 || len(s) != 1 {
			t.Fatalf("%v %s %v %v", err, format, s, r)
		}
		want := kgeval.Sample{ID: "0102030405060708090a0b0c0d0e0f10", Record: 1, Question: "Who built it?", Answer: "Eiffel's company.",
			Contexts: []string{"reranked first", "reranked second"}, System: "svc",
			Metadata: map[string]any{"trace_id": "0102030405060708090a0b0c0d0e0f10", "root_span_id": "0102030405060708", "root_span": "chain"}}
		if !reflect.DeepEqual(s[0], want) {
			t.Errorf("got %+v\nwant %+v", s[0], want)
		}
	})
	t.Run("PhoenixREST", func(t *testing.T) {
		s, r, format, err := read("phoenix_rest")
		if err != nil || format != traces.FormatPhoenix || len(r) != 0 || len(s) != 1 {
			t.Fatalf("%v %s %v %v", err, format, s, r)
		}
		if s[0].Question != "q from retriever" || s[0].Answer != "the answer" || !reflect.DeepEqual(s[0].Contexts, []string{"d1", "d2"}) {
			t.Errorf("got %+v", s[0])
		}
	})
	for _, name := range []string{"not_spans", "mixed", "bad_id"} {
		t.Run(name, func(t *testing.T) {
			_, _, _, err := read(name)
			if kgeval.ErrorCode(err) != kgeval.EINVALID {
				t.Errorf("err %v, want EINVALID", err)
			}
			if name == "mixed" && !strings.Contains(err.Error(), "one format per file") {
				t.Errorf("err %v", err)
			}
		})
	}
	if _, _, err := traces.Read(strings.NewReader("")); kgeval.ErrorCode(err) != kgeval.EINVALID || !strings.Contains(err.Error(), "no span") {
		t.Errorf("empty: %v", err)
	}
}
