package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/llm"
)

// mustNotCall is a model server that fails the test when any request
// reaches it: a CacheOnly client must refuse before the endpoint.
func mustNotCall(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the model server was called: %s %s", r.Method, r.URL.Path)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func cacheOnlyClient(url string) *llm.Client {
	return llm.New(llm.Config{BaseURL: url + "/v1", Model: "m", Timeout: time.Second, MaxRetries: 3, MaxRepairs: 2,
		BaseBackoff: 10 * time.Millisecond, CacheOnly: true})
}

// TestClient_CacheOnly checks that a CacheOnly client refuses chat and
// embedding requests at once (no retry, no request on the wire), with
// EUNAVAILABLE "not in the cache (--cache-only)", counted as refused and
// not as calls or failures; and that an Extractor over it still serves the
// answers its cache holds.
func TestClient_CacheOnly(t *testing.T) {
	wantRefused := func(t *testing.T, err error) {
		t.Helper()
		if kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE || !errors.Is(err, llm.ErrNotCached) ||
			!strings.Contains(err.Error(), "not in the cache (--cache-only)") {
			t.Errorf("err = %v (%s), want EUNAVAILABLE not in the cache (--cache-only)", err, kgeval.ErrorCode(err))
		}
	}
	t.Run("Chat", func(t *testing.T) {
		c := cacheOnlyClient(mustNotCall(t).URL)
		start := time.Now()
		_, err := call(c)
		wantRefused(t, err)
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("refusal took %s: it must not wait for retries", d)
		}
		st := c.Stats()
		if st.Calls != 0 || st.Failures != 0 || st.Retries != 0 || st.Repairs != 0 || st.Refused != 1 {
			t.Errorf("stats %+v, want 1 refused and nothing else", st)
		}
	})
	t.Run("Embeddings", func(t *testing.T) {
		c := cacheOnlyClient(mustNotCall(t).URL)
		e := &llm.Embedder{Client: c, Model: "m", BatchSize: 2}
		_, err := e.Embed(context.Background(), []string{"a", "b", "c"})
		wantRefused(t, err)
		if st := c.Stats(); st.Calls != 0 || st.Failures != 0 || st.Refused != 1 {
			t.Errorf("stats %+v, want 1 refused (the first batch) and nothing else", st)
		}
	})
	t.Run("ExtractorServesCachedAnswers", func(t *testing.T) {
		c := cacheOnlyClient(mustNotCall(t).URL)
		cache := MustCache(t)
		x := &llm.Extractor{Client: c, Cache: cache, MaxLabelChars: 256}
		nonce := fmt.Sprintf("[cache-only test %d]", time.Now().UnixNano())
		cachedItem := llm.ExtractItem{Text: "Erica vagans is also called Cornish heath. " + nonce}
		missing := llm.ExtractItem{Text: "The Eiffel Tower stands in Paris. " + nonce}
		keys := []string{x.Key(cachedItem), x.Key(missing)}
		t.Cleanup(func() { _ = cache.Delete(context.Background(), keys) })
		b, _ := json.Marshal(map[string]any{"triplets": []kgeval.Triplet{{Subject: "Erica vagans", Relation: "is also called", Object: "Cornish heath"}}})
		if err := cache.Put(context.Background(), map[string][]byte{keys[0]: b}); err != nil {
			t.Fatal(err)
		}
		res, err := x.Extract(context.Background(), []kgeval.ExtractRequest{{Text: cachedItem.Text}, {Text: missing.Text}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Err != nil || !res[0].Cached || len(res[0].Triplets) != 1 {
			t.Errorf("cached item: %+v", res[0])
		}
		wantRefused(t, res[1].Err)
		if st := c.Stats(); st.Calls != 0 || st.CacheHits != 1 || st.Refused != 1 {
			t.Errorf("stats %+v, want 0 calls, 1 cache hit, 1 refused", st)
		}
	})
}
