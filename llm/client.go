// Package llm talks to any OpenAI-compatible endpoint (OpenAI, Azure OpenAI,
// Ollama, vLLM, a llama.cpp server) through github.com/sashabaranov/go-openai.
// It asks for JSON (json_schema, else json_object, else plain text, as the
// server allows), validates every answer, repairs or retries malformed output
// a bounded number of times, retries timeouts, 429 (honouring Retry-After)
// and 5xx with jittered backoff, bounds concurrency, and counts every call.
// It also asks one-token Yes/No questions with the answer's
// log-probabilities (ClaimVerifier), optionally split into atomic facts
// first (AtomicVerifier), keys every cached answer by CacheKey (model,
// prompt version, question), and sends no chat request whose
// estimate (EstimateRequest) does not fit the endpoint's context
// (Config.ContextTokens).
package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kgeval/kgeval"
	openai "github.com/sashabaranov/go-openai"
)

// Config is how to reach the endpoint.
type Config struct {
	BaseURL     string
	APIKey      string
	Model       string
	Timeout     time.Duration // per attempt
	MaxRetries  int           // transport retries (timeouts, 429, 5xx) per call
	MaxRepairs  int           // extra attempts when the answer is not valid JSON of the right shape
	Concurrency int
	Temperature float32
	// MaxTokens caps each answer's length (default 1024), so that a model
	// that loops cannot hold a worker for minutes.
	MaxTokens int
	// BaseBackoff is the first retry delay (doubled each retry, with jitter).
	BaseBackoff time.Duration
	// CacheOnly refuses every request (chat and embeddings) before it
	// reaches the endpoint, with EUNAVAILABLE "not in the cache
	// (--cache-only)": callers ask the client only for what their cache
	// lacks, so a replay from a cache snapshot makes no model call.
	CacheOnly bool
	// ContextTokens is the endpoint's context in tokens (default 8192:
	// the bundled llama.cpp server gives each slot 8192). A chat request
	// whose EstimateRequest reaches it fails before it is sent, and the
	// claim verifier cuts its evidence into chunks that stay below it.
	ContextTokens int
}

// DefaultContextTokens is Config.ContextTokens when it is 0.
const DefaultContextTokens = 8192

// Client is an OpenAI-compatible chat client. It is safe for concurrent use.
type Client struct {
	cfg    Config
	api    *openai.Client
	sem    chan struct{}
	format atomic.Int32 // 0 json_schema, 1 json_object, 2 none: what the server accepted
	// noLogProbs is set when the server refused logprobs (400): later
	// one-token questions are asked without them.
	noLogProbs atomic.Bool

	calls, cancelled, failures, retries, repairs, hits, refused, ptok, ctok, lat atomic.Int64

	sleep func(context.Context, time.Duration) error
}

// New returns a client for cfg.
func New(cfg Config) *Client {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 120 * time.Second
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 1
	}
	if cfg.MaxRepairs == 0 {
		cfg.MaxRepairs = 2
	}
	if cfg.MaxTokens <= 0 {
		cfg.MaxTokens = 1024
	}
	if cfg.BaseBackoff <= 0 {
		cfg.BaseBackoff = 500 * time.Millisecond
	}
	if cfg.ContextTokens <= 0 {
		cfg.ContextTokens = DefaultContextTokens
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	var next http.RoundTripper = retryAfterTransport{http.DefaultTransport}
	if cfg.Temperature == 0 {
		next = greedyTransport{next}
	}
	oc.HTTPClient = &http.Client{Transport: next}
	return &Client{cfg: cfg, api: openai.NewClientWithConfig(oc), sem: make(chan struct{}, cfg.Concurrency), sleep: sleepCtx}
}

// Model returns the model name, part of every cache key.
func (c *Client) Model() string { return c.cfg.Model }

// Endpoint identifies the endpoint and model, for run records.
func (c *Client) Endpoint() string { return c.cfg.BaseURL + "#" + c.cfg.Model }

// Stats returns the client's accounting: totals since creation.
func (c *Client) Stats() kgeval.Calls {
	return kgeval.Calls{Calls: c.calls.Load(), Cancelled: c.cancelled.Load(), Failures: c.failures.Load(), Retries: c.retries.Load(), Repairs: c.repairs.Load(),
		CacheHits: c.hits.Load(), Refused: c.refused.Load(), PromptTokens: c.ptok.Load(), CompletionTokens: c.ctok.Load(), Latency: time.Duration(c.lat.Load())}
}

// CountCacheHit records that an answer came from the cache.
func (c *Client) CountCacheHit(n int) { c.hits.Add(int64(n)) }

// Request is one JSON task for the model.
type Request struct {
	System string
	User   string
	// SchemaName and Schema describe the expected JSON (a JSON Schema object).
	SchemaName string
	Schema     map[string]any
	// PresencePenalty (OpenAI's presence_penalty, 0: not sent) keeps a
	// small model from repeating one line until max_tokens.
	PresencePenalty float32
}

// JSON sends req and decodes the answer into out (a pointer), then calls
// validate (may be nil) on it. Malformed or invalid answers are repaired or
// retried up to MaxRepairs times. Errors: EUNAVAILABLE when the endpoint
// cannot be reached or keeps failing, EINVALID when the model never produced
// valid output (the message says what was wrong).
func (c *Client) JSON(ctx context.Context, req Request, out any, validate func() error) error {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-c.sem }()

	msgs := []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: req.System},
		{Role: openai.ChatMessageRoleUser, Content: req.User},
	}
	var lastErr error
	for attempt := 0; attempt <= c.cfg.MaxRepairs; attempt++ {
		if attempt > 0 {
			c.repairs.Add(1)
		}
		text, err := c.complete(ctx, msgs, req)
		if err != nil {
			// An abandoned call is counted as cancelled, a refused one
			// (CacheOnly) as refused, not failed.
			if ctx.Err() == nil && !errors.Is(err, ErrNotCached) {
				c.failures.Add(1)
			}
			return err
		}
		if err = decode(text, out); err == nil && validate != nil {
			err = validate()
		}
		if err == nil {
			return nil
		}
		lastErr = err
		// Ask the model to repair its own answer.
		msgs = append(msgs,
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: truncate(text, 4000)},
			openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: "That answer was not valid: " + err.Error() +
				". Reply again with only the JSON object, exactly in the required shape."})
	}
	c.failures.Add(1)
	return kgeval.Wrap(kgeval.EINVALID, lastErr, "model %s "+kgeval.ReasonNoValidJSON, c.cfg.Model, c.cfg.MaxRepairs+1)
}

// temperature is the temperature set on a request. go-openai leaves a
// zero temperature out of the request (omitempty), and servers then use
// their default (llama.cpp: 0.8); a tiny positive one is still sampled
// with (llama.cpp answered "Yes" where its own logprobs gave No -0.08,
// Yes -2.7). So a zero temperature is left to greedyTransport, which
// writes "temperature": 0 into the request's JSON: OpenAI, vLLM, Ollama
// and llama.cpp all decode greedily then.
func (c *Client) temperature() float32 { return c.cfg.Temperature }

// complete makes one chat completion with transport retries. A request
// that does not fit the endpoint's context fails at once (EINVALID).
func (c *Client) complete(ctx context.Context, msgs []openai.ChatCompletionMessage, req Request) (string, error) {
	if err := c.guard(msgs); err != nil {
		return "", err
	}
	var text string
	err := c.withRetries(ctx, c.cfg.Model, func(actx context.Context) error {
		cr := openai.ChatCompletionRequest{Model: c.cfg.Model, Messages: msgs, Temperature: c.temperature(), MaxTokens: c.cfg.MaxTokens, PresencePenalty: req.PresencePenalty}
		seed := 42
		cr.Seed = &seed
		switch c.format.Load() {
		case 0:
			if req.Schema != nil {
				cr.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONSchema,
					JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: req.SchemaName, Schema: schema(req.Schema), Strict: true}}
			} else {
				cr.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
			}
		case 1:
			cr.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
		}
		resp, err := c.api.CreateChatCompletion(actx, cr)
		if err != nil {
			if statusOf(err) == http.StatusBadRequest && cr.ResponseFormat != nil && c.format.Load() < 2 &&
				strings.Contains(strings.ToLower(err.Error()), "response_format") {
				// The server does not support this response format: step down.
				c.format.Add(1)
				return errStepDown
			}
			return err
		}
		c.ptok.Add(int64(resp.Usage.PromptTokens))
		c.ctok.Add(int64(resp.Usage.CompletionTokens))
		if len(resp.Choices) == 0 {
			return badAnswer("the answer had no choices")
		}
		text = resp.Choices[0].Message.Content
		return nil
	})
	return text, err
}

// ErrContextExceeded is the cause of a request that does not fit the
// endpoint's context: refused by the guard before it was sent, or by the
// server (400).
var ErrContextExceeded = errors.New("the request exceeds the endpoint's context")

// msgOverhead is the tokens a chat template adds per message, and once for
// the reply's prefix. Qwen2.5's template adds 5 per message and 3 for the
// reply; without a system message it adds its own (about 20 tokens).
const msgOverhead = 16

// EstimateTokens is an upper bound, from its bytes, of the tokens a
// tokenizer makes of s. Each ASCII digit, ASCII punctuation or symbol
// byte and whitespace right before a digit counts as a token, since
// tokenizers such as Qwen's and Llama's split numbers into single digits; the
// other ASCII bytes (letters, spaces) count a third of a token each, and
// non-ASCII bytes two thirds. Measured with the bundled llama.cpp server
// (Qwen2.5, /tokenize) on 494 passages, answers and questions of
// testdata/wikieval50, expertqa and wikieval_ragflow: English runs 2.7 to
// 6.2 bytes a token (median 4.7) and the estimate is 1.14 to 2.3 times the
// true count (median 1.74); numbers separated by spaces are one token a
// byte (estimate 1.00 times), a table of numbers 1.06, dates and amounts
// in prose 1.22, URLs 1.17, Chinese 2.3, accented French 1.4, Greek 1.2,
// Cyrillic 2.5. A plain bytes/3 under-estimates these: 0.33 for numbers,
// 0.39 for a table, 0.70 for dates, and 0.91 for one real passage. Random
// letter strings (hex digests, base64) can still come out under their
// count; the server's own refusal covers them.
func EstimateTokens(s string) int {
	whole, thirds := 0, 0
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case b >= 0x80:
			thirds += 2
		case b >= '0' && b <= '9':
			whole++
		case b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f':
			if i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
				whole++
			} else {
				thirds++
			}
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z':
			thirds++
		default: // punctuation, symbols, control bytes
			whole++
		}
	}
	return whole + (thirds+2)/3
}

// EstimateRequest is an upper bound of the prompt tokens of a chat request
// with these message contents: EstimateTokens of each, plus msgOverhead
// per message and once for the reply. The real server's usage.prompt_tokens
// is checked against it end to end (TestEstimateRequest_EndToEnd).
func EstimateRequest(contents ...string) int {
	n := msgOverhead
	for _, m := range contents {
		n += EstimateTokens(m) + msgOverhead
	}
	return n
}

// ContextTokens is the endpoint's context in tokens (Config.ContextTokens).
func (c *Client) ContextTokens() int { return c.cfg.ContextTokens }

// Fits says whether a request of about n prompt tokens (EstimateRequest)
// leaves the endpoint room for at least one answer token.
func (c *Client) Fits(n int) bool { return n < c.cfg.ContextTokens }

// guard refuses a request that does not fit the context, before it is
// sent (a CacheOnly client refuses every request anyway, as not cached).
// Error: EINVALID wrapping ErrContextExceeded.
func (c *Client) guard(msgs []openai.ChatCompletionMessage) error {
	if c.cfg.CacheOnly {
		return nil
	}
	contents := make([]string, len(msgs))
	for i, m := range msgs {
		contents[i] = m.Content
	}
	if n := EstimateRequest(contents...); !c.Fits(n) {
		return kgeval.Wrap(kgeval.EINVALID, ErrContextExceeded, "model %s: request of about %d tokens exceeds the endpoint's context of %d tokens (llm.context_tokens)",
			c.cfg.Model, n, c.cfg.ContextTokens)
	}
	return nil
}

// contextRefused says whether err is the server's 400 for a prompt longer
// than its context (llama.cpp: "request (12630 tokens) exceeds the
// available context size (8192 tokens)", exceed_context_size_error;
// OpenAI and vLLM: "This model's maximum context length is ...",
// context_length_exceeded).
func contextRefused(err error) bool {
	if statusOf(err) != http.StatusBadRequest {
		return false
	}
	msg := strings.ToLower(err.Error())
	var ae *openai.APIError
	if errors.As(err, &ae) {
		msg += " " + strings.ToLower(ae.Type+" "+fmt.Sprint(ae.Code))
	}
	return strings.Contains(msg, "context") &&
		(strings.Contains(msg, "exceed") || strings.Contains(msg, "maximum context length") || strings.Contains(msg, "too long"))
}

// tokenAnswer is a one-token answer and, when the endpoint returned them,
// the log-probabilities of the most likely tokens in its place.
type tokenAnswer struct {
	Text string
	// LogProbs is false when the endpoint returned none (it ignores or
	// refused the logprobs parameter).
	LogProbs bool
	// Token is the answer token and Top the most likely tokens.
	Token        string
	Top          []openai.TopLogProbs
	PromptTokens int
}

// topLogProbs is how many of the most likely tokens are asked for.
const topLogProbs = 20

// oneToken asks system+user for a one-token answer (max_tokens 1, seed 42,
// the client's temperature, no response_format) with the top 20
// log-probabilities. A server that answers 400 to logprobs is asked again
// without them, and so is every later question of this client. Errors:
// EINVALID wrapping ErrContextExceeded when the request does not fit the
// context (by the estimate, or as the server says); else as JSON.
func (c *Client) oneToken(ctx context.Context, system, user string) (tokenAnswer, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return tokenAnswer{}, ctx.Err()
	}
	defer func() { <-c.sem }()
	msgs := []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: system},
		{Role: openai.ChatMessageRoleUser, Content: user},
	}
	if err := c.guard(msgs); err != nil {
		c.failures.Add(1)
		return tokenAnswer{}, err
	}
	var a tokenAnswer
	err := c.withRetries(ctx, c.cfg.Model, func(actx context.Context) error {
		cr := openai.ChatCompletionRequest{Model: c.cfg.Model, Messages: msgs, Temperature: c.temperature(), MaxTokens: 1}
		seed := 42
		cr.Seed = &seed
		if !c.noLogProbs.Load() {
			cr.LogProbs, cr.TopLogProbs = true, topLogProbs
		}
		resp, err := c.api.CreateChatCompletion(actx, cr)
		if err != nil {
			if cr.LogProbs && statusOf(err) == http.StatusBadRequest && !contextRefused(err) &&
				strings.Contains(strings.ToLower(err.Error()), "logprobs") {
				c.noLogProbs.Store(true)
				return errStepDown
			}
			return err
		}
		c.ptok.Add(int64(resp.Usage.PromptTokens))
		c.ctok.Add(int64(resp.Usage.CompletionTokens))
		if len(resp.Choices) == 0 {
			return badAnswer("the answer had no choices")
		}
		ch := resp.Choices[0]
		a = tokenAnswer{Text: ch.Message.Content, PromptTokens: resp.Usage.PromptTokens}
		if ch.LogProbs != nil && len(ch.LogProbs.Content) > 0 {
			a.LogProbs, a.Token, a.Top = true, ch.LogProbs.Content[0].Token, ch.LogProbs.Content[0].TopLogProbs
		}
		return nil
	})
	switch {
	case err == nil:
		return a, nil
	case contextRefused(err):
		// Not counted as a failure: the caller asks again with less.
		return tokenAnswer{}, kgeval.Wrap(kgeval.EINVALID, ErrContextExceeded, "%v", err)
	case ctx.Err() == nil && !errors.Is(err, ErrNotCached):
		c.failures.Add(1)
	}
	return tokenAnswer{}, err
}

// errStepDown asks withRetries for an immediate attempt that does not count
// as a retry (the server refused a response format; the next is simpler).
var errStepDown = errors.New("step down the response format")

// badAnswer is an answer of the wrong shape (no choices, wrong vector
// count): worth another attempt, like a 5xx.
type badAnswer string

func (b badAnswer) Error() string { return string(b) }

// ErrNotCached is the cause of every request a CacheOnly client refuses.
var ErrNotCached = errors.New("not in the cache (--cache-only)")

// withRetries makes one API call per attempt through fn, at most
// 1 + MaxRetries attempts. Each attempt has its own timeout, is counted with
// its latency, and may read the server's Retry-After. Timeouts, transport
// errors, 429, 5xx and badAnswer are retried after a backoff; other errors
// end at once. A CacheOnly client makes no attempt. Errors: EUNAVAILABLE
// (wrapping ErrNotCached for a refused request), or the context's error.
func (c *Client) withRetries(ctx context.Context, model string, fn func(actx context.Context) error) error {
	if c.cfg.CacheOnly {
		c.refused.Add(1)
		return kgeval.Wrap(kgeval.EUNAVAILABLE, ErrNotCached, "model %s", model)
	}
	var lastErr error
	for try := 0; try <= c.cfg.MaxRetries; try++ {
		if try > 0 {
			c.retries.Add(1)
		}
		actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
		holder := &retryAfter{}
		start := time.Now()
		err := fn(context.WithValue(actx, retryAfterKey{}, holder))
		c.lat.Add(int64(time.Since(start)))
		cancel()
		// A call the caller abandoned (SIGINT) got no answer: it is counted
		// apart, so that Calls matches what the server answered.
		if ctx.Err() != nil && err != nil {
			c.cancelled.Add(1)
		} else {
			c.calls.Add(1)
		}
		switch {
		case err == nil:
			return nil
		case errors.Is(err, errStepDown):
			try--
			continue
		case ctx.Err() != nil:
			return ctx.Err()
		}
		lastErr = err
		var bad badAnswer
		if !errors.As(err, &bad) && !retryable(statusOf(err), err) {
			return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "model %s at %s", model, c.cfg.BaseURL)
		}
		if err := c.sleep(ctx, c.backoff(try, holder.get())); err != nil {
			return err
		}
	}
	return kgeval.Wrap(kgeval.EUNAVAILABLE, lastErr, "model %s at %s failed after %d retries", model, c.cfg.BaseURL, c.cfg.MaxRetries)
}

// backoff is the delay before retry try+1: the server's Retry-After when it
// gave one, else exponential with full jitter.
func (c *Client) backoff(try int, retryAfter time.Duration) time.Duration {
	if retryAfter > 0 {
		return retryAfter
	}
	d := c.cfg.BaseBackoff << try
	if d > 30*time.Second {
		d = 30 * time.Second
	}
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

func statusOf(err error) int {
	var ae *openai.APIError
	var re *openai.RequestError
	switch {
	case errors.As(err, &ae):
		return ae.HTTPStatusCode
	case errors.As(err, &re):
		return re.HTTPStatusCode
	}
	return 0
}

func retryable(status int, err error) bool {
	switch {
	case status == http.StatusTooManyRequests, status >= 500:
		return true
	case status == 0: // transport error: timeout, reset, refused, truncated body
		return true
	}
	return false
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// decode parses the model's answer, tolerating code fences and prose around
// one JSON object.
func decode(text string, out any) error {
	s := strings.TrimSpace(text)
	if s == "" {
		return errors.New("the answer was empty")
	}
	if err := json.Unmarshal([]byte(s), out); err == nil {
		return nil
	}
	if i, j := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}'); i >= 0 && j > i {
		if err := json.Unmarshal([]byte(s[i:j+1]), out); err == nil {
			return nil
		} else {
			return fmt.Errorf("the answer is not valid JSON: %v", err)
		}
	}
	return fmt.Errorf("the answer holds no JSON object: %q", truncate(s, 80))
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

type schema map[string]any

func (s schema) MarshalJSON() ([]byte, error) { return json.Marshal(map[string]any(s)) }

// retryAfterTransport records the Retry-After header of each response in the
// request's context, which go-openai does not expose.
type retryAfterTransport struct{ next http.RoundTripper }

type retryAfterKey struct{}

type retryAfter struct {
	mu sync.Mutex
	d  time.Duration
}

func (r *retryAfter) get() time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.d
}

func (t retryAfterTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err == nil {
		if h, ok := req.Context().Value(retryAfterKey{}).(*retryAfter); ok {
			if v := resp.Header.Get("Retry-After"); v != "" {
				h.mu.Lock()
				if secs, err := strconv.ParseFloat(v, 64); err == nil {
					h.d = time.Duration(secs * float64(time.Second))
				} else if at, err := http.ParseTime(v); err == nil {
					h.d = time.Until(at)
				}
				if h.d > 2*time.Minute {
					h.d = 2 * time.Minute
				}
				h.mu.Unlock()
			}
		}
	}
	return resp, err
}

// greedyTransport writes "temperature": 0 into every chat completion
// request whose JSON body has no temperature (go-openai drops a zero
// one), so that the server decodes greedily instead of sampling at its
// default temperature. TestGreedyDecoding checks the bundled server's
// answer against the argmax of its own logprobs.
type greedyTransport struct{ next http.RoundTripper }

func (t greedyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/chat/completions") || req.Body == nil {
		return t.next.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return nil, err
	}
	body = withZeroTemperature(body)
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return t.next.RoundTrip(r)
}

// withZeroTemperature returns a JSON object's body with "temperature": 0
// added when it has no top-level "temperature"; any other body unchanged.
func withZeroTemperature(body []byte) []byte {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil || top == nil {
		return body
	}
	if _, ok := top["temperature"]; ok {
		return body
	}
	i := bytes.IndexByte(body, '{')
	out := make([]byte, 0, len(body)+18)
	out = append(out, body[:i+1]...)
	out = append(out, `"temperature":0`...)
	if len(top) > 0 {
		out = append(out, ',')
	}
	return append(out, body[i+1:]...)
}

// Probe asks an OpenAI-compatible endpoint for its model list, within 5
// seconds: is it there, and does it take the key?
func Probe(ctx context.Context, baseURL, apiKey string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(baseURL, "/")+"/models", nil)
	if err != nil {
		return err
	}
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /models answered %s", resp.Status)
	}
	return nil
}
