package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
)

// SplitPromptVersion is the version of the question that splits a claim
// into atomic facts (scoring.atomic_words); it is part of every cache key.
const SplitPromptVersion = "split_claim.v1"

// ClaimPromptVersions are the versions of the claim questions: each
// form's, then the split's (a cache snapshot's header lists them).
func ClaimPromptVersions() []string {
	var out []string
	for _, f := range Forms {
		if v := formVersion[f]; !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return append(out, SplitPromptVersion)
}

// maxAtoms bounds the atomic facts of one claim (grammar-enforced on
// llama.cpp, so the answer stays short).
const maxAtoms = 6

var atomSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"facts": map[string]any{"type": "array", "maxItems": maxAtoms, "items": map[string]any{"type": "string"}},
	},
	"required":             []string{"facts"},
	"additionalProperties": false,
}

// AtomicVerifier splits each claim of at least Words words into atomic
// facts (one request per claim, cached), asks Inner about each fact with
// the claim's evidence, and reads the claim as supported as far as its
// least supported fact: P, and each form's P, is the minimum over its
// facts; P(contradicted) the maximum. A claim shorter than Words, or one
// the model returns as a single fact, is asked as it is. A fact is kept
// only when most of its words are the claim's own (a small model may add
// words the claim does not say); a claim left with no fact is asked as it
// is. ClaimProb.Atoms and AtomP keep the facts and their P.
type AtomicVerifier struct {
	Inner *ClaimVerifier
	// Words is the least number of words a claim needs to be split.
	Words int
}

var _ kgeval.ClaimVerifier = (*AtomicVerifier)(nil)

// splitKey is the cache key of the split of claim.
func (v *AtomicVerifier) splitKey(claim string) string {
	return CacheKey("claim:", v.Inner.Client.Model(), SplitPromptVersion, claim)
}

type atomAnswer struct {
	Facts []string `json:"facts"`
}

// CheckClaims implements kgeval.ClaimVerifier.
func (v *AtomicVerifier) CheckClaims(ctx context.Context, qs []kgeval.ClaimQuery, progress func(done, total int)) ([]kgeval.ClaimProb, []error, error) {
	// Progress counts the split requests, then every fact's question.
	asked := 0
	atoms, serrs, err := v.split(ctx, qs, func(n int) {
		asked = n
		if progress != nil {
			progress(n, n+len(qs))
		}
	})
	if err != nil {
		return nil, nil, err
	}
	var flat []kgeval.ClaimQuery
	owner := []int{}
	for i, q := range qs {
		if serrs[i] != nil {
			continue
		}
		for _, a := range atoms[i] {
			aq := q
			aq.Claim = a
			flat = append(flat, aq)
			owner = append(owner, i)
		}
	}
	fps, ferrs, err := v.Inner.CheckClaims(ctx, flat, func(done, total int) {
		if progress != nil {
			progress(asked+done, asked+total)
		}
	})
	ps := make([]kgeval.ClaimProb, len(qs))
	errs := make([]error, len(qs))
	copy(errs, serrs)
	parts := make([][]kgeval.ClaimProb, len(qs))
	for j, i := range owner {
		if j < len(ferrs) && ferrs[j] != nil && errs[i] == nil {
			errs[i] = ferrs[j]
		}
		if j < len(fps) {
			parts[i] = append(parts[i], fps[j])
		}
	}
	for i := range qs {
		if errs[i] == nil && len(parts[i]) > 0 {
			ps[i] = leastSupported(parts[i], atoms[i])
		}
	}
	return ps, errs, err
}

// leastSupported combines the answers about a claim's facts: P and each
// form's P the minimum, P(contradicted) the maximum, chunks and tokens
// summed.
func leastSupported(parts []kgeval.ClaimProb, atoms []string) kgeval.ClaimProb {
	if len(parts) == 1 {
		return parts[0]
	}
	out := kgeval.ClaimProb{Atoms: atoms, Forms: map[string]float64{}, Cached: true}
	for i, p := range parts {
		out.AtomP = append(out.AtomP, p.P)
		if i == 0 || p.P < out.P {
			out.P, out.Best, out.NotStated = p.P, p.Best, p.NotStated
		}
		for f, fp := range p.Forms {
			if cur, ok := out.Forms[f]; !ok || fp < cur {
				out.Forms[f] = fp
			}
		}
		if p.Contradicted != nil && (out.Contradicted == nil || *p.Contradicted > *out.Contradicted) {
			out.Contradicted = p.Contradicted
		}
		out.Chunks += p.Chunks
		out.Tokens += p.Tokens
		out.CachedTokens += p.CachedTokens
		for f, n := range p.FormTokens {
			if out.FormTokens == nil {
				out.FormTokens = map[string]int{}
			}
			out.FormTokens[f] += n
		}
		out.Fallback = out.Fallback || p.Fallback
		out.Cached = out.Cached && p.Cached
	}
	return out
}

// split returns each query's atomic facts (the claim itself when it is not
// split), asking the model once per distinct claim not in the cache. A
// claim the model gave no valid answer for is asked as it is (and cached
// so); one the endpoint failed for gets the error in errs[i]. tick is
// called with the number of split requests answered so far.
func (v *AtomicVerifier) split(ctx context.Context, qs []kgeval.ClaimQuery, tick func(asked int)) ([][]string, []error, error) {
	out := make([][]string, len(qs))
	errs := make([]error, len(qs))
	keys := map[string]string{}
	var ks []string
	for i, q := range qs {
		out[i] = []string{q.Claim}
		if len(strings.Fields(q.Claim)) >= v.Words && v.Words > 0 {
			if _, ok := keys[q.Claim]; !ok {
				keys[q.Claim] = v.splitKey(q.Claim)
				ks = append(ks, keys[q.Claim])
			}
		}
	}
	if len(ks) == 0 {
		return out, errs, nil
	}
	cached, err := v.Inner.Cache.Get(ctx, ks)
	if err != nil {
		return nil, nil, err
	}
	system, err := Prompt(SplitPromptVersion)
	if err != nil {
		return nil, nil, err
	}
	facts := map[string][]string{}
	ferr := map[string]error{}
	var pending []string
	for claim, key := range keys {
		if b, ok := cached[key]; ok {
			var a atomAnswer
			if json.Unmarshal(b, &a) == nil {
				v.Inner.Client.CountCacheHit(1)
				facts[claim] = a.Facts
				continue
			}
		}
		pending = append(pending, claim)
	}
	var mu sync.Mutex
	var cacheErr error
	answered := 0
	ask := func(claim string) {
		var a atomAnswer
		err := v.Inner.Client.JSON(ctx, Request{System: strings.TrimSpace(system), User: "Sentence: " + claim, SchemaName: "facts", Schema: atomSchema},
			&a, func() error {
				if a.Facts == nil {
					return errors.New(`missing "facts" list`)
				}
				return nil
			})
		mu.Lock()
		defer mu.Unlock()
		answered++
		tick(answered)
		if err != nil && kgeval.ErrorCode(err) != kgeval.EINVALID {
			ferr[claim] = err
			return
		}
		// A claim the model could not split is cached as no facts, so a
		// replay asks it as it is too.
		facts[claim] = a.Facts
		b, _ := json.Marshal(a)
		if perr := v.Inner.Cache.Put(ctx, map[string][]byte{keys[claim]: b}); perr != nil {
			cacheErr = perr
		}
	}
	// As many workers as the client has requests in flight (CheckClaims'
	// shape).
	work := make(chan string)
	var wg sync.WaitGroup
	for range min(len(pending), v.Inner.Client.cfg.Concurrency) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for claim := range work {
				ask(claim)
			}
		}()
	}
	for _, claim := range pending {
		work <- claim
	}
	close(work)
	wg.Wait()
	if cacheErr != nil {
		return nil, nil, cacheErr
	}
	for i, q := range qs {
		if err := ferr[q.Claim]; err != nil {
			errs[i] = fmt.Errorf("splitting the claim into atomic facts: %w", err)
			continue
		}
		if fs := keepAtoms(q.Claim, facts[q.Claim]); len(fs) > 1 {
			out[i] = fs
		}
	}
	return out, errs, nil
}

// keepAtoms returns the facts of claim worth asking: non-empty, distinct,
// and with at least half of their distinct content words
// (lexical.ContentWords: no stop words, numbers included) found in the
// claim.
func keepAtoms(claim string, facts []string) []string {
	own := map[string]bool{}
	for _, w := range lexical.ContentWords(claim) {
		own[w] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, f := range facts {
		f = strings.TrimSpace(f)
		if f == "" || seen[f] {
			continue
		}
		ws := lexical.ContentWords(f)
		in := 0
		for _, w := range ws {
			if own[w] {
				in++
			}
		}
		if 2*in >= len(ws) {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}
