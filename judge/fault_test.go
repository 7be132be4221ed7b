package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/metrics"
)

// faultServer is an OpenAI-compatible endpoint that only ever fails: it
// answers every chat request with fault(prompt) and counts requests by the
// prompt (name and version) whose system text they carry. It stands in for
// no model: no metric is ever computed from what it says.
type faultServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests map[string]int
}

// fault writes one failing answer for a request with prompt p.
type fault func(w http.ResponseWriter, p string)

// garbage answers 200 with text that is not JSON.
func garbage(w http.ResponseWriter, _ string) {
	chatAnswer(w, "Sure! Here are the facts you asked for.")
}

// tooMany answers 429 with Retry-After: 0.
func tooMany(w http.ResponseWriter, _ string) {
	w.Header().Set("Retry-After", "0")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusTooManyRequests)
	fmt.Fprint(w, `{"error": {"message": "rate limited", "type": "rate_limit_error"}}`)
}

func chatAnswer(w http.ResponseWriter, content string) {
	b, _ := json.Marshal(map[string]any{
		"id": "fault", "object": "chat.completion", "model": "fault",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
	})
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

func newFaultServer(tb testing.TB, f fault) *faultServer {
	tb.Helper()
	byText := map[string]string{}
	for _, name := range Prompts() {
		byText[mustPrompt(name).text] = name
	}
	s := &faultServer{requests: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Role, Content string }
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		p := byText[req.Messages[0].Content]
		s.mu.Lock()
		s.requests[p]++
		s.mu.Unlock()
		f(w, p)
	}))
	tb.Cleanup(s.Close)
	return s
}

func (s *faultServer) count() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]int{}
	for k, v := range s.requests {
		out[k] = v
	}
	return out
}

// MustFaultJudge returns a Judge on the fault server, the real Neo4j cache
// and MiniLM. Each ask is at most 2 requests (MaxRepairs 1) and 2 transport
// attempts (MaxRetries 1), with no backoff to speak of.
func MustFaultJudge(tb testing.TB, s *faultServer) *Judge {
	tb.Helper()
	c := llm.New(llm.Config{BaseURL: s.URL + "/v1", Model: "fault-model", Timeout: 10 * time.Second, MaxRetries: 1, MaxRepairs: 1,
		BaseBackoff: time.Millisecond})
	cache := MustTestCache(tb)
	return &Judge{Client: c, Cache: cache, Embedder: &llm.CachedEmbedder{Next: MustEncoder(tb), Cache: cache}}
}

func sample() kgeval.Sample {
	return kgeval.Sample{
		ID:       "pharmacann",
		Question: "When was PharmaCann founded and where is it headquartered?",
		Contexts: []string{
			"Found in 2014 by Theodore Scott, PharmaCann is an American cannabis company headquartered in Illinois.",
			"PharmaCann is one of the largest cannabis suppliers in the United States.",
		},
		Answer:    "PharmaCann was founded in 2014 and is headquartered in Illinois.",
		Reference: "PharmaCann was founded in 2014 by Theodore Scott. Its headquarters is in Illinois.",
	}
}

func byMetric(rs []Result) map[string]Result {
	out := map[string]Result{}
	for _, r := range rs {
		out[r.Metric] = r
	}
	return out
}

// TestJudge_Evaluate_Garbage: a model that never answers JSON makes every
// model-judged metric null with the client's error, each prompt is asked
// once however many metrics need its answer, the rubric fallback of
// ragas_answer_relevance is tried, and ragas_score is null from four null
// parts.
func TestJudge_Evaluate_Garbage(t *testing.T) {
	srv := newFaultServer(t, garbage)
	j := MustFaultJudge(t, srv)
	rs, err := j.Evaluate(context.Background(), sample(), Metrics)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != len(Metrics) {
		t.Fatalf("%d results for %d metrics", len(rs), len(Metrics))
	}
	got := byMetric(rs)
	const noJSON = "gave no valid JSON after 2 attempts"
	for _, m := range Metrics {
		r := got[m]
		if !r.Value.IsNull() {
			t.Errorf("%s = %s from a model that never answered JSON", m, r.Value)
		}
		if m != metricreg.MetricRagasScore && !strings.Contains(r.Value.Reason, noJSON) {
			t.Errorf("%s: reason %q lacks %q", m, r.Value.Reason, noJSON)
		}
	}
	for m, prefix := range map[string]string{
		metricreg.MetricResponseRelevancy:      "questions from contexts: response_questions.v1: ",
		metricreg.MetricFaithfulness:           "facts of answer: answer_facts.v1: ",
		metricreg.MetricFaithfulnessValidation: "facts of answer: answer_facts.v1: ",
		metricreg.MetricFactualCorrectness:     "facts of answer: answer_facts.v1: ",
		metricreg.MetricRagasFaithfulness:      "claims of answer: ragas_claims.v1: ",
		metricreg.MetricContextPrecision:       "relevance of passages: passage 1: ragas_context_relevance.v1: ",
		metricreg.MetricContextRecall:          "attribution of reference statements: ragas_context_recall.v1: ",
		metricreg.MetricAnswerRelevance:        "questions from answer: ragas_answer_questions.v1: ",
		metricreg.MetricFactualAccuracy:        "GEval sub-scores: geval.v1: ",
		metricreg.MetricAnswerClass:            "answer class: answer_class.v1: ",
		metricreg.MetricContextPrecisionAtK:    "relevance of passages: passage 1: ",
	} {
		if r := got[m].Value.Reason; !strings.HasPrefix(r, prefix) {
			t.Errorf("%s: reason %q, want prefix %q", m, r, prefix)
		}
	}
	if r := got[metricreg.MetricAnswerRelevance].Value.Reason; !strings.Contains(r, "; rubric: ragas_answer_rubric.v1: ") {
		t.Errorf("answer relevance did not fall back to the rubric: %q", r)
	}
	NullValue(t, "ragas_score", got[metricreg.MetricRagasScore].Value,
		"faithfulness, context precision, context recall and answer relevance are all null")

	// One ask per prompt (2 requests: the answer and one repair), shared by
	// every metric that needs it. The second passage and the second-stage
	// prompts (verification, labels, reference facts) are never reached.
	want := map[string]int{
		"response_questions.v1": 2, "answer_facts.v1": 2, "ragas_claims.v1": 2, "ragas_context_relevance.v1": 2,
		"ragas_context_recall.v1": 2, "ragas_answer_questions.v1": 2, "ragas_answer_rubric.v1": 2, "geval.v1": 2, "answer_class.v1": 2,
	}
	if g := srv.count(); !equalCounts(g, want) {
		t.Errorf("requests by prompt %v, want %v", g, want)
	}
	st := j.Stats()
	for p := range want {
		if st.Asks[p] != 1 || st.Failures[p] != 1 {
			t.Errorf("%s: %d asks, %d failures, want 1 and 1", p, st.Asks[p], st.Failures[p])
		}
	}
	if cs := j.Client.Stats(); cs.Calls != 18 || cs.Repairs != 9 || cs.Failures != 9 {
		t.Errorf("client stats %+v", cs)
	}

	// Failures are not cached: the next Evaluate asks again.
	if _, err := j.Evaluate(context.Background(), sample(), []string{metricreg.MetricAnswerClass}); err != nil {
		t.Fatal(err)
	}
	if n := srv.count()["answer_class.v1"]; n != 4 {
		t.Errorf("answer_class.v1: %d requests after a second Evaluate, want 4", n)
	}
}

func equalCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestJudge_Evaluate_RagasScoreParts: ragas_score alone asks for exactly
// what its four parts need, and asking for the parts as well adds no call.
func TestJudge_Evaluate_RagasScoreParts(t *testing.T) {
	srv := newFaultServer(t, garbage)
	j := MustFaultJudge(t, srv)
	rs, err := j.Evaluate(context.Background(), sample(), []string{metricreg.MetricRagasScore, metricreg.MetricRagasFaithfulness,
		metricreg.MetricContextPrecision, metricreg.MetricContextRecall, metricreg.MetricAnswerRelevance, metricreg.MetricContextPrecisionAtK})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 6 || rs[0].Metric != metricreg.MetricRagasScore || rs[5].Metric != metricreg.MetricContextPrecisionAtK {
		t.Fatalf("results %+v", rs)
	}
	x, ok := rs[0].Explanation.(RagasScoreExplanation)
	if !ok || x.Faithfulness.Reason != rs[1].Value.Reason || x.ContextRecall.Reason != rs[3].Value.Reason {
		t.Errorf("ragas_score explanation %+v", rs[0].Explanation)
	}
	want := map[string]int{"ragas_claims.v1": 2, "ragas_context_relevance.v1": 2, "ragas_context_recall.v1": 2,
		"ragas_answer_questions.v1": 2, "ragas_answer_rubric.v1": 2}
	if g := srv.count(); !equalCounts(g, want) {
		t.Errorf("requests by prompt %v, want %v", g, want)
	}
}

// TestJudge_Evaluate_OutOfRange: facts citing a passage the sample does not
// have are rejected, repaired, and end as the metric's null with the
// validation error as reason.
func TestJudge_Evaluate_OutOfRange(t *testing.T) {
	srv := newFaultServer(t, func(w http.ResponseWriter, p string) {
		if p == "answer_facts.v1" {
			chatAnswer(w, `{"facts": [{"subject": "PharmaCann", "relation": "was founded in", "object": "2014", "passages": [7]}]}`)
			return
		}
		garbage(w, p)
	})
	j := MustFaultJudge(t, srv)
	rs, err := j.Evaluate(context.Background(), sample(), []string{metricreg.MetricFaithfulness, metricreg.MetricFaithfulnessValidation})
	if err != nil {
		t.Fatal(err)
	}
	const want = "fact 1 cites passage 7, want a number from 1 to 2"
	for _, r := range rs {
		if !r.Value.IsNull() || !strings.HasPrefix(r.Value.Reason, "facts of answer: answer_facts.v1: ") || !strings.HasSuffix(r.Value.Reason, want) {
			t.Errorf("%s = %s, want null ending %q", r.Metric, r.Value, want)
		}
	}
	if g := srv.count(); g["answer_facts.v1"] != 2 || len(g) != 1 {
		t.Errorf("requests %v, want answer_facts.v1: 2", g)
	}
}

// TestJudge_Evaluate_RateLimited: a server that keeps answering 429 makes
// the metric null with the status in the reason, after the bounded retries;
// Evaluate itself does not fail.
func TestJudge_Evaluate_RateLimited(t *testing.T) {
	srv := newFaultServer(t, tooMany)
	j := MustFaultJudge(t, srv)
	rs, err := j.Evaluate(context.Background(), sample(), []string{metricreg.MetricFactualAccuracy})
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0].Value.Reason
	if !rs[0].Value.IsNull() || !strings.HasPrefix(r, "GEval sub-scores: geval.v1: ") || !strings.Contains(r, "429") {
		t.Errorf("factual_accuracy = %s", rs[0].Value)
	}
	if n := srv.count()["geval.v1"]; n != 2 {
		t.Errorf("%d requests, want 2 (1 + 1 retry)", n)
	}
	if cs := j.Client.Stats(); cs.Retries != 1 {
		t.Errorf("retries %d, want 1", cs.Retries)
	}
}

// TestJudge_Evaluate_MissingInputs: metrics whose inputs are missing are
// null with their reason, or take the SPEC's fixed values, without any
// model call.
func TestJudge_Evaluate_MissingInputs(t *testing.T) {
	srv := newFaultServer(t, garbage)
	j := MustFaultJudge(t, srv)
	ctx := context.Background()
	eval := func(s kgeval.Sample, names ...string) map[string]Result {
		t.Helper()
		rs, err := j.Evaluate(ctx, s, names)
		if err != nil {
			t.Fatal(err)
		}
		return byMetric(rs)
	}

	t.Run("EmptyAnswer", func(t *testing.T) {
		s := sample()
		s.Answer = "  "
		got := eval(s, metricreg.MetricFaithfulness, metricreg.MetricFaithfulnessValidation, metricreg.MetricFactualCorrectness, metricreg.MetricFactualCorrectnessValidation,
			metricreg.MetricRagasFaithfulness, metricreg.MetricAnswerRelevance, metricreg.MetricFactualAccuracy, metricreg.MetricAnswerClass)
		for m, r := range got {
			NullValue(t, m, r.Value, "empty answer")
		}
	})
	t.Run("NoContexts", func(t *testing.T) {
		s := sample()
		s.Contexts = nil
		got := eval(s, metricreg.MetricResponseRelevancy, metricreg.MetricFaithfulness, metricreg.MetricFaithfulnessValidation,
			metricreg.MetricContextPrecision, metricreg.MetricContextPrecisionAtK, metricreg.MetricContextRecall)
		for _, m := range []string{metricreg.MetricResponseRelevancy, metricreg.MetricFaithfulness, metricreg.MetricFaithfulnessValidation,
			metricreg.MetricContextPrecision, metricreg.MetricContextPrecisionAtK} {
			NullValue(t, m, got[m].Value, "no contexts")
		}
		// SPEC §7: no contexts -> context recall 0.
		ExactValue(t, metricreg.MetricContextRecall, got[metricreg.MetricContextRecall].Value, 0)
		if x, ok := got[metricreg.MetricContextRecall].Explanation.(RecallExplanation); !ok || x.Note != "no contexts: no statement can be attributed" {
			t.Errorf("explanation %+v", got[metricreg.MetricContextRecall].Explanation)
		}
	})
	t.Run("NoReference", func(t *testing.T) {
		s := sample()
		s.Reference = ""
		got := eval(s, metricreg.MetricFactualCorrectness, metricreg.MetricFactualCorrectnessValidation, metricreg.MetricContextRecall, metricreg.MetricFactualAccuracy, metricreg.MetricAnswerClass)
		for m, r := range got {
			NullValue(t, m, r.Value, "no reference")
		}
	})
	t.Run("EmptyQuestion", func(t *testing.T) {
		s := sample()
		s.Question = ""
		got := eval(s, metricreg.MetricResponseRelevancy, metricreg.MetricAnswerRelevance)
		for m, r := range got {
			NullValue(t, m, r.Value, "empty question")
		}
	})
	t.Run("NothingToJudgePassagesAgainst", func(t *testing.T) {
		s := sample()
		s.Reference, s.Answer = "", ""
		got := eval(s, metricreg.MetricContextPrecision)
		NullValue(t, "precision", got[metricreg.MetricContextPrecision].Value, "no reference and empty answer: nothing to judge the passages against")
	})
	t.Run("DontKnow", func(t *testing.T) {
		s := sample()
		s.Answer, s.Reference = "I don't know.", "" // DONT_KNOW needs no reference
		r := eval(s, metricreg.MetricAnswerClass)[metricreg.MetricAnswerClass]
		ExactValue(t, "answer_class", r.Value, 0)
		if c, _ := ClassOf(r); c != metrics.ClassDontKnow || r.Explanation.(ClassExplanation).Phrase != "i don't know" {
			t.Errorf("explanation %+v", r.Explanation)
		}
	})
	t.Run("AllRagasPartsNull", func(t *testing.T) {
		got := eval(kgeval.Sample{ID: "empty", Question: "Why?"}, metricreg.MetricRagasScore)
		r := got[metricreg.MetricRagasScore]
		NullValue(t, "ragas_score", r.Value, "faithfulness, context precision, context recall and answer relevance are all null")
		x := r.Explanation.(RagasScoreExplanation)
		if x.Faithfulness.Reason != "empty answer" || x.ContextPrecision.Reason != "no contexts" || x.ContextRecall.Reason != "no reference" ||
			x.AnswerRelevance.Reason != "empty answer" {
			t.Errorf("parts %+v", x)
		}
	})
	if g := srv.count(); len(g) != 0 {
		t.Errorf("model requests for samples missing their inputs: %v", g)
	}
}

// TestJudge_Evaluate_InvalidCachedAnswer: a cached answer that no longer
// validates is asked again.
func TestJudge_Evaluate_InvalidCachedAnswer(t *testing.T) {
	srv := newFaultServer(t, garbage)
	j := MustFaultJudge(t, srv)
	s := sample()
	user := "QUESTION:\n" + s.Question + "\n\nREFERENCE:\n" + s.Reference + "\n\nANSWER:\n" + s.Answer
	if err := j.Cache.Put(context.Background(), map[string][]byte{
		j.key(promptAnswerClass, classSchema, user): []byte(`{"reason": "x", "class": "MAYBE"}`),
	}); err != nil {
		t.Fatal(err)
	}
	rs, err := j.Evaluate(context.Background(), s, []string{metricreg.MetricAnswerClass})
	if err != nil {
		t.Fatal(err)
	}
	if !rs[0].Value.IsNull() || srv.count()["answer_class.v1"] != 2 || j.Stats().CacheHits["answer_class.v1"] != 0 {
		t.Errorf("answer_class %s, requests %v, stats %+v", rs[0].Value, srv.count(), j.Stats())
	}
}

func TestJudge_Evaluate_EINVALID(t *testing.T) {
	srv := newFaultServer(t, garbage)
	j := MustFaultJudge(t, srv)
	_, err := j.Evaluate(context.Background(), sample(), []string{metricreg.MetricFaithfulness, "ragas_faithfullness"})
	if kgeval.ErrorCode(err) != kgeval.EINVALID {
		t.Errorf("error %v, want EINVALID", err)
	}
	if g := srv.count(); len(g) != 0 {
		t.Errorf("requests %v before the names were checked", g)
	}
}

// brokenCache fails every read, as an unreachable Neo4j would.
type brokenCache struct{}

func (brokenCache) Get(context.Context, []string) (map[string][]byte, error) {
	return nil, kgeval.Errorf(kgeval.EUNAVAILABLE, "neo4j unreachable")
}
func (brokenCache) Put(context.Context, map[string][]byte) error {
	return kgeval.Errorf(kgeval.EUNAVAILABLE, "neo4j unreachable")
}

func TestJudge_Evaluate_EUNAVAILABLE(t *testing.T) {
	srv := newFaultServer(t, garbage)
	j := MustFaultJudge(t, srv)
	j.Cache = brokenCache{}
	_, err := j.Evaluate(context.Background(), sample(), []string{metricreg.MetricAnswerClass, metricreg.MetricFaithfulness})
	if kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE {
		t.Errorf("error %v, want EUNAVAILABLE", err)
	}
	if g := srv.count(); len(g) != 0 {
		t.Errorf("requests %v without a cache", g)
	}
}

func TestJudge_Evaluate_Cancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	srv := newFaultServer(t, func(w http.ResponseWriter, p string) {
		cancel() // the run is interrupted while the model thinks
		garbage(w, p)
	})
	j := MustFaultJudge(t, srv)
	_, err := j.Evaluate(ctx, sample(), Metrics)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if g := srv.count(); len(g) != 1 {
		t.Errorf("requests %v after the cancel", g)
	}
}
