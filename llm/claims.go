package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/lexical"
)

// ClaimPromptVersion is the version of the claim question (scoring.verify:
// prob); it is part of every cache key.
const ClaimPromptVersion = "verify_claim.v1"

// maxHalvings bounds how often a chunk the server refused as too long is
// halved (a chunk becomes at most 2^maxHalvings requests).
const maxHalvings = 3

// minEvidenceTokens is the least room for evidence a claim must leave in
// the context.
const minEvidenceTokens = 64

// ClaimVerifier asks the model, one request per claim and evidence chunk,
// whether the evidence supports the claim, and reads P(supported) from the
// log-probabilities of its one-token answer (SPEC §4d, scoring.verify:
// prob). The evidence comes first and the claim last, so that a llama.cpp
// server reuses the cached prompt of the evidence a claim shares with the
// previous one, and a MiniCheck-style model served by Ollama or vLLM
// answers the same question. Evidence longer than the endpoint's context
// is cut into chunks that fit; the claim takes its best chunk. Every
// chunk's answer is cached by (model, prompt version, question).
type ClaimVerifier struct {
	Client *Client
	Cache  kgeval.Cache
}

var _ kgeval.ClaimVerifier = (*ClaimVerifier)(nil)

// claimAnswer is one chunk's answer, as cached.
type claimAnswer struct {
	P        float64 `json:"p"`
	Fallback bool    `json:"fallback"`
	Tokens   int     `json:"tokens"`
}

// ClaimQuestion is the user message for a claim and its evidence: the
// evidence first, the claim last.
func ClaimQuestion(evidence []string, claim string) string {
	return "Document:\n" + strings.Join(evidence, "\n\n") + "\n\nClaim: " + claim +
		"\n\nIs every piece of information in the claim supported by the document? Answer Yes or No."
}

// Key returns the cache key of one question (ClaimQuestion).
func (v *ClaimVerifier) Key(question string) string {
	h := sha256.New()
	for _, s := range []string{v.Client.Model(), ClaimPromptVersion, question} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return "claim:" + hex.EncodeToString(h.Sum(nil))
}

// claimP reads P(supported) from a one-token answer: p(Yes) / (p(Yes) +
// p(No)), where p(Yes) sums the probabilities of the top tokens that read
// "yes" once trimmed and lower-cased ("Yes", " yes") and p(No) those that
// read "no". When neither is among the top tokens, or the endpoint gave no
// log-probabilities, it is the answer itself, 1 for yes and 0 otherwise,
// with fallback set.
func claimP(a tokenAnswer) (p float64, fallback bool) {
	if !a.LogProbs {
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(a.Text)), "yes") {
			return 1, true
		}
		return 0, true
	}
	var yes, no float64
	for _, t := range a.Top {
		switch strings.ToLower(strings.TrimSpace(t.Token)) {
		case "yes":
			yes += math.Exp(t.LogProb)
		case "no":
			no += math.Exp(t.LogProb)
		}
	}
	if yes+no > 0 {
		return yes / (yes + no), false
	}
	tok := a.Token
	if tok == "" {
		tok = a.Text
	}
	if strings.ToLower(strings.TrimSpace(tok)) == "yes" {
		return 1, true
	}
	return 0, true
}

// chunks cuts evidence into the evidence of each request, in order, so
// that every request's estimate (EstimateRequest) fits the endpoint's
// context. Whole evidence texts are packed together while they fit; a
// text too long on its own is cut between sentences, and a sentence too
// long on its own between runes. Errors: EINVALID when the claim leaves
// fewer than minEvidenceTokens for evidence.
func (v *ClaimVerifier) chunks(system, claim string, evidence []string) ([][]string, error) {
	fits := func(ev ...string) bool { return v.Client.Fits(EstimateRequest(system, ClaimQuestion(ev, claim))) }
	if n := EstimateRequest(system, ClaimQuestion(nil, claim)); !v.Client.Fits(n + minEvidenceTokens) {
		return nil, kgeval.Wrap(kgeval.EINVALID, ErrContextExceeded, "a claim of about %d tokens leaves no room for evidence in the endpoint's context of %d tokens (llm.context_tokens)",
			n, v.Client.ContextTokens())
	}
	if fits(evidence...) {
		return [][]string{evidence}, nil
	}
	// The pieces: whole texts, or runs of sentences of a long text.
	var pieces []string
	for _, text := range evidence {
		if fits(text) {
			pieces = append(pieces, text)
			continue
		}
		start, end := -1, 0 // the run of sentences being grown
		flush := func() {
			if start >= 0 {
				pieces = append(pieces, strings.TrimSpace(text[start:end]))
				start = -1
			}
		}
		for _, s := range lexical.Sentences(text) {
			if start >= 0 && fits(strings.TrimSpace(text[start:s.End])) {
				end = s.End
				continue
			}
			flush()
			if sent := strings.TrimSpace(text[s.Start:s.End]); fits(sent) {
				start, end = s.Start, s.End
			} else {
				// A sentence longer than a chunk: cut between runes, each
				// part the longest prefix that fits.
				for !fits(sent) {
					n := longestFit(sent, func(p string) bool { return fits(p) })
					pieces = append(pieces, sent[:n])
					sent = sent[n:]
				}
				pieces = append(pieces, sent)
			}
		}
		flush()
	}
	// Pack the pieces into chunks.
	var out [][]string
	var cur []string
	for _, p := range pieces {
		if p == "" {
			continue
		}
		if len(cur) > 0 && !fits(append(cur[:len(cur):len(cur)], p)...) {
			out = append(out, cur)
			cur = nil
		}
		cur = append(cur, p)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out, nil
}

// longestFit is the length of the longest prefix of s, cut on a rune
// boundary, for which fits holds; at least one rune (the caller made sure
// that a request with a little evidence fits). fits is monotone in the
// prefix's length: EstimateTokens never falls when a byte is appended.
func longestFit(s string, fits func(string) bool) int {
	// The longest byte prefix that fits, then back to a rune's start.
	lo, hi := 0, len(s) // fits(s[:lo]); s[:hi+1] does not fit or hi = len(s)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(s[:mid]) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	for lo > 0 && lo < len(s) && !utf8.RuneStart(s[lo]) {
		lo--
	}
	if lo == 0 {
		_, lo = utf8.DecodeRuneInString(s)
	}
	return lo
}

// halve cuts one chunk's evidence in two: between texts when it has
// several, else between the sentences nearest its middle, else between
// runes. ok is false when it cannot be cut.
func halve(ev []string) (a, b []string, ok bool) {
	if len(ev) > 1 {
		// Split where the bytes on each side are closest to even.
		total := 0
		for _, t := range ev {
			total += len(t)
		}
		best, bestDiff, acc := 1, math.MaxInt, 0
		for i := 0; i < len(ev)-1; i++ {
			acc += len(ev[i])
			if d := abs(total - 2*acc); d < bestDiff {
				best, bestDiff = i+1, d
			}
		}
		return ev[:best], ev[best:], true
	}
	if len(ev) == 0 {
		return nil, nil, false
	}
	text := ev[0]
	if utf8.RuneCountInString(text) < 2 {
		return nil, nil, false
	}
	// The sentence boundary nearest the middle, if it is in the middle
	// half of the text.
	cut := -1
	for _, s := range lexical.Sentences(text) {
		if s.Start >= len(text)/4 && s.Start <= 3*len(text)/4 && (cut < 0 || abs(len(text)-2*s.Start) < abs(len(text)-2*cut)) {
			cut = s.Start
		}
	}
	if cut < 0 {
		cut = len(text) / 2
		for !utf8.RuneStart(text[cut]) {
			cut--
		}
		if cut == 0 {
			_, cut = utf8.DecodeRuneInString(text)
		}
	}
	a, b = []string{strings.TrimSpace(text[:cut])}, []string{strings.TrimSpace(text[cut:])}
	return a, b, true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// flight is one question being answered in this CheckClaims call; other
// queries that need it wait for done.
type flight struct {
	done   chan struct{}
	a      claimAnswer
	cached bool
	err    error
}

// CheckClaims implements kgeval.ClaimVerifier. Queries are asked
// concurrently (the client bounds the requests in flight); identical
// queries, and identical chunks, once. A query's P is its best chunk's
// (Best its index among Chunks), Fallback is set when any chunk's answer
// fell back to the answer token, Tokens sums the prompt tokens of the
// chunks asked now, and Cached is set when every chunk came from the
// cache. A chunk the server refuses as too long (400) is halved, at most
// maxHalvings times, and answered by its better half; that answer is
// cached under the chunk's own key too, so that Chunks does not change
// from one run to the next.
func (v *ClaimVerifier) CheckClaims(ctx context.Context, qs []kgeval.ClaimQuery, progress func(done, total int)) ([]kgeval.ClaimProb, []error, error) {
	system, err := Prompt(ClaimPromptVersion)
	if err != nil {
		return nil, nil, err
	}
	system = strings.TrimSpace(system)
	ps := make([]kgeval.ClaimProb, len(qs))
	errs := make([]error, len(qs))
	done := 0
	report := func(n int) {
		done += n
		if progress != nil {
			progress(done, len(qs))
		}
	}
	plans, byQuery, keys := v.planClaims(system, qs, errs)
	// Queries that failed before any question (and their duplicates).
	for _, p := range byQuery {
		if p.chunks == nil {
			for _, i := range p.idx[1:] {
				errs[i] = errs[p.idx[0]]
			}
			report(len(p.idx))
		}
	}
	cached, err := v.Cache.Get(ctx, keys)
	if err != nil {
		return nil, nil, err
	}

	c := &claimCall{v: v, ctx: ctx, system: system, cached: cached, flights: map[string]*flight{}}
	var wg sync.WaitGroup
	for _, p := range plans {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, qerr := c.query(qs[p.idx[0]].Claim, p)
			c.mu.Lock()
			defer c.mu.Unlock()
			for _, i := range p.idx {
				ps[i], errs[i] = res, qerr
			}
			report(len(p.idx))
		}()
	}
	wg.Wait()
	if c.cacheErr != nil {
		return ps, errs, c.cacheErr
	}
	return ps, errs, ctx.Err()
}

// claimPlan is the chunks of one distinct query and the queries (idx) that
// share it.
type claimPlan struct {
	idx    []int
	chunks [][]string
	keys   []string
}

// planClaims plans each distinct query of qs once: its chunks and their
// cache keys. A query that cannot be asked (an empty claim, a chunking
// error) gets its error in errs and no chunks. keys are the distinct chunk
// keys, in order.
func (v *ClaimVerifier) planClaims(system string, qs []kgeval.ClaimQuery, errs []error) (plans []*claimPlan, byQuery map[string]*claimPlan, keys []string) {
	byQuery = map[string]*claimPlan{}
	seen := map[string]bool{}
	for i, q := range qs {
		b, _ := json.Marshal(q)
		qk := string(b)
		if p, ok := byQuery[qk]; ok {
			p.idx = append(p.idx, i)
			continue
		}
		p := &claimPlan{idx: []int{i}}
		byQuery[qk] = p
		if strings.TrimSpace(q.Claim) == "" {
			errs[i] = kgeval.Errorf(kgeval.EINVALID, "empty claim")
			continue
		}
		cs, err := v.chunks(system, q.Claim, q.Evidence)
		if err != nil {
			errs[i] = err
			continue
		}
		p.chunks = cs
		for _, c := range cs {
			k := v.Key(ClaimQuestion(c, q.Claim))
			p.keys = append(p.keys, k)
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
		plans = append(plans, p)
	}
	return plans, byQuery, keys
}

// claimCall is the state of one CheckClaims call: the cached answers read
// up front, the chunks being asked, and the last failure to cache.
type claimCall struct {
	v       *ClaimVerifier
	ctx     context.Context
	system  string
	cached  map[string][]byte
	mu      sync.Mutex
	flights map[string]*flight
	// cacheErr is the last failure to cache an answer (under mu).
	cacheErr error
}

// query answers the chunks of p concurrently and returns the query's
// probability: its best chunk's, or the first chunk error.
func (c *claimCall) query(claim string, p *claimPlan) (kgeval.ClaimProb, error) {
	as := make([]claimAnswer, len(p.chunks))
	fromCache := make([]bool, len(p.chunks))
	cerrs := make([]error, len(p.chunks))
	var cwg sync.WaitGroup
	for j := range p.chunks {
		cwg.Add(1)
		go func() {
			defer cwg.Done()
			as[j], fromCache[j], cerrs[j] = c.answer(claim, p.chunks[j], p.keys[j], 0)
		}()
	}
	cwg.Wait()
	var res kgeval.ClaimProb
	res.Chunks, res.Cached, res.P = len(p.chunks), true, -1
	for j, a := range as {
		if cerrs[j] != nil {
			return kgeval.ClaimProb{}, cerrs[j]
		}
		if a.P > res.P {
			res.P, res.Best = a.P, j
		}
		res.Fallback = res.Fallback || a.Fallback
		res.Cached = res.Cached && fromCache[j]
		if !fromCache[j] {
			res.Tokens += a.Tokens
		}
	}
	return res, nil
}

// answer returns the answer to one chunk (ev, cached under key), from the
// cache, from another query's request in this call, or from the model; a
// fresh answer is cached. depth counts the halvings of a refused chunk.
func (c *claimCall) answer(claim string, ev []string, key string, depth int) (claimAnswer, bool, error) {
	v := c.v
	c.mu.Lock()
	if f, ok := c.flights[key]; ok {
		c.mu.Unlock()
		<-f.done
		return f.a, f.cached, f.err
	}
	f := &flight{done: make(chan struct{})}
	c.flights[key] = f
	c.mu.Unlock()
	defer close(f.done)
	b, ok := c.cached[key]
	if !ok && depth > 0 {
		// A half of a refused chunk: not looked up with the others.
		if m, err := v.Cache.Get(c.ctx, []string{key}); err == nil {
			b, ok = m[key]
		}
	}
	if ok {
		var a claimAnswer
		if json.Unmarshal(b, &a) == nil && a.P >= 0 && a.P <= 1 {
			v.Client.CountCacheHit(1)
			f.a, f.cached = a, true
			return f.a, true, nil
		}
	}
	ta, err := v.Client.oneToken(c.ctx, c.system, ClaimQuestion(ev, claim))
	switch {
	case err == nil:
		f.a.P, f.a.Fallback = claimP(ta)
		f.a.Tokens = ta.PromptTokens
	case errors.Is(err, ErrContextExceeded) && depth < maxHalvings:
		// The estimate was not conservative enough for this text: ask
		// each half, and keep the better.
		if f.a, f.err = c.halved(claim, ev, depth, err); f.err != nil {
			return f.a, false, f.err
		}
	default:
		if errors.Is(err, ErrContextExceeded) {
			v.Client.failures.Add(1) // oneToken leaves refusals to its caller
		}
		f.err = err
		return f.a, false, err
	}
	b, _ = json.Marshal(f.a)
	if perr := v.Cache.Put(c.ctx, map[string][]byte{key: b}); perr != nil {
		c.mu.Lock()
		c.cacheErr = perr
		c.mu.Unlock()
	}
	return f.a, false, nil
}

// halved answers a chunk the server refused as too long (refusal) by its
// halves: the better P, a fallback if either fell back, their tokens
// summed. A chunk that cannot be halved fails with refusal.
func (c *claimCall) halved(claim string, ev []string, depth int, refusal error) (claimAnswer, error) {
	a, b, ok := halve(ev)
	if !ok {
		c.v.Client.failures.Add(1) // oneToken leaves refusals to its caller
		return claimAnswer{}, refusal
	}
	var best claimAnswer
	best.P = -1
	tokens := 0
	for _, h := range [][]string{a, b} {
		ha, _, herr := c.answer(claim, h, c.v.Key(ClaimQuestion(h, claim)), depth+1)
		if herr != nil {
			return claimAnswer{}, herr
		}
		tokens += ha.Tokens
		if ha.P > best.P {
			best.P = ha.P
		}
		best.Fallback = best.Fallback || ha.Fallback
	}
	best.Tokens = tokens
	return best, nil
}
