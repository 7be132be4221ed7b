package llm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/llm"
)

func embeddings(n int) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Input []string }
		json.NewDecoder(r.Body).Decode(&req)
		data := []any{}
		for i := range req.Input[:min(n, len(req.Input))] {
			data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": []float32{3, 4}})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "usage": map[string]any{"prompt_tokens": 2}})
	}
}

// TestEmbedder_Faults checks retries and shape validation of the embeddings
// client against a fault-injecting server.
func TestEmbedder_Faults(t *testing.T) {
	t.Run("RetryThenNormalise", func(t *testing.T) {
		srv, n := faultServer(t, status(503, ""), embeddings(99))
		e := &llm.Embedder{Client: newClient(srv.URL), Model: "m"}
		v, err := e.Embed(context.Background(), []string{"a", "b"})
		if err != nil || len(v) != 2 || n.Load() != 2 {
			t.Fatalf("v %v err %v requests %d", v, err, n.Load())
		}
		if math.Abs(float64(v[0][0])-0.6) > 1e-6 || math.Abs(float64(v[0][1])-0.8) > 1e-6 {
			t.Errorf("not normalised: %v", v[0])
		}
	})
	t.Run("WrongCount", func(t *testing.T) {
		srv, _ := faultServer(t, embeddings(1))
		e := &llm.Embedder{Client: newClient(srv.URL), Model: "m"}
		if _, err := e.Embed(context.Background(), []string{"a", "b"}); kgeval.ErrorCode(err) != kgeval.EUNAVAILABLE {
			t.Errorf("err %v", err)
		}
	})
}

// TestCachedEmbedder stores vectors in the real Neo4j cache and serves them
// again without calling the model.
func TestCachedEmbedder(t *testing.T) {
	srv, n := faultServer(t, embeddings(99))
	cache := MustCache(t)
	inner := &llm.Embedder{Client: newClient(srv.URL), Model: fmt.Sprintf("cache-test-%d", n.Load()+int32(timeNow()))}
	e := &llm.CachedEmbedder{Next: inner, Cache: cache}
	ctx := context.Background()
	if _, err := e.Embed(ctx, []string{"erica vagans", "cornish heath", "erica vagans"}); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 1 || e.Misses != 2 {
		t.Fatalf("requests %d misses %d, want 1 request for 2 distinct texts", n.Load(), e.Misses)
	}
	v, err := e.Embed(ctx, []string{"cornish heath", "erica vagans"})
	if err != nil || n.Load() != 1 || e.Hits != 2 || math.Abs(float64(v[1][1])-0.8) > 1e-6 {
		t.Errorf("second call: err %v requests %d hits %d v %v", err, n.Load(), e.Hits, v)
	}
}

func timeNow() int64 { return int64(time.Now().UnixNano() % 1e9) }
