package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/llm"
)

// exchange is one request to the real model server and what it answered.
type exchange struct {
	System, User string
	Status       int
	PromptTokens int
	// CachedTokens is the prompt the server took from its cache
	// (llama.cpp: usage.prompt_tokens_details.cached_tokens).
	CachedTokens int
}

// tap is a recording reverse proxy in front of the real model server: the
// server answers every request, the test reads what was asked and the
// prompt tokens the server counted.
type tap struct {
	mu  sync.Mutex
	xs  []exchange
	url string
}

func (tp *tap) all() []exchange {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return append([]exchange(nil), tp.xs...)
}

// mustTappedLLM returns a client of the local model server (MustLocalLLM:
// it fails when the server is not there) whose requests go through a tap.
func mustTappedLLM(t *testing.T, timeout time.Duration) (*llm.Client, *tap) {
	t.Helper()
	local := MustLocalLLM(t)
	target, err := url.Parse(os.Getenv("KGEVAL_LLM_BASE_URL"))
	if err != nil {
		t.Fatal(err)
	}
	tp := &tap{}
	rp := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.SetURL(target)
		r.Out.URL.Path = strings.TrimSuffix(target.Path, "/") + strings.TrimPrefix(r.In.URL.Path, "/v1")
	}}
	rp.ModifyResponse = func(resp *http.Response) error {
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		json.Unmarshal(resp.Request.Context().Value(bodyKey{}).([]byte), &req)
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		var ans struct {
			Usage struct {
				PromptTokens int `json:"prompt_tokens"`
				Details      struct {
					CachedTokens int `json:"cached_tokens"`
				} `json:"prompt_tokens_details"`
			} `json:"usage"`
		}
		json.Unmarshal(body, &ans)
		x := exchange{Status: resp.StatusCode, PromptTokens: ans.Usage.PromptTokens, CachedTokens: ans.Usage.Details.CachedTokens}
		if len(req.Messages) == 2 {
			x.System, x.User = req.Messages[0].Content, req.Messages[1].Content
		}
		tp.mu.Lock()
		tp.xs = append(tp.xs, x)
		tp.mu.Unlock()
		return nil
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), bodyKey{}, b)))
	}))
	t.Cleanup(srv.Close)
	tp.url = srv.URL + "/v1"
	return llm.New(llm.Config{BaseURL: tp.url, Model: local.Model(), Timeout: timeout, MaxRetries: 2, MaxRepairs: 2, Concurrency: 1}), tp
}

type bodyKey struct{}

// checkEstimates fails the test when the server counted more prompt tokens
// than EstimateRequest for any request, or refused one, and logs how
// close the estimate came.
func checkEstimates(t *testing.T, xs []exchange) {
	t.Helper()
	for i, x := range xs {
		if x.Status != http.StatusOK {
			t.Errorf("request %d: status %d: the server refused it", i, x.Status)
			continue
		}
		est := llm.EstimateRequest(x.System, x.User)
		if x.PromptTokens > est {
			t.Errorf("request %d: the server counted %d prompt tokens, the estimate was %d: it must never under-estimate", i, x.PromptTokens, est)
		}
		t.Logf("request %d: %d bytes, server %d prompt tokens (%.2f bytes a token, %d from its cache), estimate %d (%.2f times)",
			i, len(x.System)+len(x.User), x.PromptTokens, float64(len(x.System)+len(x.User))/float64(x.PromptTokens), x.CachedTokens, est, float64(est)/float64(x.PromptTokens))
	}
}

// TestClaimVerifier_EndToEnd asks the local model about a claim its
// document states and one it contradicts, on two documents, then again from
// the cache. The direction is asserted: the bundled 1.5B model answers these
// cases steadily (5 runs: P(supported) 0.96-0.97 for the Eiffel
// Tower's stated year, 0.19-0.21 for the contradicted one; 3 runs: 0.77-0.78
// for PSLV-C56's stated launch date, 0.09-0.12 for another date). The
// triplet Verifier, asked the same dates, is not that reliable (see
// TestVerifier_EndToEnd).
func TestClaimVerifier_EndToEnd(t *testing.T) {
	client, tp := mustTappedLLM(t, 5*time.Minute)
	v := &llm.ClaimVerifier{Client: client, Cache: MustCache(t)}
	nonce := fmt.Sprintf(" [test %d]", time.Now().UnixNano())
	doc := eiffel + " It is 330 metres tall." + nonce
	launch := "It is Scheduled to get launched on Sunday, 30 July 2023 at 06:30 IST / 01:00 UTC from Satish Dhawan Space Centre." + nonce
	qs := []kgeval.ClaimQuery{
		{Evidence: []string{doc}, Claim: "The Eiffel Tower was completed in 1889."},
		{Evidence: []string{doc}, Claim: "The Eiffel Tower was completed in 1925."},
		{Evidence: []string{launch}, Claim: "PSLV-C56 is launched on 30 July 2023."},
		{Evidence: []string{launch}, Claim: "PSLV-C56 is launched on 5 August 2023."},
	}
	start := time.Now()
	ps, errs, err := v.CheckClaims(context.Background(), qs, nil)
	if err != nil || errs[0] != nil || errs[1] != nil || errs[2] != nil || errs[3] != nil {
		t.Fatalf("err %v, query errs %v", err, errs)
	}
	t.Logf("supported: %+v; contradicted: %+v; %v", ps[0], ps[1], time.Since(start).Round(time.Millisecond))
	t.Logf("30 July: %+v; 5 August: %+v", ps[2], ps[3])
	for k := 0; k < len(ps); k += 2 {
		stated, other := ps[k], ps[k+1]
		if stated.Fallback || other.Fallback {
			t.Errorf("fallback: the local server returns log-probabilities")
		}
		if stated.P <= 0.5 {
			t.Errorf("P(supported) of %q, which the document states = %.3f, want > 0.5", qs[k].Claim, stated.P)
		}
		if other.P >= 0.5 || other.P >= stated.P {
			t.Errorf("P(supported) of %q, which the document contradicts = %.3f, want < 0.5 and below the stated claim's %.3f", qs[k+1].Claim, other.P, stated.P)
		}
	}
	if ps[0].Tokens == 0 {
		t.Errorf("no prompt tokens counted")
	}
	checkEstimates(t, tp.all())
	calls := client.Stats().Calls
	again, errs, err := v.CheckClaims(context.Background(), qs, nil)
	if err != nil || errs[0] != nil || client.Stats().Calls != calls || !again[0].Cached || again[0].P != ps[0].P || again[1].P != ps[1].P || again[3].P != ps[3].P {
		t.Errorf("second call %+v (err %v, %v) made %d calls; want the cached answers", again, err, errs, client.Stats().Calls-calls)
	}
}

// TestEstimateRequest_EndToEnd checks EstimateRequest against the prompt
// tokens the real server counts, on a real English passage and on a table
// of numbers (a digit is a token of its own for Qwen's tokenizer). A
// plumbing test: the model's P(supported) is logged, not checked (claim
// quality lives in `make factcheck`).
func TestEstimateRequest_EndToEnd(t *testing.T) {
	res, err := dataset.Load(filepath.Join("..", "testdata", "wikieval.jsonl"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	client, tp := mustTappedLLM(t, 10*time.Minute)
	v := &llm.ClaimVerifier{Client: client, Cache: MustCache(t)}
	var table strings.Builder
	table.WriteString("Year | Launches | Success rate | Payload (kg)\n")
	for i := range 24 {
		fmt.Fprintf(&table, "%d | %d | %d.%d%% | %d,%03d\n", 2000+i, 3+i%5, 90+i%10, i%10, 1+i%3, 100+37*i)
	}
	nonce := fmt.Sprintf(" [test %d]", time.Now().UnixNano())
	qs := []kgeval.ClaimQuery{
		{Evidence: []string{res.Samples[0].Contexts[0] + nonce}, Claim: "PSLV-C56 is launched from Satish Dhawan Space Centre."},
		{Evidence: []string{table.String() + nonce}, Claim: "In 2005 there were 3 launches."},
	}
	ps, errs, err := v.CheckClaims(context.Background(), qs, nil)
	if err != nil || errs[0] != nil || errs[1] != nil {
		t.Fatalf("err %v, query errs %v", err, errs)
	}
	t.Logf("English passage (%d bytes): %+v; table (%d bytes): %+v", len(qs[0].Evidence[0]), ps[0], len(qs[1].Evidence[0]), ps[1])
	checkEstimates(t, tp.all())
}

// TestClaimVerifier_LongDocument_EndToEnd gives a real document longer
// than the server's context (the first distinct passages of WikiEval-50,
// 41 KB, about 9,000 tokens: the server refuses it whole): the verifier
// cuts it into chunks, and the server accepts every one. A plumbing test:
// what the model answers is not checked (`make factcheck` measures it).
func TestClaimVerifier_LongDocument_EndToEnd(t *testing.T) {
	res, err := dataset.Load(filepath.Join("..", "testdata", "wikieval50.jsonl"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var passages []string
	seen, size := map[string]bool{}, 0
	for _, s := range res.Samples {
		for _, c := range s.Contexts {
			if size < 40000 && !seen[c] {
				seen[c] = true
				passages = append(passages, c)
				size += len(c) + 2
			}
		}
	}
	client, tp := mustTappedLLM(t, 30*time.Minute)
	// The whole document, asked as one request past the client's guard:
	// the server refuses it (at once, before it evaluates the prompt).
	system, _ := llm.Prompt(llm.ClaimPromptVersion)
	body, _ := json.Marshal(map[string]any{"model": client.Model(), "max_tokens": 1, "messages": []map[string]string{
		{"role": "system", "content": strings.TrimSpace(system)},
		{"role": "user", "content": llm.ClaimQuestion(passages, "PSLV-C56 is the 58th mission of the PSLV.")}}})
	resp, err := http.Post(tp.url+"/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(msg), "context") {
		t.Fatalf("the whole document (%d bytes): status %d %s; want the server's 400 for a request longer than its context", size, resp.StatusCode, msg)
	}
	t.Logf("the whole document (%d bytes, %d passages), asked at once: %d %s", size, len(passages), resp.StatusCode, msg)
	whole := len(tp.all())

	// The claim ends with the run's nonce, after the evidence: a rerun
	// reuses the server's cached prompt of each chunk.
	v := &llm.ClaimVerifier{Client: client, Cache: MustCache(t)}
	q := kgeval.ClaimQuery{Evidence: passages, Claim: fmt.Sprintf("PSLV-C56 is the 58th mission of the PSLV. (%d)", time.Now().UnixNano())}
	start := time.Now()
	ps, errs, err := v.CheckClaims(context.Background(), []kgeval.ClaimQuery{q}, nil)
	if err != nil || errs[0] != nil {
		t.Fatalf("err %v, query err %v", err, errs[0])
	}
	xs := tp.all()[whole:]
	t.Logf("%+v in %d requests, %v", ps[0], len(xs), time.Since(start).Round(time.Second))
	if ps[0].Chunks < 2 || len(xs) != ps[0].Chunks {
		t.Errorf("%d chunks in %d requests, want at least 2, one request each", ps[0].Chunks, len(xs))
	}
	checkEstimates(t, xs)
}
