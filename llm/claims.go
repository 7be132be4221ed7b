package llm

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"slices"
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

// Claim question forms (scoring.verify_forms). Each is one request per
// claim (per evidence chunk); a claim asked in several forms takes the
// mean of their P(supported). All forms share the system message, and all
// but claimfirst start with the evidence, so a llama.cpp server answers a
// claim's later forms from the prompt it cached for the first.
const (
	// FormClaim asks whether the document supports the claim, Yes or No
	// (verify_claim.v1, MiniCheck's protocol).
	FormClaim = kgeval.FormClaim
	// FormContext asks the same of the claim read with the question and
	// the answer's text before it, so that the checker sees what "it" and
	// "this" are; a claim with neither is not asked again.
	FormContext = kgeval.FormContext
	// FormThreeWay asks Yes (stated), No (the document says something
	// different) or Unknown (it does not say): P(supported) is p(Yes) over
	// the three, P(contradicted) p(No) over the three.
	FormThreeWay = kgeval.FormThreeWay
	// FormClaimFirst is FormThreeWay's question with the claim before the
	// document (the others put the evidence first, which lets a llama.cpp
	// server reuse the cached evidence across a claim's forms): measured
	// against threeway on RAGTruth's answer sentences (docs/SPEC-NOTES.md
	// §4d'); its P(contradicted) is not read.
	FormClaimFirst = kgeval.FormClaimFirst
)

// Forms are the claim question forms, in the order a claim is asked them.
var Forms = kgeval.ClaimForms

// formVersion is each form's prompt version, part of its cache keys.
var formVersion = map[string]string{FormClaim: ClaimPromptVersion, FormContext: "verify_claim_context.v1", FormThreeWay: "verify_claim_3way.v1",
	FormClaimFirst: "verify_claim_3way_claimfirst.v1"}

// threeWayQuestion is the question of the three-way forms.
const threeWayQuestion = "Does the document support the claim? Answer Yes if the document states everything in the claim, No if the document says something different, or Unknown if the document does not say."

// ClaimVerifier asks the model, one request per claim, form and evidence
// chunk, whether the evidence supports the claim, and reads P(supported)
// from the log-probabilities of its one-token answer (SPEC §4d,
// scoring.verify: prob). The evidence comes first and the claim last, so
// that a llama.cpp server reuses the cached prompt of the evidence a claim
// shares with the previous question, and a MiniCheck-style model served
// by Ollama or vLLM answers the same question. Evidence longer than the
// endpoint's context is cut into chunks that fit; the claim takes its best
// chunk. Every chunk's answer is cached by (model, prompt version,
// question).
type ClaimVerifier struct {
	Client *Client
	Cache  kgeval.Cache
	// Forms are the question forms each claim is asked (nil: FormClaim).
	Forms []string
	// Aggregate is how a form's P is read from its chunks' (max, mean or
	// top2: kgeval.EvidenceAggregates; "": max).
	Aggregate string
}

var _ kgeval.ClaimVerifier = (*ClaimVerifier)(nil)

// forms returns the forms asked, FormClaim when none is set.
func (v *ClaimVerifier) forms() []string {
	if len(v.Forms) == 0 {
		return []string{FormClaim}
	}
	return v.Forms
}

// claimAnswer is one chunk's answer, as cached: P(supported), and the
// probability masses of the answer words (Yes, No, Unknown) it was read
// from (absent in entries cached before forms had them).
type claimAnswer struct {
	P        float64 `json:"p"`
	Fallback bool    `json:"fallback"`
	Tokens   int     `json:"tokens"`
	Yes      float64 `json:"yes,omitempty"`
	No       float64 `json:"no,omitempty"`
	Unknown  float64 `json:"unknown,omitempty"`
}

const claimQuestionTail = "\n\nIs every piece of information in the claim supported by the document? Answer Yes or No."

// ClaimQuestion is the user message for a claim and its evidence (form
// FormClaim): the evidence first, the claim last.
func ClaimQuestion(evidence []string, claim string) string {
	return "Document:\n" + strings.Join(evidence, "\n\n") + "\n\nClaim: " + claim + claimQuestionTail
}

// maxQuestionContext and maxPreceding bound, in bytes, the question and
// the answer's preceding text that FormContext shows.
const (
	maxQuestionContext = 400
	maxPreceding       = 600
)

// formQuestion is the user message of query q in form f with evidence ev;
// "" for FormContext when q has neither question nor preceding text (the
// claim form's answer stands for it).
func formQuestion(f string, ev []string, q kgeval.ClaimQuery) string {
	doc := "Document:\n" + strings.Join(ev, "\n\n") + "\n\n"
	switch f {
	case FormContext:
		question, prev := headOf(strings.TrimSpace(q.Question), maxQuestionContext), tailOf(strings.TrimSpace(q.Preceding), maxPreceding)
		if question == "" && prev == "" {
			return ""
		}
		var b strings.Builder
		b.WriteString(doc)
		if question != "" {
			b.WriteString("Question: " + question + "\n")
		}
		if prev != "" {
			b.WriteString("Answer so far: " + prev + "\n")
			b.WriteString("\nClaim (the next sentence of that answer): " + q.Claim)
		} else {
			b.WriteString("\nClaim (from the answer to that question): " + q.Claim)
		}
		return b.String() + claimQuestionTail
	case FormThreeWay:
		return doc + "Claim: " + q.Claim + "\n\n" + threeWayQuestion
	case FormClaimFirst:
		return "Claim: " + q.Claim + "\n\n" + doc + threeWayQuestion
	default:
		return ClaimQuestion(ev, q.Claim)
	}
}

// headOf is s cut to at most n bytes at a word boundary, with "…" when cut.
func headOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut <= 0 {
		cut = n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	return s[:cut] + "…"
}

// tailOf is the last at most n bytes of s, starting at a sentence or word
// boundary, with "…" when cut.
func tailOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	start := len(s) - n
	for _, sp := range lexical.Sentences(s) {
		if sp.Start >= start {
			return "…" + strings.TrimSpace(s[sp.Start:])
		}
	}
	if i := strings.IndexByte(s[start:], ' '); i >= 0 {
		start += i + 1
	}
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return "…" + s[start:]
}

// Key returns the cache key of one question of form FormClaim
// (ClaimQuestion).
func (v *ClaimVerifier) Key(question string) string { return v.formKey(FormClaim, question) }

// formKey returns the cache key of one question of form f.
func (v *ClaimVerifier) formKey(f, question string) string {
	return CacheKey("claim:", v.Client.Model(), formVersion[f], question)
}

// claimP reads a one-token answer of form f: the probability masses of
// the top tokens that read "yes", "no" and "unknown" once trimmed and
// lower-cased ("Yes", " yes"), and P(supported) = p(Yes) / (p(Yes) +
// p(No)), or over the three for the three-way forms. When none of them is among
// the top tokens, or the endpoint gave no log-probabilities, P is the
// answer itself, 1 for yes and 0 otherwise, with Fallback set.
func claimP(f string, a tokenAnswer) claimAnswer {
	var out claimAnswer
	if !a.LogProbs {
		out.Fallback = true
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(a.Text)), "yes") {
			out.P = 1
		}
		return out
	}
	for _, t := range a.Top {
		switch strings.ToLower(strings.TrimSpace(t.Token)) {
		case "yes":
			out.Yes += math.Exp(t.LogProb)
		case "no":
			out.No += math.Exp(t.LogProb)
		case "unknown":
			out.Unknown += math.Exp(t.LogProb)
		}
	}
	den := out.Yes + out.No
	if f == FormThreeWay || f == FormClaimFirst {
		den += out.Unknown
	}
	if den > 0 {
		out.P = out.Yes / den
		return out
	}
	tok := a.Token
	if tok == "" {
		tok = a.Text
	}
	out.Fallback = true
	if strings.ToLower(strings.TrimSpace(tok)) == "yes" {
		out.P = 1
	}
	return out
}

// chunks cuts evidence into the evidence of each request, in order, so
// that every request's estimate (EstimateRequest) fits the endpoint's
// context. Whole evidence texts are packed together while they fit; a
// text too long on its own is cut between sentences, and a sentence too
// long on its own between runes. Errors: EINVALID when the claim leaves
// fewer than minEvidenceTokens for evidence.
func (v *ClaimVerifier) chunks(system string, q kgeval.ClaimQuery, evidence []string) ([][]string, error) {
	// The longest question of the forms asked must fit.
	longest := func(ev []string) int {
		n := 0
		for _, f := range v.forms() {
			n = max(n, EstimateRequest(system, formQuestion(f, ev, q)))
		}
		return n
	}
	fits := func(ev ...string) bool { return v.Client.Fits(longest(ev)) }
	if n := longest(nil); !v.Client.Fits(n + minEvidenceTokens) {
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
// concurrently (the client bounds the requests in flight), each query's
// forms one after the other (so the server reuses the evidence's cached
// prompt); identical queries, and identical chunks, once. A form's P is
// its best chunk's (Best its index among Chunks, of the first form); the
// query's P is the mean over its forms (Forms holds each form's P, and
// Contradicted FormThreeWay's p(No)). Fallback is set when any answer fell
// back to the answer token, Tokens sums the prompt tokens of the questions
// asked now, and Cached is set when every answer came from the cache. A
// chunk the server refuses as too long (400) is halved, at most
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
	// As many workers as the client has requests in flight, each asking
	// one query's forms in turn: a query's next form is sent as its last
	// answer frees a server slot, which still holds the evidence's prompt
	// (with a goroutine per query, the next form queued behind every
	// other query's first and found its slot's cache overwritten).
	work := make(chan *claimPlan)
	var wg sync.WaitGroup
	for range min(len(plans), v.Client.cfg.Concurrency) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				res, qerr := c.query(qs[p.idx[0]], p)
				c.mu.Lock()
				for _, i := range p.idx {
					ps[i], errs[i] = res, qerr
				}
				report(len(p.idx))
				c.mu.Unlock()
			}
		}()
	}
	for _, p := range plans {
		work <- p
	}
	close(work)
	wg.Wait()
	if c.cacheErr != nil {
		return ps, errs, c.cacheErr
	}
	return ps, errs, ctx.Err()
}

// claimPlan is the chunks of one distinct query and the queries (idx) that
// share it; keys[f][j] is the cache key of form f's question on chunk j
// ("" when the form is not asked of this query).
type claimPlan struct {
	idx    []int
	chunks [][]string
	keys   map[string][]string
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
		p := &claimPlan{idx: []int{i}, keys: map[string][]string{}}
		byQuery[qk] = p
		if strings.TrimSpace(q.Claim) == "" {
			errs[i] = kgeval.Errorf(kgeval.EINVALID, "empty claim")
			continue
		}
		cs, err := v.chunks(system, q, q.Evidence)
		if err != nil {
			errs[i] = err
			continue
		}
		p.chunks = cs
		for _, f := range v.forms() {
			for _, c := range cs {
				k := ""
				if fq := formQuestion(f, c, q); fq != "" {
					k = v.formKey(f, fq)
					if !seen[k] {
						seen[k] = true
						keys = append(keys, k)
					}
				}
				p.keys[f] = append(p.keys[f], k)
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

// chunkMeans is each chunk's P(supported), the mean over the forms it
// was asked (ClaimProb.ChunkP).
func chunkMeans(as [][]claimAnswer, p *claimPlan, forms []string) []float64 {
	out := make([]float64, len(p.chunks))
	for j := range p.chunks {
		n := 0
		for k, f := range forms {
			if p.keys[f][j] != "" {
				out[j] += as[j][k].P
				n++
			}
		}
		if n > 0 {
			out[j] /= float64(n)
		}
	}
	return out
}

// aggregate reads one form's P from its chunks' ps by how (max, mean or
// top2; "": max).
func aggregate(ps []float64, how string) float64 {
	if how != "mean" && how != "top2" {
		return slices.Max(ps)
	}
	s := slices.Sorted(slices.Values(ps))
	slices.Reverse(s)
	if how == "top2" {
		s = s[:min(2, len(s))]
	}
	sum := 0.0
	for _, p := range s {
		sum += p
	}
	return sum / float64(len(s))
}

// query answers the chunks of p concurrently, each chunk's forms in turn,
// and returns the query's probability (CheckClaims), or the first error.
func (c *claimCall) query(q kgeval.ClaimQuery, p *claimPlan) (kgeval.ClaimProb, error) {
	forms := c.v.forms()
	as := make([][]claimAnswer, len(p.chunks))
	fromCache := make([][]bool, len(p.chunks))
	cerrs := make([]error, len(p.chunks))
	var cwg sync.WaitGroup
	for j := range p.chunks {
		as[j], fromCache[j] = make([]claimAnswer, len(forms)), make([]bool, len(forms))
		cwg.Add(1)
		go func() {
			defer cwg.Done()
			for k, f := range forms {
				key := p.keys[f][j]
				if key == "" { // FormContext without context: the claim form's answer
					continue
				}
				if as[j][k], fromCache[j][k], cerrs[j] = c.answer(f, q, p.chunks[j], key, 0); cerrs[j] != nil {
					return
				}
			}
		}()
	}
	cwg.Wait()
	for _, err := range cerrs {
		if err != nil {
			return kgeval.ClaimProb{}, err
		}
	}
	res := kgeval.ClaimProb{Chunks: len(p.chunks), Cached: true, Forms: map[string]float64{}, FormTokens: map[string]int{}}
	if len(p.chunks) > 1 {
		res.ChunkP = chunkMeans(as, p, forms)
	}
	sum, n := 0.0, 0
	for k, f := range forms {
		best, bestJ, asked := -1.0, 0, false
		var bestA claimAnswer
		var ps []float64
		for j := range p.chunks {
			if p.keys[f][j] == "" {
				continue
			}
			a := as[j][k]
			asked = true
			ps = append(ps, a.P)
			if a.P > best {
				best, bestJ, bestA = a.P, j, a
			}
			res.Fallback = res.Fallback || a.Fallback
			res.Cached = res.Cached && fromCache[j][k]
			if !fromCache[j][k] {
				res.Tokens += a.Tokens
			} else {
				res.CachedTokens += a.Tokens
			}
			res.FormTokens[f] += a.Tokens
		}
		if !asked {
			continue
		}
		if k == 0 {
			res.Best = bestJ
		}
		best = aggregate(ps, c.v.Aggregate)
		res.Forms[f] = best
		if f == FormThreeWay && !bestA.Fallback {
			if den := bestA.Yes + bestA.No + bestA.Unknown; den > 0 {
				pc, pu := bestA.No/den, bestA.Unknown/den
				res.Contradicted, res.NotStated = &pc, &pu
			}
		}
		sum += best
		n++
	}
	res.P = sum / float64(n)
	return res, nil
}

// answer returns the answer to one question of form f (query q on chunk
// ev, cached under key), from the cache, from another query's request in
// this call, or from the model; a fresh answer is cached. depth counts the
// halvings of a refused chunk.
func (c *claimCall) answer(f string, q kgeval.ClaimQuery, ev []string, key string, depth int) (claimAnswer, bool, error) {
	v := c.v
	c.mu.Lock()
	if fl, ok := c.flights[key]; ok {
		c.mu.Unlock()
		<-fl.done
		return fl.a, fl.cached, fl.err
	}
	fl := &flight{done: make(chan struct{})}
	c.flights[key] = fl
	c.mu.Unlock()
	defer close(fl.done)
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
			fl.a, fl.cached = a, true
			return fl.a, true, nil
		}
	}
	ta, err := v.Client.oneToken(c.ctx, c.system, formQuestion(f, ev, q))
	switch {
	case err == nil:
		fl.a = claimP(f, ta)
		fl.a.Tokens = ta.PromptTokens
	case errors.Is(err, ErrContextExceeded) && depth < maxHalvings:
		// The estimate was not conservative enough for this text: ask
		// each half, and keep the better.
		if fl.a, fl.err = c.halved(f, q, ev, depth, err); fl.err != nil {
			return fl.a, false, fl.err
		}
	default:
		if errors.Is(err, ErrContextExceeded) {
			v.Client.failures.Add(1) // oneToken leaves refusals to its caller
		}
		fl.err = err
		return fl.a, false, err
	}
	b, _ = json.Marshal(fl.a)
	if perr := v.Cache.Put(c.ctx, map[string][]byte{key: b}); perr != nil {
		c.mu.Lock()
		c.cacheErr = perr
		c.mu.Unlock()
	}
	return fl.a, false, nil
}

// halved answers a chunk the server refused as too long (refusal) by its
// halves: the better P (with its word masses), a fallback if either fell
// back, their tokens summed. A chunk that cannot be halved fails with
// refusal.
func (c *claimCall) halved(f string, q kgeval.ClaimQuery, ev []string, depth int, refusal error) (claimAnswer, error) {
	a, b, ok := halve(ev)
	if !ok {
		c.v.Client.failures.Add(1) // oneToken leaves refusals to its caller
		return claimAnswer{}, refusal
	}
	var best claimAnswer
	best.P = -1
	tokens, fallback := 0, false
	for _, h := range [][]string{a, b} {
		ha, _, herr := c.answer(f, q, h, c.v.formKey(f, formQuestion(f, h, q)), depth+1)
		if herr != nil {
			return claimAnswer{}, herr
		}
		tokens += ha.Tokens
		fallback = fallback || ha.Fallback
		if ha.P > best.P {
			best = ha
		}
	}
	best.Tokens, best.Fallback = tokens, fallback
	return best, nil
}
