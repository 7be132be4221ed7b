package llm

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/kgeval/kgeval"
)

//go:embed prompts/*.txt
var prompts embed.FS

// ExtractPromptVersion is the version of the triplet-extraction prompt; it is
// part of every cache key, so a new prompt never reuses old answers.
const ExtractPromptVersion = "extract_triplets.v2"

// Prompt returns the prompt file name (without .txt).
func Prompt(name string) (string, error) {
	b, err := prompts.ReadFile("prompts/" + name + ".txt")
	if err != nil {
		return "", fmt.Errorf("prompt %s: %w", name, err)
	}
	return string(b), nil
}

// ExtractItem is one text to extract triplets from. Question is shown as
// context for answers and references (SPEC §2), and is part of the key.
type ExtractItem struct {
	Text     string
	Question string
}

// ExtractResult is the outcome for one item.
type ExtractResult struct {
	Triplets []kgeval.Triplet
	Cached   bool
	Err      error
}

// Extractor extracts triplets with an LLM, caching every answer by (model,
// prompt version, question, text) so that no text is ever sent twice.
type Extractor struct {
	Client *Client
	Cache  kgeval.Cache
	// MaxLabelChars caps subject, relation and object (SPEC §2).
	MaxLabelChars int
}

// Key returns the cache key of item.
func (e *Extractor) Key(item ExtractItem) string {
	h := sha256.New()
	for _, s := range []string{e.Client.Model(), ExtractPromptVersion, item.Question, item.Text} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return "extract:" + hex.EncodeToString(h.Sum(nil))
}

type tripletAnswer struct {
	Triplets []kgeval.Triplet `json:"triplets"`
}

var tripletSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"triplets": map[string]any{
			"type":     "array",
			"maxItems": 30, // grammar-enforced on llama.cpp: bounds the answer's length
			"items": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"subject":  map[string]any{"type": "string"},
					"relation": map[string]any{"type": "string"},
					"object":   map[string]any{"type": "string"},
				},
				"required":             []string{"subject", "relation", "object"},
				"additionalProperties": false,
			},
		},
	},
	"required":             []string{"triplets"},
	"additionalProperties": false,
}

// ExtractAll extracts the triplets of every item. Identical items are sent
// once; cached items are not sent; every fresh answer is cached as soon as it
// arrives, so an interrupted run loses nothing. progress, if not nil, is
// called after each item. Per-item failures are in the results, not the
// error; the error is for the cache being unreachable.
func (e *Extractor) ExtractAll(ctx context.Context, items []ExtractItem, progress func(done, total int)) ([]ExtractResult, error) {
	system, err := Prompt(ExtractPromptVersion)
	if err != nil {
		return nil, err
	}
	out := make([]ExtractResult, len(items))
	byKey := map[string][]int{}
	var keys []string
	for i, it := range items {
		if strings.TrimSpace(it.Text) == "" {
			out[i] = ExtractResult{Triplets: []kgeval.Triplet{}}
			continue
		}
		k := e.Key(it)
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], i)
	}
	cached, err := e.Cache.Get(ctx, keys)
	if err != nil {
		return nil, err
	}
	done := 0
	var mu sync.Mutex
	finish := func(k string, r ExtractResult) {
		mu.Lock()
		defer mu.Unlock()
		for _, i := range byKey[k] {
			out[i] = r
		}
		if r.Err != nil && ctx.Err() != nil {
			return // abandoned (interrupted), not done
		}
		done++
		if progress != nil {
			progress(done, len(keys))
		}
	}
	var pending []string
	for _, k := range keys {
		if b, ok := cached[k]; ok {
			var a tripletAnswer
			if err := json.Unmarshal(b, &a); err == nil {
				e.Client.CountCacheHit(1)
				finish(k, ExtractResult{Triplets: a.Triplets, Cached: true})
				continue
			}
		}
		pending = append(pending, k)
	}
	var wg sync.WaitGroup
	var cacheErr error
	for _, k := range pending {
		it := items[byKey[k][0]]
		wg.Add(1)
		go func() {
			defer wg.Done()
			triplets, err := e.extract(ctx, system, it)
			if err == nil {
				b, _ := json.Marshal(tripletAnswer{Triplets: triplets})
				if perr := e.Cache.Put(ctx, map[string][]byte{k: b}); perr != nil {
					mu.Lock()
					cacheErr = perr
					mu.Unlock()
				}
			}
			finish(k, ExtractResult{Triplets: triplets, Err: err})
		}()
	}
	wg.Wait()
	if cacheErr != nil {
		return out, cacheErr
	}
	return out, ctx.Err()
}

func (e *Extractor) extract(ctx context.Context, system string, it ExtractItem) ([]kgeval.Triplet, error) {
	user := "TEXT:\n" + it.Text
	if it.Question != "" {
		user = "QUESTION (context only; extract facts of the TEXT):\n" + it.Question + "\n\n" + user
	}
	var a tripletAnswer
	err := e.Client.JSON(ctx, Request{System: system, User: user, SchemaName: "triplets", Schema: tripletSchema}, &a, func() error {
		if a.Triplets == nil {
			return errors.New(`missing "triplets" list`)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	cleaned, _ := kgeval.CleanTriplets(a.Triplets, e.MaxLabelChars)
	return cleaned, nil
}
