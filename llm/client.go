// Package llm talks to any OpenAI-compatible endpoint (OpenAI, Azure OpenAI,
// Ollama, vLLM, a llama.cpp server) through github.com/sashabaranov/go-openai.
// It asks for JSON (json_schema, else json_object, else plain text, as the
// server allows), validates every answer, repairs or retries malformed output
// a bounded number of times, retries timeouts, 429 (honouring Retry-After)
// and 5xx with jittered backoff, bounds concurrency, and counts every call.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
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
}

// Client is an OpenAI-compatible chat client. It is safe for concurrent use.
type Client struct {
	cfg    Config
	api    *openai.Client
	sem    chan struct{}
	format atomic.Int32 // 0 json_schema, 1 json_object, 2 none: what the server accepted

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
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	oc.HTTPClient = &http.Client{Transport: retryAfterTransport{http.DefaultTransport}}
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

// complete makes one chat completion with transport retries.
func (c *Client) complete(ctx context.Context, msgs []openai.ChatCompletionMessage, req Request) (string, error) {
	var text string
	err := c.withRetries(ctx, c.cfg.Model, func(actx context.Context) error {
		// go-openai leaves a zero temperature out of the request (omitempty)
		// and servers then use their default (llama.cpp: 0.8): send the
		// smallest positive float32 instead, which samples greedily.
		temp := c.cfg.Temperature
		if temp == 0 {
			temp = math.SmallestNonzeroFloat32
		}
		cr := openai.ChatCompletionRequest{Model: c.cfg.Model, Messages: msgs, Temperature: temp, MaxTokens: c.cfg.MaxTokens, PresencePenalty: req.PresencePenalty}
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
