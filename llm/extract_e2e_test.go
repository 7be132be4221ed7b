package llm_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/graphstore/graphstoretest"
	"github.com/kgeval/kgeval/llm"
)

// MustLocalLLM returns a client for the local model server `make test`
// starts (KGEVAL_LLM_BASE_URL, KGEVAL_LLM_MODEL). It fails, never skips,
// when the server is not there.
func MustLocalLLM(tb testing.TB) *llm.Client {
	tb.Helper()
	base, model := os.Getenv("KGEVAL_LLM_BASE_URL"), os.Getenv("KGEVAL_LLM_MODEL")
	if base == "" || model == "" {
		tb.Fatal("KGEVAL_LLM_BASE_URL and KGEVAL_LLM_MODEL are not set: run `make test`, which starts the local model server")
	}
	return llm.New(llm.Config{BaseURL: base, Model: model, Timeout: 5 * time.Minute, MaxRetries: 2, MaxRepairs: 2, Concurrency: 1})
}

// MustCache opens the Neo4j-backed cache of the Neo4j `make test` started.
func MustCache(tb testing.TB) *graphstore.Cache {
	return &graphstore.Cache{DB: graphstoretest.MustOpenDB(tb)}
}

// TestExtractor_EndToEnd extracts triplets from real WikiEval records with
// the local model, caches them in Neo4j, and checks that a second run makes
// no model call. A plumbing test: it checks the answers' shape, the bounded
// retries and the cache, not which triplets a 1.5B model extracts (that
// quality lives in `make validity` and `make factcheck`).
func TestExtractor_EndToEnd(t *testing.T) {
	res, err := dataset.Load(filepath.Join("..", "testdata", "wikieval.jsonl"), dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	client := MustLocalLLM(t)
	cache := MustCache(t)
	// A run-unique suffix keeps this test's texts out of earlier runs' cache
	// entries, so the first pass really calls the model.
	nonce := fmt.Sprintf(" [test %d]", time.Now().UnixNano())
	var items []kgeval.ExtractRequest
	// One sample keeps the test within CI's time on 2 CPU cores: its
	// question, its answer (with the question as context) and the start of
	// its first passage.
	for _, s := range res.Samples[:1] {
		items = append(items,
			kgeval.ExtractRequest{Text: s.Question + nonce},
			kgeval.ExtractRequest{Text: s.Answer + nonce, Question: s.Question},
			kgeval.ExtractRequest{Text: s.Contexts[0][:min(len(s.Contexts[0]), 400)] + nonce},
		)
	}
	items = append(items, items[0]) // a duplicate text is extracted once
	ex := &llm.Extractor{Client: client, Cache: cache, MaxLabelChars: 256}
	ctx := context.Background()

	first, err := ex.Extract(ctx, items, nil)
	if err != nil {
		t.Fatal(err)
	}
	s1 := client.Stats()
	total := 0
	for i, r := range first {
		if r.Err != nil {
			t.Errorf("item %d: %v", i, r.Err)
			continue
		}
		total += len(r.Triplets)
		for _, tr := range r.Triplets {
			if tr.Subject == "" || tr.Relation == "" || tr.Object == "" {
				t.Errorf("item %d: empty field in %+v", i, tr)
			}
		}
	}
	t.Logf("first run: %d items, %d distinct, %d triplets; calls %d, retries %d, repairs %d, tokens %d+%d, %v",
		len(items), len(items)-1, total, s1.Calls, s1.Retries, s1.Repairs, s1.PromptTokens, s1.CompletionTokens, s1.Latency.Round(time.Millisecond))
	if total == 0 {
		t.Fatalf("the local model extracted no triplet at all: %+v", first)
	}
	if s1.Calls < int64(len(items)-1) {
		t.Errorf("calls %d < %d distinct texts", s1.Calls, len(items)-1)
	}
	if s1.Calls > int64(len(items)-1)*3 {
		t.Errorf("calls %d: more than the bounded retries allow", s1.Calls)
	}
	if len(first[len(first)-1].Triplets) != len(first[0].Triplets) {
		t.Errorf("duplicate item got a different result")
	}

	second, err := ex.Extract(ctx, items, nil)
	if err != nil {
		t.Fatal(err)
	}
	s2 := client.Stats()
	if s2.Calls != s1.Calls {
		t.Errorf("second run made %d model calls, want 0", s2.Calls-s1.Calls)
	}
	hits := 0
	for i, r := range second {
		if first[i].Err == nil {
			if !r.Cached || len(r.Triplets) != len(first[i].Triplets) {
				t.Errorf("item %d: cached %v, %d triplets (first run %d)", i, r.Cached, len(r.Triplets), len(first[i].Triplets))
			}
			hits++
		}
	}
	t.Logf("second run: 0 model calls, %d items from the cache", hits)
}

// TestEmbedder_EndToEnd embeds labels through the local server's
// OpenAI-compatible /v1/embeddings endpoint, then serves them again from the
// Neo4j cache without a call. A plumbing test: unit length and identical
// vectors for identical texts, not what the vectors mean.
func TestEmbedder_EndToEnd(t *testing.T) {
	client := MustLocalLLM(t)
	e := &llm.Embedder{Client: client, Model: client.Model()}
	ctx := context.Background()
	labels := []string{"erica vagans", "cornish heath", "erica vagans", fmt.Sprintf("label %d", time.Now().UnixNano())}
	v, err := e.Embed(ctx, labels)
	if err != nil {
		t.Fatal(err)
	}
	if len(v) != 4 || len(v[0]) == 0 || len(v[0]) != len(v[1]) {
		t.Fatalf("got %d vectors of %d dimensions", len(v), len(v[0]))
	}
	var norm, same float64
	for i := range v[0] {
		norm += float64(v[0][i]) * float64(v[0][i])
		same += float64(v[0][i]) * float64(v[2][i])
	}
	if norm < 0.999 || norm > 1.001 || same < 0.999 {
		t.Errorf("|v| = %.4f, cos(same text) = %.4f: want 1 and 1", norm, same)
	}
	cached := &llm.CachedEmbedder{Next: e, Cache: MustCache(t)}
	calls := client.Stats().Calls
	if _, err := cached.Embed(ctx, labels); err != nil {
		t.Fatal(err)
	}
	if _, err := cached.Embed(ctx, labels); err != nil {
		t.Fatal(err)
	}
	if n := client.Stats().Calls - calls; n > 1 {
		t.Errorf("%d calls for two cached passes, want at most 1", n)
	}
	t.Logf("%d-dimensional vectors from %s; cache hits %d, misses %d", len(v[0]), client.Endpoint(), cached.Hits, cached.Misses)
}
