package pipeline

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/metrics"
	"github.com/kgeval/kgeval/scoring"
	"github.com/kgeval/kgeval/scoring/claims"
)

// ClaimOptions are the claim checks' settings (SPEC §4d).
type ClaimOptions struct {
	// Evidence is the evidence window: its mode (graph, cosine or whole)
	// and budget in estimated tokens.
	Evidence claims.Params
	// Calibration is the calibrated score's fits (nil: the committed one).
	Calibration *claims.Calibration
	// Cascade asks the ClaimVerifier only about the claims inside the
	// calibration's band (scoring.verify cascade); the others keep the
	// fit without the model.
	Cascade bool
}

// claimJob is one pair graph's claims: its result's index, the claim
// checks, the index of each one's model query (-1: not asked) and its
// passages.
type claimJob struct {
	result   int
	pair     string
	checks   []kgeval.ClaimCheck
	query    []int
	passages []claims.Passage
}

// claims checks the claims of the scored pairs.
func (v *evaluation) claims(ctx context.Context) error {
	if err := v.e.claimChecks(ctx, v.idx, v.graphs, v.results, v.rep, v.progress); err != nil {
		return fmt.Errorf("claims: %w", err)
	}
	return nil
}

// claimChecks splits the input text of every pair graph whose input is not
// the question into claims, chooses each claim's evidence window from the
// graph, asks the ClaimVerifier (if any) about each claim with its window,
// and sets the claim metrics of the results from the calibrated score.
func (e *Evaluator) claimChecks(ctx context.Context, idx *sampleIndex, graphs []*kgeval.PairGraph, results []kgeval.KGResult, rep *Report, progress func(string) func(int, int)) error {
	cal := e.Claims.Calibration
	if cal == nil {
		var err error
		if cal, err = claims.DefaultCalibration(); err != nil {
			return err
		}
	}
	jobs, queries, err := e.claimJobs(ctx, idx, graphs, results, rep, cal, progress("evidence"))
	if err != nil {
		return err
	}
	ps, errs, err := e.askClaims(ctx, queries, rep, progress)
	if err != nil {
		return err
	}
	rep.ClaimLedger = map[string]kgeval.LedgerEntry{}
	counted := map[int]bool{}
	for _, j := range jobs {
		var answers []*kgeval.ClaimProb
		var failed []error
		if e.asks(j.pair) {
			answers = make([]*kgeval.ClaimProb, len(j.checks))
			failed = make([]error, len(j.checks))
			for k := range j.checks {
				q := j.query[k]
				if q < 0 {
					continue // settled without the model (cascade)
				}
				if errs[q] != nil {
					failed[k] = errs[q]
					continue
				}
				answers[k] = &ps[q]
				if !counted[q] { // one query per claim; count it once
					counted[q] = true
					rep.ClaimLedger[j.pair] = rep.ClaimLedger[j.pair].Add(claimCost(ps[q]))
				}
			}
		}
		cal.Score(&results[j.result], j.checks, answers, failed)
	}
	return nil
}

// evidenceParams are the evidence window's settings with their defaults.
func (e *Evaluator) evidenceParams() claims.Params {
	params := e.Claims.Evidence
	if params.Mode == "" {
		params.Mode = claims.ModeGraph
	}
	if params.Budget <= 0 {
		params.Budget = 1500
	}
	params.Delta = e.Params.Delta
	return params
}

// claimJobs splits each pair's input into claims with their evidence
// windows, and lists the model queries they need (none without a
// ClaimVerifier).
func (e *Evaluator) claimJobs(ctx context.Context, idx *sampleIndex, graphs []*kgeval.PairGraph, results []kgeval.KGResult, rep *Report, cal *claims.Calibration, progress func(int, int)) ([]claimJob, []kgeval.ClaimQuery, error) {
	cascade := cal.Cascade
	if !e.Claims.Cascade {
		cascade = nil
	}
	params := e.evidenceParams()
	byGraph := map[string]*kgeval.PairGraph{}
	for _, g := range graphs {
		byGraph[kgeval.JoinKey(g.Sample, g.Pair)] = g
	}
	var jobs []claimJob
	var queries []kgeval.ClaimQuery
	// About 10 reports, not one per graph: a report is a line on the
	// terminal and a step of a dashboard job.
	every := max(1, len(results)/10)
	for i := range results {
		if (i+1)%every == 0 || i+1 == len(results) {
			progress(i+1, len(results))
		}
		r := &results[i]
		p, s, ok := idx.of(r)
		if !ok || p.Input == kgeval.TextQuestion {
			continue
		}
		in := claims.Input{Text: scoring.InputText(s, p), Passages: scoring.Passages(s, p), Question: s.Question, Graph: byGraph[kgeval.JoinKey(r.Sample, r.Pair)], Result: r, Prepared: idx.prepared}
		if !hasText(in.Passages) {
			noClaims(r, "the context side has no text")
			continue
		}
		if params.Mode == claims.ModeCosine {
			in.Cosine = e.cosine(ctx)
		}
		checks, err := claims.Check(in, params)
		if err != nil {
			return nil, nil, err
		}
		j := claimJob{result: i, pair: p.Name, checks: checks, query: make([]int, len(checks)), passages: in.Passages}
		for k, c := range checks {
			j.query[k] = -1
			if !e.asks(p.Name) || (cascade != nil && !cascade.Asks(&checks[k], cal.WithoutModel.Predict(c.Features))) {
				if e.asks(p.Name) {
					rep.ClaimSettled++
				}
				continue
			}
			j.query[k] = len(queries)
			queries = append(queries, kgeval.ClaimQuery{Evidence: claims.Window(c, in.Passages), Claim: c.Text,
				Question: s.Question, Preceding: preceding(s, p, in.Text, c)})
		}
		jobs = append(jobs, j)
		rep.Claims += len(checks)
	}
	return jobs, queries, nil
}

// asks says whether the ClaimVerifier is asked about the claims of pair:
// there is one, and VerifyPairs (scoring.verify_pairs) is empty or names
// the pair. Claims of other pairs keep the calibration without the model.
func (e *Evaluator) asks(pair string) bool {
	return e.ClaimVerifier != nil && (len(e.VerifyPairs) == 0 || slices.Contains(e.VerifyPairs, pair))
}

// askClaims asks the ClaimVerifier the queries and counts them in rep.
func (e *Evaluator) askClaims(ctx context.Context, queries []kgeval.ClaimQuery, rep *Report, progress func(string) func(int, int)) ([]kgeval.ClaimProb, []error, error) {
	if len(queries) == 0 {
		return nil, nil, nil
	}
	asked := progress("claims")
	asked(0, len(queries))
	ps, errs, err := e.ClaimVerifier.CheckClaims(ctx, queries, asked)
	if err != nil {
		return nil, nil, err
	}
	rep.ClaimQueries = len(queries)
	for i := range ps {
		if errs[i] != nil {
			rep.ClaimFailed++
		} else {
			rep.ClaimTokens += ps[i].Tokens
		}
	}
	return ps, errs, nil
}

// preceding is the input text before claim c, for the checker's context
// form: an answer's earlier sentences. A sample whose answer is one claim
// of a longer answer (a claim-level dataset) may give that answer's text
// before it as metadata "preceding" (testdata/README.md), read for the
// answer's first claim.
func preceding(s *kgeval.Sample, p kgeval.Pair, text string, c kgeval.ClaimCheck) string {
	before := strings.TrimSpace(text[:min(max(c.Start, 0), len(text))])
	if p.Input != kgeval.TextAnswer {
		return before
	}
	if given, ok := s.Metadata["preceding"].(string); ok && strings.TrimSpace(given) != "" {
		return strings.TrimSpace(strings.TrimSpace(given) + " " + before)
	}
	return before
}

// hasText reports whether some passage has text.
func hasText(ps []claims.Passage) bool {
	for _, p := range ps {
		if strings.TrimSpace(p.Text) != "" {
			return true
		}
	}
	return false
}

// noClaims leaves the claim metrics of r null with the reason.
func noClaims(r *kgeval.KGResult, why string) {
	if r.Reasons == nil {
		r.Reasons = map[string]string{}
	}
	for _, m := range []string{metricreg.MetricClaimScore, metricreg.MetricClaimScoreMin, metricreg.MetricPSupported, metricreg.MetricClaimContradiction} {
		r.SetValue(m, nil)
		r.Reasons[m] = why
	}
}

// cosine returns the encoder cosine of a claim with each sentence, through
// the run's embedder (and its cache).
func (e *Evaluator) cosine(ctx context.Context) func(string, []string) ([]float64, error) {
	return func(claim string, sents []string) ([]float64, error) {
		vs, err := e.Embedder.Embed(ctx, append([]string{claim}, sents...))
		if err != nil {
			return nil, err
		}
		out := make([]float64, len(sents))
		for i := range sents {
			out[i] = metrics.Cosine(vs[0], vs[i+1])
		}
		return out, nil
	}
}

// claimCost is what one claim's answer cost the model: its requests sent
// now (one completion token each: the answer is one token) and their
// prompt tokens, or, read from the cache, a hit with the prompt tokens it
// cost when asked.
func claimCost(p kgeval.ClaimProb) kgeval.LedgerEntry {
	var e kgeval.LedgerEntry
	asked := len(p.FormTokens)
	if p.Cached {
		e.CacheHits = int64(max(asked, 1) * max(p.Chunks, 1))
		e.CachedPromptTokens = int64(p.CachedTokens)
		return e
	}
	e.Requests = int64(max(asked, 1) * max(p.Chunks, 1))
	e.CompletionTokens = e.Requests
	e.PromptTokens, e.CachedPromptTokens = int64(p.Tokens), int64(p.CachedTokens)
	return e
}
