package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/llm"
)

// top is one of the most likely tokens of an answer, as the server sends it.
type top struct {
	Token   string  `json:"token"`
	LogProb float64 `json:"logprob"`
}

// claimRequest is what the fake servers read of a request.
type claimRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	MaxTokens      int              `json:"max_tokens"`
	Temperature    *float64         `json:"temperature"`
	Seed           *int             `json:"seed"`
	LogProbs       bool             `json:"logprobs"`
	TopLogProbs    int              `json:"top_logprobs"`
	ResponseFormat *json.RawMessage `json:"response_format"`
}

func (r claimRequest) user() string { return r.Messages[len(r.Messages)-1].Content }

// doc is the document part of the question.
func (r claimRequest) doc() string {
	d := strings.TrimPrefix(r.user(), "Document:\n")
	return d[:strings.LastIndex(d, "\n\nClaim: ")]
}

// recorder keeps every request a fake server got.
type recorder struct {
	mu   sync.Mutex
	reqs []claimRequest
}

func (rec *recorder) add(r claimRequest) {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.reqs = append(rec.reqs, r)
}

func (rec *recorder) all() []claimRequest {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]claimRequest(nil), rec.reqs...)
}

// claimServer answers each request with answerFor's reply: a status and
// body, or (status 0) a one-token answer with the given top tokens (nil:
// no logprobs field at all).
func claimServer(t *testing.T, answerFor func(r claimRequest) (status int, body string, text string, tops []top)) (*recorder, string) {
	t.Helper()
	rec := &recorder{}
	srv, _ := faultServer(t, func(w http.ResponseWriter, r *http.Request) {
		var req claimRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			t.Errorf("decode request: %v", err)
		}
		rec.add(req)
		w.Header().Set("Content-Type", "application/json")
		code, body, text, tops := answerFor(req)
		if code != 0 {
			w.WriteHeader(code)
			fmt.Fprint(w, body)
			return
		}
		choice := map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "length"}
		if tops != nil {
			choice["logprobs"] = map[string]any{"content": []any{map[string]any{"token": text, "logprob": -0.1, "top_logprobs": tops}}}
		}
		json.NewEncoder(w).Encode(map[string]any{"id": "x", "object": "chat.completion", "model": "m", "choices": []any{choice},
			"usage": map[string]any{"prompt_tokens": len(req.user()) / 4, "completion_tokens": 1, "total_tokens": len(req.user())/4 + 1}})
	})
	return rec, srv.URL
}

func claimVerifier(t *testing.T, url string, cfg llm.Config) *llm.ClaimVerifier {
	cfg.BaseURL, cfg.Model, cfg.Timeout, cfg.MaxRetries, cfg.BaseBackoff = url+"/v1", "m", 2*time.Second, 2, 10*time.Millisecond
	if cfg.Concurrency == 0 {
		cfg.Concurrency = 4
	}
	return &llm.ClaimVerifier{Client: llm.New(cfg), Cache: MustCache(t)}
}

// forget deletes the cache entries of the questions a fake server saw.
func forget(t *testing.T, v *llm.ClaimVerifier, rec *recorder) {
	t.Cleanup(func() {
		var keys []string
		for _, r := range rec.all() {
			keys = append(keys, v.Key(r.user()))
		}
		_ = v.Cache.(interface {
			Delete(context.Context, []string) error
		}).Delete(context.Background(), keys)
	})
}

func nonce() string { return " [claim test " + strconv.FormatInt(time.Now().UnixNano(), 36) + "]" }

const eiffel = "The Eiffel Tower is a wrought-iron lattice tower in Paris. It was completed in 1889 as the entrance arch of the World's Fair."

// TestClaimVerifier_LogProbs checks how P(supported) is read from the
// answer token's top log-probabilities, and the request that asks for them.
func TestClaimVerifier_LogProbs(t *testing.T) {
	e := math.Exp
	cases := []struct {
		name     string
		text     string
		tops     []top
		p        float64
		fallback bool
	}{
		{"YesNoMass", "No", []top{{"No", -0.5}, {"Yes", -1.5}, {"The", -2}, {" yes", -3}, {"NO", -4}, {"Not", -4.5}},
			(e(-1.5) + e(-3)) / (e(-1.5) + e(-3) + e(-0.5) + e(-4)), false},
		{"SpacedYes", " Yes", []top{{" Yes", -0.2}, {"The", -2}}, 1, false},
		{"LowerCase", "yes", []top{{"yes", -0.7}, {"no", -0.7}}, 0.5, false},
		{"NeitherAnswerYes", "Yes", []top{{"Based", -0.3}, {"The", -1.5}}, 1, true},
		{"NeitherAnswerOther", "Based", []top{{"Based", -0.3}, {"The", -1.5}}, 0, true},
		{"EmptyTop", "No", []top{}, 0, true},
		{"NoLogProbsYes", "Yes, it is.", nil, 1, true},
		{"NoLogProbsNo", " no", nil, 0, true},
		{"NoLogProbsOther", "Maybe yes", nil, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, url := claimServer(t, func(claimRequest) (int, string, string, []top) { return 0, "", c.text, c.tops })
			v := claimVerifier(t, url, llm.Config{})
			forget(t, v, rec)
			q := kgeval.ClaimQuery{Evidence: []string{eiffel + nonce()}, Claim: "The Eiffel Tower was completed in 1889."}
			ps, errs, err := v.CheckClaims(context.Background(), []kgeval.ClaimQuery{q}, nil)
			if err != nil || errs[0] != nil {
				t.Fatalf("err %v, query err %v", err, errs[0])
			}
			if math.Abs(ps[0].P-c.p) > 1e-9 || ps[0].Fallback != c.fallback || ps[0].Chunks != 1 || ps[0].Best != 0 || ps[0].Cached {
				t.Errorf("got %+v, want P %.6f fallback %v in 1 chunk", ps[0], c.p, c.fallback)
			}
			reqs := rec.all()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			r := reqs[0]
			system, _ := llm.Prompt(llm.ClaimPromptVersion)
			want := "Document:\n" + q.Evidence[0] + "\n\nClaim: " + q.Claim + "\n\nIs every piece of information in the claim supported by the document? Answer Yes or No."
			switch {
			case len(r.Messages) != 2 || r.Messages[0].Role != "system" || r.Messages[0].Content != strings.TrimSpace(system) || r.Messages[1].Role != "user":
				t.Errorf("messages %+v, want the system prompt then the question", r.Messages)
			case r.user() != want:
				t.Errorf("question %q, want %q", r.user(), want)
			case r.MaxTokens != 1 || !r.LogProbs || r.TopLogProbs != 20 || r.Seed == nil || *r.Seed != 42 || r.ResponseFormat != nil:
				t.Errorf("request max_tokens %d logprobs %v top_logprobs %d seed %v response_format %v", r.MaxTokens, r.LogProbs, r.TopLogProbs, r.Seed, r.ResponseFormat)
			case r.Temperature == nil || *r.Temperature != 0:
				t.Errorf("temperature %v, want 0 (greedy)", r.Temperature)
			}
		})
	}
}

// TestClaimVerifier_Chunks gives evidence longer than a small context: the
// verifier cuts it into chunks whose every request fits the estimate,
// covers all of the evidence, keeps multi-byte runes whole, and takes the
// best chunk.
func TestClaimVerifier_Chunks(t *testing.T) {
	const ctxTokens = 400
	const marker = "The tower was completed in 1889."
	rec, url := claimServer(t, func(r claimRequest) (int, string, string, []top) {
		if strings.Contains(r.doc(), marker) {
			return 0, "", "Yes", []top{{"Yes", math.Log(0.9)}, {"No", math.Log(0.1)}}
		}
		return 0, "", "No", []top{{"Yes", math.Log(0.2)}, {"No", math.Log(0.8)}}
	})
	v := claimVerifier(t, url, llm.Config{ContextTokens: ctxTokens})
	forget(t, v, rec)
	n := nonce()
	var long strings.Builder
	for i := range 40 {
		fmt.Fprintf(&long, "In %d the committee met %d times and approved %d.%d%% of the budget. ", 1850+i, i, 3*i, i%10)
	}
	evidence := []string{
		"Gustave Eiffel's company designed and built the tower." + n,
		long.String(),                        // many sentences: cut between them
		strings.Repeat("éiffel 塔 ", 150),     // one sentence, multi-byte: cut between runes
		strings.Repeat("1889 ", 30) + marker, // the supporting chunk comes last
	}
	claim := "The Eiffel Tower was completed in 1889."
	ps, errs, err := v.CheckClaims(context.Background(), []kgeval.ClaimQuery{{Evidence: evidence, Claim: claim}}, nil)
	if err != nil || errs[0] != nil {
		t.Fatalf("err %v, query err %v", err, errs[0])
	}
	reqs := rec.all()
	system, _ := llm.Prompt(llm.ClaimPromptVersion)
	var docs strings.Builder
	for i, r := range reqs {
		if est := llm.EstimateRequest(strings.TrimSpace(system), r.user()); est >= ctxTokens {
			t.Errorf("request %d: estimate %d does not fit a context of %d", i, est, ctxTokens)
		}
		if !utf8.ValidString(r.user()) {
			t.Errorf("request %d cuts a rune: %q", i, r.user())
		}
		docs.WriteString(r.doc())
	}
	if len(reqs) < 4 || ps[0].Chunks != len(reqs) {
		t.Fatalf("%d requests, Chunks %d: want the evidence cut into at least 4 chunks, one request each", len(reqs), ps[0].Chunks)
	}
	// Every byte of the evidence (but whitespace) is in some chunk, once.
	squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
	if got, want := squash(docs.String()), squash(strings.Join(evidence, "")); len(got) != len(want) {
		t.Errorf("the chunks hold %d bytes of evidence (without whitespace), want %d", len(got), len(want))
	}
	if ps[0].P != 0.9 || ps[0].Best != ps[0].Chunks-1 || ps[0].Fallback {
		t.Errorf("got %+v, want P 0.9 from the last chunk (%d)", ps[0], ps[0].Chunks-1)
	}
	if ps[0].Tokens == 0 {
		t.Errorf("tokens %d, want the prompt tokens of every chunk", ps[0].Tokens)
	}
	t.Logf("%d bytes of evidence in %d chunks of a %d-token context", len(strings.Join(evidence, "")), ps[0].Chunks, ctxTokens)
	// ChunkP holds each chunk's P; mean and top2 read them, from the cache.
	k := ps[0].Chunks
	for j, p := range ps[0].ChunkP {
		if want := map[bool]float64{true: 0.9, false: 0.2}[j == k-1]; math.Abs(p-want) > 1e-9 {
			t.Errorf("ChunkP %v: chunk %d has %v, want %v", ps[0].ChunkP, j, p, want)
		}
	}
	if len(ps[0].ChunkP) != k {
		t.Errorf("ChunkP %v, want %d chunks", ps[0].ChunkP, k)
	}
	for how, want := range map[string]float64{"max": 0.9, "mean": (0.9 + 0.2*float64(k-1)) / float64(k), "top2": (0.9 + 0.2) / 2} {
		v.Aggregate = how
		got, errs, err := v.CheckClaims(context.Background(), []kgeval.ClaimQuery{{Evidence: evidence, Claim: claim}}, nil)
		if err != nil || errs[0] != nil || math.Abs(got[0].P-want) > 1e-9 || !got[0].Cached || len(rec.all()) != len(reqs) {
			t.Errorf("aggregate %s: P %v (err %v, %v; cached %v; %d requests), want %v from the cache", how, got[0].P, err, errs[0], got[0].Cached, len(rec.all()), want)
		}
	}
	v.Aggregate = ""

	// The claim alone leaves no room for evidence: the query's error.
	_, errs, err = v.CheckClaims(context.Background(), []kgeval.ClaimQuery{{Evidence: evidence, Claim: strings.Repeat("1889 ", 100)}}, nil)
	if err != nil || kgeval.ErrorCode(errs[0]) != kgeval.EINVALID || !errors.Is(errs[0], llm.ErrContextExceeded) {
		t.Errorf("err %v, query err %v, want EINVALID: no room for evidence", err, errs[0])
	}
}

// TestClaimVerifier_Faults injects the servers' faults: one that ignores
// logprobs, one that refuses them, one that refuses a chunk as longer than
// its context, one that fails a query; and checks the cache and the
// deduplication.
func TestClaimVerifier_Faults(t *testing.T) {
	ctx := context.Background()
	yes := []top{{"Yes", math.Log(0.75)}, {"No", math.Log(0.25)}}
	t.Run("CacheThenNoRequest", func(t *testing.T) {
		rec, url := claimServer(t, func(claimRequest) (int, string, string, []top) { return 0, "", "Yes", yes })
		v := claimVerifier(t, url, llm.Config{})
		forget(t, v, rec)
		n := nonce()
		q := kgeval.ClaimQuery{Evidence: []string{eiffel + n}, Claim: "The Eiffel Tower was completed in 1889."}
		other := kgeval.ClaimQuery{Evidence: []string{eiffel + n}, Claim: "The Eiffel Tower is in Paris."}
		var calls []int
		ps, errs, err := v.CheckClaims(ctx, []kgeval.ClaimQuery{q, other, q}, func(done, total int) { calls = append(calls, done, total) })
		if err != nil || errs[0] != nil || errs[1] != nil || errs[2] != nil {
			t.Fatalf("err %v, query errs %v", err, errs)
		}
		if len(rec.all()) != 2 || !reflect.DeepEqual(ps[0], ps[2]) || ps[0].P != 0.75 || ps[0].Cached || ps[0].Tokens == 0 {
			t.Fatalf("%d requests for 3 queries (2 distinct), answers %+v", len(rec.all()), ps)
		}
		if len(calls) != 4 || calls[2] != 3 || calls[3] != 3 {
			t.Errorf("progress calls (done, total) %v, want two ending at (3, 3)", calls)
		}
		again, errs, err := v.CheckClaims(ctx, []kgeval.ClaimQuery{q, other}, nil)
		if err != nil || errs[0] != nil || len(rec.all()) != 2 {
			t.Fatalf("second call: err %v, query err %v, requests %d; want no request", err, errs[0], len(rec.all()))
		}
		if !again[0].Cached || again[0].P != 0.75 || again[0].Tokens != 0 || v.Client.Stats().CacheHits != 2 {
			t.Errorf("second call %+v, cache hits %d: want the cached answers", again, v.Client.Stats().CacheHits)
		}
	})
	t.Run("NoLogProbsField", func(t *testing.T) {
		rec, url := claimServer(t, func(claimRequest) (int, string, string, []top) { return 0, "", "Yes", nil })
		v := claimVerifier(t, url, llm.Config{})
		forget(t, v, rec)
		ps, errs, err := v.CheckClaims(ctx, []kgeval.ClaimQuery{{Evidence: []string{eiffel + nonce()}, Claim: "It is in Paris."}}, nil)
		if err != nil || errs[0] != nil || ps[0].P != 1 || !ps[0].Fallback {
			t.Errorf("got %+v (err %v, %v), want P 1 as a fallback", ps[0], err, errs[0])
		}
	})
	t.Run("LogProbsRefused", func(t *testing.T) {
		rec, url := claimServer(t, func(r claimRequest) (int, string, string, []top) {
			if r.LogProbs || r.TopLogProbs != 0 {
				return 400, `{"error": {"message": "logprobs is not supported by this model", "type": "invalid_request_error"}}`, "", nil
			}
			return 0, "", "No", nil
		})
		v := claimVerifier(t, url, llm.Config{})
		forget(t, v, rec)
		n := nonce()
		for i, claim := range []string{"It was completed in 1925.", "It is in Rome."} {
			ps, errs, err := v.CheckClaims(ctx, []kgeval.ClaimQuery{{Evidence: []string{eiffel + n}, Claim: claim}}, nil)
			if err != nil || errs[0] != nil || ps[0].P != 0 || !ps[0].Fallback {
				t.Errorf("query %d: got %+v (err %v, %v), want P 0 as a fallback", i, ps[0], err, errs[0])
			}
		}
		var with []bool
		for _, r := range rec.all() {
			with = append(with, r.LogProbs)
		}
		if fmt.Sprint(with) != "[true false false]" {
			t.Errorf("logprobs asked %v, want [true false false]: refused once, then never asked again", with)
		}
		if st := v.Client.Stats(); st.Retries != 0 || st.Failures != 0 {
			t.Errorf("stats %+v: the step down is neither a retry nor a failure", st)
		}
	})
	t.Run("ContextRefusedHalved", func(t *testing.T) {
		// The server's context is smaller than the client believes: it
		// refuses the question with all four passages, as llama.cpp does.
		const refused = `{"error": {"code": 400, "message": "request (9000 tokens) exceeds the available context size (8192 tokens), try increasing it", "type": "exceed_context_size_error"}}`
		n := nonce()
		q := kgeval.ClaimQuery{Claim: "It was completed in 1889.", Evidence: []string{
			"Gustave Eiffel's company built it." + n, "It is made of wrought iron.", "It stands on the Champ de Mars.", "It was completed in 1889."}}
		whole := len(llm.ClaimQuestion(q.Evidence, q.Claim))
		rec, url := claimServer(t, func(r claimRequest) (int, string, string, []top) {
			switch {
			case len(r.user()) >= whole:
				return 400, refused, "", nil
			case strings.Contains(r.doc(), "1889"):
				return 0, "", "Yes", yes
			}
			return 0, "", "No", []top{{"No", 0}}
		})
		v := claimVerifier(t, url, llm.Config{})
		forget(t, v, rec)
		ps, errs, err := v.CheckClaims(ctx, []kgeval.ClaimQuery{q}, nil)
		if err != nil || errs[0] != nil {
			t.Fatalf("err %v, query err %v", err, errs[0])
		}
		reqs := len(rec.all())
		if ps[0].P != 0.75 || ps[0].Chunks != 1 || reqs < 3 {
			t.Errorf("got %+v after %d requests, want P 0.75 from a half of the one chunk", ps[0], reqs)
		}
		if st := v.Client.Stats(); st.Failures != 0 || st.Retries != 0 {
			t.Errorf("stats %+v: a refused chunk that was halved is no failure and no retry", st)
		}
		again, errs, _ := v.CheckClaims(ctx, []kgeval.ClaimQuery{q}, nil)
		if errs[0] != nil || !again[0].Cached || again[0].P != 0.75 || len(rec.all()) != reqs {
			t.Errorf("second call %+v (%v) after %d more requests, want the cached answer", again[0], errs[0], len(rec.all())-reqs)
		}
		// A server that refuses every size: that query's error after the
		// bounded halvings; the other query is answered.
		rec2, url2 := claimServer(t, func(r claimRequest) (int, string, string, []top) {
			if strings.HasSuffix(r.user(), "Claim: "+q.Claim+"\n\nIs every piece of information in the claim supported by the document? Answer Yes or No.") {
				return 400, refused, "", nil
			}
			return 0, "", "Yes", yes
		})
		v2 := claimVerifier(t, url2, llm.Config{})
		forget(t, v2, rec2)
		n = nonce()
		q.Evidence[0] = "Gustave Eiffel's company built it." + n // not the cached answer above
		ps, errs, err = v2.CheckClaims(ctx, []kgeval.ClaimQuery{q, {Evidence: []string{eiffel + n}, Claim: "It is in Paris."}}, nil)
		if err != nil || !errors.Is(errs[0], llm.ErrContextExceeded) || kgeval.ErrorCode(errs[0]) != kgeval.EINVALID || !reflect.DeepEqual(ps[0], kgeval.ClaimProb{}) {
			t.Errorf("refused query: %+v, err %v (%s): want EINVALID, the context exceeded", ps[0], errs[0], kgeval.ErrorCode(errs[0]))
		}
		if errs[1] != nil || ps[1].P != 0.75 {
			t.Errorf("other query: %+v, %v", ps[1], errs[1])
		}
		if n := len(rec2.all()); n > 1+2+4+8+1 {
			t.Errorf("%d requests: the halvings are not bounded", n)
		}
	})
	t.Run("QueryFails", func(t *testing.T) {
		rec, url := claimServer(t, func(r claimRequest) (int, string, string, []top) {
			if strings.Contains(r.user(), "Rome") {
				return 400, `{"error": {"message": "bad request", "type": "invalid_request_error"}}`, "", nil
			}
			return 0, "", "Yes", yes
		})
		v := claimVerifier(t, url, llm.Config{})
		forget(t, v, rec)
		n := nonce()
		ps, errs, err := v.CheckClaims(ctx, []kgeval.ClaimQuery{
			{Evidence: []string{eiffel + n}, Claim: "It is in Rome."},
			{Evidence: []string{eiffel + n}, Claim: "It is in Paris."},
			{Evidence: []string{eiffel + n}, Claim: " "},
		}, nil)
		if err != nil || kgeval.ErrorCode(errs[0]) != kgeval.EUNAVAILABLE || !reflect.DeepEqual(ps[0], kgeval.ClaimProb{}) {
			t.Errorf("failed query: %+v, %v; want its error and no answer", ps[0], errs[0])
		}
		if errs[1] != nil || ps[1].P != 0.75 {
			t.Errorf("other query: %+v, %v", ps[1], errs[1])
		}
		if kgeval.ErrorCode(errs[2]) != kgeval.EINVALID {
			t.Errorf("empty claim: %v, want EINVALID", errs[2])
		}
		if st := v.Client.Stats(); st.Failures != 1 {
			t.Errorf("stats %+v, want 1 failure", st)
		}
	})
}

// TestClient_ContextGuard: a JSON request whose estimate exceeds the
// context fails at once, before the endpoint, with EINVALID naming
// llm.context_tokens; one that fits is sent.
func TestClient_ContextGuard(t *testing.T) {
	srv, n := faultServer(t, answer(good))
	c := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: "m", Timeout: time.Second, MaxRetries: 3, ContextTokens: 200})
	var o out
	err := c.JSON(context.Background(), llm.Request{System: "s", User: strings.Repeat("In 1889, 300 m. ", 40)}, &o, nil)
	if kgeval.ErrorCode(err) != kgeval.EINVALID || !errors.Is(err, llm.ErrContextExceeded) || n.Load() != 0 ||
		!strings.Contains(err.Error(), "exceeds the endpoint's context of 200 tokens (llm.context_tokens)") {
		t.Errorf("err %v (%s) after %d requests, want EINVALID at once", err, kgeval.ErrorCode(err), n.Load())
	}
	if err := c.JSON(context.Background(), llm.Request{System: "s", User: "Erica vagans is also called Cornish heath."}, &o, nil); err != nil || n.Load() != 1 {
		t.Errorf("a request that fits: err %v, %d requests", err, n.Load())
	}
	if d := llm.New(llm.Config{}).ContextTokens(); d != 8192 {
		t.Errorf("default context %d, want 8192", d)
	}
}

// TestEstimateTokens: digits, punctuation and a space before a digit are
// a token each; letters a third; multi-byte runes two thirds a byte; the
// estimate never falls when text is appended.
func TestEstimateTokens(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
	}{
		{"", 0}, {"1889", 4}, {"in 1889", 1 + 1 + 4}, {"Paris", 2}, {"a.b", 2}, {"é", 2}, {"塔", 2},
	} {
		if got := llm.EstimateTokens(c.s); got != c.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", c.s, got, c.want)
		}
	}
	s := "The tower, 324 m tall, was completed in 1889 — 塔 été. "
	for i := 1; i <= len(s); i++ {
		if llm.EstimateTokens(s[:i]) < llm.EstimateTokens(s[:i-1]) {
			t.Errorf("estimate falls from %q to %q", s[:i-1], s[:i])
		}
	}
	if got := llm.EstimateRequest("s", "u"); got != 16+2*16+2 {
		t.Errorf("EstimateRequest = %d, want 16 per message, 16 for the reply and the contents", got)
	}
}

// TestClaimVerifier_ClaimFirst checks the claim-first three-way form: its
// question puts the claim before the document, its P(supported) is p(Yes)
// over Yes, No and Unknown, and P(contradicted) still comes from the
// three-way form alone.
func TestClaimVerifier_ClaimFirst(t *testing.T) {
	e := math.Exp
	rec, url := claimServer(t, func(r claimRequest) (int, string, string, []top) {
		if strings.HasPrefix(r.user(), "Claim: ") {
			return 0, "", "Yes", []top{{"Yes", -0.5}, {"No", -2}, {"Unknown", -1}}
		}
		return 0, "", "No", []top{{"No", -0.5}, {"Yes", -1}, {"Unknown", -2}}
	})
	v := claimVerifier(t, url, llm.Config{})
	v.Forms = []string{llm.FormThreeWay, llm.FormClaimFirst}
	forget(t, v, rec)
	q := kgeval.ClaimQuery{Evidence: []string{eiffel + nonce()}, Claim: "The Eiffel Tower was completed in 1889."}
	ps, errs, err := v.CheckClaims(context.Background(), []kgeval.ClaimQuery{q}, nil)
	if err != nil || errs[0] != nil {
		t.Fatalf("err %v, query err %v", err, errs[0])
	}
	threeway := e(-1) / (e(-0.5) + e(-1) + e(-2))
	claimFirst := e(-0.5) / (e(-0.5) + e(-2) + e(-1))
	p := ps[0]
	if math.Abs(p.Forms[llm.FormThreeWay]-threeway) > 1e-9 || math.Abs(p.Forms[llm.FormClaimFirst]-claimFirst) > 1e-9 || math.Abs(p.P-(threeway+claimFirst)/2) > 1e-9 {
		t.Errorf("forms %v, P %v; want threeway %.4f, claimfirst %.4f and their mean", p.Forms, p.P, threeway, claimFirst)
	}
	if p.Contradicted == nil || math.Abs(*p.Contradicted-e(-0.5)/(e(-0.5)+e(-1)+e(-2))) > 1e-9 {
		t.Errorf("P(contradicted) %v, want the three-way form's p(No)", p.Contradicted)
	}
	var first string
	for _, r := range rec.all() {
		if strings.HasPrefix(r.user(), "Claim: ") {
			first = r.user()
		}
	}
	want := "Claim: " + q.Claim + "\n\nDocument:\n" + q.Evidence[0] + "\n\nDoes the document support the claim?"
	if !strings.HasPrefix(first, want) {
		t.Errorf("claim-first question %q, want it to start %q", first, want)
	}
}
