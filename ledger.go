package kgeval

import (
	"maps"
	"slices"
)

// Ledger is what an evaluation cost the model, per stage ("extract",
// "claims", "verify", "judge") and per pair (LedgerAll when the stage's
// work is not one pair's: extraction reads texts that several pairs
// share). A resumed run's ledger adds up every attempt's.
type Ledger map[string]map[string]LedgerEntry

// LedgerAll is the pair key of a stage whose cost is not one pair's.
const LedgerAll = "*"

// LedgerEntry is the model's cost of one stage for one pair. Requests,
// PromptTokens and CompletionTokens are what was sent now; CacheHits the
// answers read from the model cache instead, and CachedPromptTokens their
// prompt tokens when they were asked (recorded with claim answers; 0 where
// the cache keeps no count): Prompt + Cached is what a cold (--fresh) run
// pays. Seconds is the model's time (the client's latency; a pair's share
// of its stage by prompt tokens).
type LedgerEntry struct {
	Requests           int64   `json:"requests"`
	CacheHits          int64   `json:"cache_hits"`
	PromptTokens       int64   `json:"prompt_tokens"`
	CompletionTokens   int64   `json:"completion_tokens"`
	CachedPromptTokens int64   `json:"cached_prompt_tokens,omitempty"`
	Seconds            float64 `json:"seconds"`
}

// Add returns the sum of e and o.
func (e LedgerEntry) Add(o LedgerEntry) LedgerEntry {
	return LedgerEntry{e.Requests + o.Requests, e.CacheHits + o.CacheHits, e.PromptTokens + o.PromptTokens, e.CompletionTokens + o.CompletionTokens,
		e.CachedPromptTokens + o.CachedPromptTokens, e.Seconds + o.Seconds}
}

// Weighted is the cost the project compares configurations by: prompt
// tokens plus 8 times completion tokens (on 2 CPU cores a small model
// writes about eight times slower than it reads), cold (cached answers
// counted at what they cost).
func (e LedgerEntry) Weighted() int64 {
	return e.PromptTokens + e.CachedPromptTokens + 8*e.CompletionTokens
}

// Add returns a new ledger with the entries of l and o summed.
func (l Ledger) Add(o Ledger) Ledger {
	out := Ledger{}
	for _, x := range []Ledger{l, o} {
		for stage, pairs := range x {
			if out[stage] == nil {
				out[stage] = map[string]LedgerEntry{}
			}
			for p, e := range pairs {
				out[stage][p] = out[stage][p].Add(e)
			}
		}
	}
	return out
}

// Set records e for stage and pair, if it holds any work.
func (l Ledger) Set(stage, pair string, e LedgerEntry) {
	if e == (LedgerEntry{}) {
		return
	}
	if l[stage] == nil {
		l[stage] = map[string]LedgerEntry{}
	}
	l[stage][pair] = e
}

// Total is the sum of every entry.
func (l Ledger) Total() LedgerEntry {
	var t LedgerEntry
	for _, pairs := range l {
		for _, e := range pairs {
			t = t.Add(e)
		}
	}
	return t
}

// LedgerStages are the ledger's stages in the order an evaluation runs them.
var LedgerStages = []string{"extract", "claims", "verify", "judge"}

// Stages returns l's stages in LedgerStages order, others after, sorted.
func (l Ledger) Stages() []string {
	var out []string
	for _, s := range LedgerStages {
		if l[s] != nil {
			out = append(out, s)
		}
	}
	for _, s := range slices.Sorted(maps.Keys(l)) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
