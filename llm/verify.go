package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/kgeval/kgeval"
)

// VerifyPromptVersion is the version of the fact-check prompt
// (scoring.verify: llm); it is part of every cache key.
const VerifyPromptVersion = "verify_triplets.v1"

// Verifier asks the model about the triplets a pair graph left open, one
// batched question per answer and pair, GraphEval-style: each fact with its
// best evidence sentences. Every answer is cached by (model, prompt version,
// question).
type Verifier struct {
	Client *Client
	Cache  kgeval.Cache
}

var _ kgeval.Verifier = (*Verifier)(nil)

var verifySchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"verdicts": map[string]any{
			"type": "array",
			"items": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"id":      map[string]any{"type": "integer"},
					"verdict": map[string]any{"type": "string", "enum": []string{kgeval.VerdictSupported, kgeval.VerdictContradicted, kgeval.VerdictNotFound}},
					"reason":  map[string]any{"type": "string"},
				},
				"required":             []string{"id", "verdict", "reason"},
				"additionalProperties": false,
			},
		},
	},
	"required":             []string{"verdicts"},
	"additionalProperties": false,
}

type verifyAnswer struct {
	Verdicts []struct {
		ID      int    `json:"id"`
		Verdict string `json:"verdict"`
		Reason  string `json:"reason"`
	} `json:"verdicts"`
}

// question renders one batch as the user message.
func verifyQuestion(facts []kgeval.FactCheck) string {
	var b strings.Builder
	for i, f := range facts {
		fmt.Fprintf(&b, "FACT %d: (%s; %s; %s)\n", i+1, f.Subject, f.Relation, f.Object)
		if len(f.Evidence) == 0 {
			b.WriteString("EVIDENCE: (none)\n")
		}
		for _, e := range f.Evidence {
			fmt.Fprintf(&b, "EVIDENCE: %s\n", e)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Key returns the cache key of one batch.
func (v *Verifier) Key(facts []kgeval.FactCheck) string {
	return CacheKey("verify:", v.Client.Model(), VerifyPromptVersion, verifyQuestion(facts))
}

// Verify implements kgeval.Verifier. Batches are asked concurrently (the
// client bounds the requests in flight); identical batches once.
func (v *Verifier) Verify(ctx context.Context, batches [][]kgeval.FactCheck, progress func(done, total int)) ([][]kgeval.ModelVerdict, []error, error) {
	system, err := Prompt(VerifyPromptVersion)
	if err != nil {
		return nil, nil, err
	}
	out := make([][]kgeval.ModelVerdict, len(batches))
	errs := make([]error, len(batches))
	byKey := map[string][]int{}
	var keys []string
	for i, b := range batches {
		if len(b) == 0 {
			continue
		}
		k := v.Key(b)
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], i)
	}
	cached, err := v.Cache.Get(ctx, keys)
	if err != nil {
		return nil, nil, err
	}
	var mu sync.Mutex
	done := 0
	finish := func(k string, vs []kgeval.ModelVerdict, e error) {
		mu.Lock()
		defer mu.Unlock()
		for _, i := range byKey[k] {
			out[i], errs[i] = vs, e
		}
		done++
		if progress != nil {
			progress(done, len(keys))
		}
	}
	var wg sync.WaitGroup
	var cacheErr error
	for _, k := range keys {
		facts := batches[byKey[k][0]]
		if b, ok := cached[k]; ok {
			var a verifyAnswer
			if json.Unmarshal(b, &a) == nil && validVerdicts(&a, len(facts)) == nil {
				v.Client.CountCacheHit(1)
				finish(k, verdictsOf(&a), nil)
				continue
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var a verifyAnswer
			err := v.Client.JSON(ctx, Request{System: system, User: verifyQuestion(facts), SchemaName: "verdicts", Schema: verifySchema}, &a,
				func() error { return validVerdicts(&a, len(facts)) })
			if err == nil {
				b, _ := json.Marshal(a)
				if perr := v.Cache.Put(ctx, map[string][]byte{k: b}); perr != nil {
					mu.Lock()
					cacheErr = perr
					mu.Unlock()
				}
				finish(k, verdictsOf(&a), nil)
				return
			}
			finish(k, nil, err)
		}()
	}
	wg.Wait()
	if cacheErr != nil {
		return out, errs, cacheErr
	}
	return out, errs, ctx.Err()
}

// validVerdicts checks that the answer has one verdict per fact, ids 1..n in
// order (a small model sometimes skips or repeats one: that is repaired).
func validVerdicts(a *verifyAnswer, n int) error {
	if len(a.Verdicts) != n {
		return fmt.Errorf("%d verdicts for %d facts: give exactly one verdict per fact, ids 1 to %d", len(a.Verdicts), n, n)
	}
	for i, x := range a.Verdicts {
		if x.ID != i+1 {
			return fmt.Errorf("verdict %d has id %d: give the verdicts in order, ids 1 to %d", i+1, x.ID, n)
		}
		switch x.Verdict {
		case kgeval.VerdictSupported, kgeval.VerdictContradicted, kgeval.VerdictNotFound:
		default:
			return fmt.Errorf("verdict %d is %q: want supported, contradicted or not_found", i+1, x.Verdict)
		}
	}
	return nil
}

func verdictsOf(a *verifyAnswer) []kgeval.ModelVerdict {
	out := make([]kgeval.ModelVerdict, len(a.Verdicts))
	for i, x := range a.Verdicts {
		out[i] = kgeval.ModelVerdict{Verdict: x.Verdict, Reason: x.Reason}
	}
	return out
}
