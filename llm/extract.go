package llm

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
)

//go:embed prompts/*.txt
var prompts embed.FS

// ExtractPromptVersion is the version of the triplet-extraction prompt, and
// AskedPromptVersion that of the question prompt (asked facts, SPEC §4c);
// each is part of every cache key, so a new prompt never reuses old answers.
const (
	ExtractPromptVersion = "extract_triplets.v4"
	AskedPromptVersion   = "extract_asked_facts.v2"
)

// PromptVersions returns the version of every prompt the Extractor sends;
// cache snapshots record them (an answer to another version is never hit).
func PromptVersions() []string { return []string{ExtractPromptVersion, AskedPromptVersion} }

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
// Asked marks a question: it is extracted as the facts it asks for, each
// with the slot "?" for its unknown part (SPEC §4c), and never windowed.
type ExtractItem struct {
	Text     string
	Question string
	Asked    bool
	// Preceding is set on a window after the first: the text's first
	// sentence and the sentence before the window, shown to resolve "it"
	// and "the mission" (not extracted). Part of the key.
	Preceding string
}

var _ kgeval.Extractor = (*Extractor)(nil)

// Extractor extracts triplets with an LLM, caching every answer by (model,
// prompt version, question, text) so that no text is ever sent twice. A text
// longer than WindowChars is sent in windows of whole sentences (SPEC §2b),
// each cached on its own; its triplets keep their window's span.
type Extractor struct {
	Client *Client
	Cache  kgeval.Cache
	// MaxLabelChars caps subject, relation and object (SPEC §2).
	MaxLabelChars int
	// WindowChars is the window size in characters (0: whole texts).
	WindowChars int
}

// Key returns the cache key of item (one window's text, or a whole text).
func (e *Extractor) Key(item ExtractItem) string {
	version := ExtractPromptVersion
	if item.Asked {
		version = AskedPromptVersion
	}
	parts := []string{e.Client.Model(), version, item.Question, item.Text}
	if item.Preceding != "" {
		parts = append(parts, item.Preceding)
	}
	return CacheKey("extract:", parts...)
}

// presencePenalty is sent with every extraction request: with greedy
// decoding the bundled 1.5B model repeated one triplet until max_tokens on
// a WikiEval window (30 copies, 115 s); 0.5 gave 7 distinct triplets.
const presencePenalty = 0.5

type tripletAnswer struct {
	Triplets []kgeval.Triplet `json:"triplets"`
}

// tripletSchema asks for triplets as arrays of three strings: half the
// tokens of {"subject":..} objects, and decoding is what a small local
// model spends its time on (v4: 157 tokens for a window that took 305).
var tripletSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"triplets": map[string]any{
			"type":     "array",
			"maxItems": 30, // grammar-enforced on llama.cpp: bounds the answer's length
			"items": map[string]any{
				"type":     "array",
				"items":    map[string]any{"type": "string"},
				"minItems": 3,
				"maxItems": 3,
			},
		},
	},
	"required":             []string{"triplets"},
	"additionalProperties": false,
}

// rawAnswer is the model's answer: triplets as [subject, relation, object].
type rawAnswer struct {
	Triplets [][]string `json:"triplets"`
}

// window is one model request: a window of an item's text.
type window struct {
	item       ExtractItem // Text is the window's text
	start, end int         // span in the item's text
}

// windows splits an item into the requests it needs.
func (e *Extractor) windows(it ExtractItem) []window {
	if it.Asked {
		return []window{{it, 0, len(it.Text)}}
	}
	var out []window
	var sentences []lexical.Span
	for i, sp := range lexical.Windows(it.Text, e.WindowChars) {
		w := it
		w.Text = strings.TrimSpace(it.Text[sp.Start:sp.End])
		if w.Text == "" {
			continue
		}
		if i > 0 {
			if sentences == nil {
				sentences = lexical.Sentences(it.Text)
			}
			w.Preceding = preceding(it.Text, sentences, sp.Start)
		}
		out = append(out, window{w, sp.Start, sp.End})
	}
	return out
}

// preceding returns the first sentence of text and the sentence that ends
// at start (when it is another one), each capped at 300 characters.
func preceding(text string, sentences []lexical.Span, start int) string {
	capped := func(sp lexical.Span) string {
		s := strings.TrimSpace(text[sp.Start:sp.End])
		if r := []rune(s); len(r) > 300 {
			s = string(r[:300]) + "…"
		}
		return s
	}
	var parts []string
	for i, sp := range sentences {
		if sp.End > start {
			break
		}
		if i == 0 {
			parts = append(parts, capped(sp))
		} else if sp.End == start {
			parts = append(parts, "…", capped(sp))
		}
	}
	return strings.Join(parts, " ")
}

// Extract extracts the triplets of every request (kgeval.Extractor).
// Identical windows are sent
// once; cached windows are not sent; every fresh answer is cached as soon as
// it arrives, so an interrupted run loses nothing. progress, if not nil, is
// called after each window. An item fails when one of its windows fails
// (the others stay cached). Per-item failures are in the results, not the
// error; the error is for the cache being unreachable.
func (e *Extractor) Extract(ctx context.Context, reqs []kgeval.ExtractRequest, progress func(done, total int)) ([]kgeval.Extraction, error) {
	items := make([]ExtractItem, len(reqs))
	for i, r := range reqs {
		items[i] = ExtractItem{Text: r.Text, Question: r.Question, Asked: r.Asked}
	}
	prompts, err := extractPrompts()
	if err != nil {
		return nil, err
	}
	out := make([]kgeval.Extraction, len(items))
	plan := e.plan(items)
	for i, it := range items {
		if strings.TrimSpace(it.Text) == "" {
			out[i] = kgeval.Extraction{Triplets: []kgeval.Triplet{}}
		}
	}
	// The total is the windows to ask, known only now: a long text is
	// asked in several.
	if progress != nil {
		progress(0, len(plan.keys))
	}
	answers, cacheErr, err := e.answer(ctx, plan, prompts, progress)
	if err != nil {
		return nil, err
	}
	for i, ws := range plan.itemWins {
		if ws != nil {
			out[i] = e.assemble(ws, plan.itemKeys[i], answers)
		}
	}
	if cacheErr != nil {
		return out, cacheErr
	}
	return out, ctx.Err()
}

// extractPrompts returns the system prompts of the extraction, by whether
// the text is a question.
func extractPrompts() (map[bool]string, error) {
	prompts := map[bool]string{}
	for _, asked := range []bool{false, true} {
		v := ExtractPromptVersion
		if asked {
			v = AskedPromptVersion
		}
		p, err := Prompt(v)
		if err != nil {
			return nil, err
		}
		prompts[asked] = p
	}
	return prompts, nil
}

// extractPlan is the windows of a batch of items and their cache keys.
type extractPlan struct {
	itemWins [][]window        // each item's windows (nil for a blank text)
	itemKeys [][]string        // the cache key of each of them
	first    map[string]window // the first window of each key
	keys     []string          // the distinct keys, in order: the windows to ask
}

// plan splits items into windows; identical windows share a key and are
// asked once.
func (e *Extractor) plan(items []ExtractItem) extractPlan {
	p := extractPlan{itemWins: make([][]window, len(items)), itemKeys: make([][]string, len(items)), first: map[string]window{}}
	for i, it := range items {
		if strings.TrimSpace(it.Text) == "" {
			continue
		}
		p.itemWins[i] = e.windows(it)
		for _, w := range p.itemWins[i] {
			k := e.Key(w.item)
			if _, ok := p.first[k]; !ok {
				p.first[k] = w
				p.keys = append(p.keys, k)
			}
			p.itemKeys[i] = append(p.itemKeys[i], k)
		}
	}
	return p
}

// windowAnswer is the model's answer for one window.
type windowAnswer struct {
	triplets []kgeval.Triplet
	cached   bool
	err      error
}

// answer returns the answer for every key of plan: from the cache, else
// from the model, each fresh answer cached as it arrives. cacheErr is the
// last failure to cache an answer; err is the cache's failure to read.
func (e *Extractor) answer(ctx context.Context, plan extractPlan, prompts map[bool]string, progress func(done, total int)) (answers map[string]windowAnswer, cacheErr, err error) {
	cached, err := e.Cache.Get(ctx, plan.keys)
	if err != nil {
		return nil, nil, err
	}
	answers = make(map[string]windowAnswer, len(plan.keys))
	done := 0
	var mu sync.Mutex
	finish := func(k string, a windowAnswer) {
		mu.Lock()
		defer mu.Unlock()
		answers[k] = a
		if a.err != nil && ctx.Err() != nil {
			return // abandoned (interrupted), not done
		}
		done++
		if progress != nil {
			progress(done, len(plan.keys))
		}
	}
	var pending []string
	for _, k := range plan.keys {
		if b, ok := cached[k]; ok {
			var a tripletAnswer
			if err := json.Unmarshal(b, &a); err == nil {
				e.Client.CountCacheHit(1)
				finish(k, windowAnswer{triplets: a.Triplets, cached: true})
				continue
			}
		}
		pending = append(pending, k)
	}
	var wg sync.WaitGroup
	for _, k := range pending {
		w := plan.first[k]
		wg.Add(1)
		go func() {
			defer wg.Done()
			triplets, err := e.extract(ctx, prompts[w.item.Asked], w.item)
			if err == nil {
				b, _ := json.Marshal(tripletAnswer{Triplets: triplets})
				if perr := e.Cache.Put(ctx, map[string][]byte{k: b}); perr != nil {
					mu.Lock()
					cacheErr = perr
					mu.Unlock()
				}
			}
			finish(k, windowAnswer{triplets: triplets, err: err})
		}()
	}
	wg.Wait()
	return answers, cacheErr, nil
}

// assemble returns an item's extraction from the answers for its windows
// ws (keys: their cache keys): spans set, duplicates across windows counted
// once, failed when one window failed.
func (e *Extractor) assemble(ws []window, keys []string, answers map[string]windowAnswer) kgeval.Extraction {
	r := kgeval.Extraction{Cached: true}
	var all []kgeval.Triplet
	for j, w := range ws {
		a := answers[keys[j]]
		if a.err != nil {
			if len(ws) > 1 {
				a.err = fmt.Errorf("window %d of %d (characters %d-%d): %w", j+1, len(ws), w.start, w.end, a.err)
			}
			r.Err = a.err
			break
		}
		r.Cached = r.Cached && a.cached
		for _, t := range a.triplets {
			if len(ws) > 1 || !w.item.Asked {
				t.Start, t.End = w.start, w.end
			}
			all = append(all, t)
		}
	}
	if r.Err == nil {
		r.Triplets, _ = kgeval.CleanTriplets(all, e.MaxLabelChars)
	}
	return r
}

func (e *Extractor) extract(ctx context.Context, system string, it ExtractItem) ([]kgeval.Triplet, error) {
	user := "TEXT:\n" + it.Text
	if it.Preceding != "" {
		user = "PRECEDING TEXT (context only: it tells who \"it\", \"he\", \"the mission\" are; extract nothing from it):\n" + it.Preceding + "\n\n" + user
	}
	if it.Asked {
		user = "QUESTION:\n" + it.Text
	} else if it.Question != "" {
		user = "QUESTION (context only; extract facts of the TEXT):\n" + it.Question + "\n\n" + user
	}
	var a rawAnswer
	err := e.Client.JSON(ctx, Request{System: system, User: user, SchemaName: "triplets", Schema: tripletSchema, PresencePenalty: presencePenalty}, &a, func() error {
		if a.Triplets == nil {
			return errors.New(`missing "triplets" list`)
		}
		for i, t := range a.Triplets {
			if len(t) != 3 {
				return fmt.Errorf("triplet %d has %d parts, want [subject, relation, object]", i+1, len(t))
			}
		}
		if it.Asked && len(a.Triplets) == 0 {
			return errors.New(`a question asks for at least one fact: give at least one triplet`)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	ts := make([]kgeval.Triplet, len(a.Triplets))
	for i, t := range a.Triplets {
		ts[i] = kgeval.Triplet{Subject: t[0], Relation: t[1], Object: t[2]}
	}
	cleaned, _ := kgeval.CleanTriplets(ts, e.MaxLabelChars)
	return cleaned, nil
}
