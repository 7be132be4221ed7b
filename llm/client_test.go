package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/llm"
)

// faultServer answers chat completions from a script: step i of the script
// handles the i-th request (the last step repeats).
func faultServer(t *testing.T, steps ...func(w http.ResponseWriter, r *http.Request)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(n.Add(1)) - 1
		if i >= len(steps) {
			i = len(steps) - 1
		}
		steps[i](w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func answer(content string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"id": "x", "object": "chat.completion", "model": "m",
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": content}, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
		})
	}
}

func status(code int, retryAfter string) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		fmt.Fprintf(w, `{"error": {"message": "status %d", "type": "server_error"}}`, code)
	}
}

const good = `{"triplets": [{"subject": "Erica vagans", "relation": "is also called", "object": "Cornish heath"}]}`

type out struct {
	Triplets []kgeval.Triplet `json:"triplets"`
}

func newClient(url string) *llm.Client {
	return llm.New(llm.Config{BaseURL: url + "/v1", Model: "m", Timeout: 500 * time.Millisecond, MaxRetries: 3, MaxRepairs: 2, BaseBackoff: 10 * time.Millisecond})
}

func call(c *llm.Client) (out, error) {
	var o out
	err := c.JSON(context.Background(), llm.Request{System: "s", User: "u", SchemaName: "t", Schema: map[string]any{"type": "object"}}, &o, func() error {
		if len(o.Triplets) == 0 {
			return errors.New("no triplets")
		}
		return nil
	})
	return o, err
}

func TestClient_JSON(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		var maxTokens float64
		srv, n := faultServer(t, func(w http.ResponseWriter, r *http.Request) {
			var body map[string]any
			json.NewDecoder(r.Body).Decode(&body)
			maxTokens, _ = body["max_tokens"].(float64)
			answer(good)(w, r)
		})
		c := newClient(srv.URL)
		o, err := call(c)
		if err != nil || len(o.Triplets) != 1 || n.Load() != 1 {
			t.Fatalf("o %+v err %v requests %d", o, err, n.Load())
		}
		if s := c.Stats(); s.Calls != 1 || s.PromptTokens != 10 || s.CompletionTokens != 5 || s.Retries != 0 {
			t.Errorf("stats %+v", s)
		}
		if maxTokens != 1024 {
			t.Errorf("max_tokens sent = %v, want the default 1024", maxTokens)
		}
	})
	t.Run("429RetryAfter", func(t *testing.T) {
		srv, n := faultServer(t, status(429, "1"), answer(good))
		c := newClient(srv.URL)
		start := time.Now()
		if _, err := call(c); err != nil {
			t.Fatal(err)
		}
		if el := time.Since(start); el < 900*time.Millisecond {
			t.Errorf("retried after %v, want the server's Retry-After of 1s", el)
		}
		if n.Load() != 2 || c.Stats().Retries != 1 {
			t.Errorf("requests %d retries %d, want 2 and 1", n.Load(), c.Stats().Retries)
		}
	})
	t.Run("500ThenOK", func(t *testing.T) {
		srv, n := faultServer(t, status(500, ""), status(503, ""), answer(good))
		c := newClient(srv.URL)
		if _, err := call(c); err != nil || n.Load() != 3 || c.Stats().Retries != 2 {
			t.Errorf("err %v requests %d retries %d", err, n.Load(), c.Stats().Retries)
		}
	})
	t.Run("500Forever", func(t *testing.T) {
		srv, n := faultServer(t, status(500, ""))
		c := newClient(srv.URL)
		_, err := call(c)
		if kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE || n.Load() != 4 {
			t.Errorf("err %v (%s) requests %d, want EUNAVAILABLE after 1+3 requests", err, kgeval.ErrorCode(err), n.Load())
		}
	})
	t.Run("Hang", func(t *testing.T) {
		srv, n := faultServer(t, func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		})
		c := newClient(srv.URL)
		start := time.Now()
		_, err := call(c)
		if kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE || n.Load() != 4 {
			t.Errorf("err %v requests %d, want EUNAVAILABLE after 4 timed-out requests", err, n.Load())
		}
		if el := time.Since(start); el > 4*time.Second {
			t.Errorf("took %v: timeouts not enforced", el)
		}
	})
	t.Run("TruncatedJSONRepaired", func(t *testing.T) {
		srv, n := faultServer(t, answer(good[:40]), answer(good))
		c := newClient(srv.URL)
		if o, err := call(c); err != nil || len(o.Triplets) != 1 || n.Load() != 2 || c.Stats().Repairs != 1 {
			t.Errorf("o %+v err %v requests %d repairs %d", o, err, n.Load(), c.Stats().Repairs)
		}
	})
	t.Run("ProseForever", func(t *testing.T) {
		srv, n := faultServer(t, answer("Sure! Erica vagans is also called Cornish heath."))
		c := newClient(srv.URL)
		_, err := call(c)
		if kgeval.ErrorCode(err) != kgeval.EINVALID || n.Load() != 3 || !strings.Contains(err.Error(), "no JSON") {
			t.Errorf("err %v requests %d, want EINVALID after 3 attempts", err, n.Load())
		}
		if c.Stats().Failures != 1 {
			t.Errorf("failures %d", c.Stats().Failures)
		}
	})
	t.Run("FencedJSON", func(t *testing.T) {
		srv, _ := faultServer(t, answer("Here you go:\n```json\n"+good+"\n```"))
		if o, err := call(newClient(srv.URL)); err != nil || len(o.Triplets) != 1 {
			t.Errorf("o %+v err %v", o, err)
		}
	})
	t.Run("EmptyChoices", func(t *testing.T) {
		srv, n := faultServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"id":"x","object":"chat.completion","choices":[],"usage":{"prompt_tokens":3}}`)
		}, answer(good))
		if _, err := call(newClient(srv.URL)); err != nil || n.Load() != 2 {
			t.Errorf("err %v requests %d", err, n.Load())
		}
	})
	t.Run("TruncatedBody", func(t *testing.T) {
		srv, n := faultServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "500")
			fmt.Fprint(w, `{"id":"x","choices":[{"message":{"content":"{\"tri`)
		}, answer(good))
		if _, err := call(newClient(srv.URL)); err != nil || n.Load() != 2 {
			t.Errorf("err %v requests %d", err, n.Load())
		}
	})
	t.Run("ResponseFormatUnsupported", func(t *testing.T) {
		var formats []string
		srv, _ := faultServer(t, func(w http.ResponseWriter, r *http.Request) {
			var body struct {
				ResponseFormat *struct{ Type string } `json:"response_format"`
			}
			json.NewDecoder(r.Body).Decode(&body)
			if body.ResponseFormat != nil {
				formats = append(formats, body.ResponseFormat.Type)
				status(400, "")(w, r)
				w.Write([]byte("response_format not supported"))
				return
			}
			formats = append(formats, "none")
			answer(good)(w, r)
		})
		if _, err := call(newClient(srv.URL)); err != nil {
			t.Fatal(err)
		}
		if strings.Join(formats, ",") != "json_schema,json_object,none" {
			t.Errorf("formats tried %v", formats)
		}
	})
	t.Run("Unreachable", func(t *testing.T) {
		c := newClient("http://127.0.0.1:1")
		if _, err := call(c); kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE {
			t.Errorf("err %v", err)
		}
	})
}
