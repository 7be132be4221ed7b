// Package pipeline holds kgeval's use cases, each one function with an
// options struct that the CLI and the dashboard can call alike: Evaluate (a
// run with its start / resume / replace policy and call accounting), Sweep,
// Sensitivity, ExportCache and ImportCache, Doctor. They depend on the
// domain's service interfaces; package cmd wires the adapters.
//
// The Evaluator is the evaluation itself: extract triplets from every text
// of a dataset (deduplicated, cached), embed entity labels (cached), build
// the pair graphs, store them, score them with a KG engine and store the
// scores, then compute and store the other selected per-sample metrics
// (triplet similarity, encoder metrics, the LLM judge's). A resumed run
// skips what is already stored (Evaluator.Done, MetricsDone).
// RuleExtractor is the model-free extractor of `extraction.method: rules`;
// Evaluator.RuleFacts adds the same rule-read triplets to the model's
// (`both`, the default).
package pipeline

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/scoring"
)

// Writer is what an Evaluator writes: pair graphs, scores, metric values
// and grounding checks.
type Writer interface {
	WritePairGraphs(ctx context.Context, run string, graphs []*kgeval.PairGraph) (int, error)
	WriteKGResults(ctx context.Context, run, variant, engine string, p kgeval.GraphParams, results []kgeval.KGResult) error
	WriteMetricScores(ctx context.Context, run string, scores []kgeval.MetricScore) error
	// WriteGrounding stores the grounding check of each sample's texts
	// (kept counts and dropped triplets with their reasons).
	WriteGrounding(ctx context.Context, run string, gs []kgeval.Grounding) error
}

// Evaluator holds the adapters of one evaluation.
type Evaluator struct {
	Extractor kgeval.Extractor
	Embedder  kgeval.Embedder
	Store     Writer
	Engine    kgeval.KGEngine
	Params    kgeval.GraphParams
	Pairs     []kgeval.Pair
	// Progress, if set, is told about each stage's progress.
	Progress func(stage string, done, total int)
	// Metrics are the per-sample metrics to compute beside the KG scores
	// (triplet similarity, encoder and judge metrics; see kgeval.ExpandMetrics).
	Metrics []string
	// Tokens gives contextual token vectors for bert_score_f1 (nil: the
	// metric is null).
	Tokens kgeval.TokenEmbedder
	// Judge computes the LLM-judged metrics; nil makes them null.
	Judge kgeval.Judge
	// JudgeConcurrency is how many samples are judged at once (default 1).
	// A sample's model questions go one after the other, so this is what
	// keeps several model slots busy.
	JudgeConcurrency int
	// MetricsDone, if set, tells whether a sample has all its metric values
	// stored (a resumed run): with all its pair graphs done it is skipped.
	MetricsDone func(sample string) bool
	// OnTexts, if set, is told before extraction how many distinct texts of
	// each kind will go to the extractor (cached or not), and how many
	// distinct context passages the samples hold.
	OnTexts func(byKind map[kgeval.Text]int, passages int)
	// Verifier, if set, checks what the graphs left open (scoring.verify:
	// llm); its verdicts are kept beside the graph's.
	Verifier kgeval.Verifier
	// VerifyPairs names the pairs the Verifier checks (empty: every pair
	// whose input is not the question).
	VerifyPairs []string
	// ClaimVerifier, if set, gives each claim the model's P(supported)
	// (scoring.verify: prob; SPEC §4d). Claims are checked without it too.
	ClaimVerifier kgeval.ClaimVerifier
	// Claims are the claim checks' settings: the evidence window and the
	// calibration (nil: claims.DefaultCalibration).
	Claims ClaimOptions
	// Grounding is extraction.grounding: drop (default when empty), keep or
	// off (SPEC §2b). Only extracted triplets are checked; a dataset's own
	// triplets are taken as given.
	Grounding string
	// RuleFacts adds the triplets read by rule to every extracted text's,
	// after the grounding check (extraction.method both).
	RuleFacts bool
	// Done, if set, tells which pair graphs already have their scores (a
	// resumed run): they are not built, stored or scored again, and a sample
	// whose graphs are all done is not extracted or embedded again.
	Done func(sample, pair string) bool
}

// Report is what an evaluation produced.
type Report struct {
	Run        string
	Samples    int
	Results    []kgeval.KGResult
	Errors     []SampleError
	Stages     map[string]time.Duration
	Texts      int // distinct texts sent to extraction (after dedup)
	Extracted  int // of which not cached
	GraphRows  int
	EmbedTexts int
	// Metrics are the per-sample metric values computed.
	Metrics []kgeval.MetricScore
	// Resumed counts the pair graphs skipped because they were scored
	// before (Evaluator.Done).
	Resumed int
	// Grounding is the grounding check of every extracted text of the
	// evaluated samples; Kept and Dropped add it up per text kind.
	Grounding []kgeval.Grounding
	Kept      map[kgeval.Text]int
	Dropped   map[kgeval.Text]int
	// VerifyBatches, VerifyFacts and VerifyFailed count the model check's
	// questions (one per pair graph), the triplets asked and the questions
	// the model could not answer.
	VerifyBatches, VerifyFacts, VerifyFailed int
	// Claims counts the claims checked; ClaimQueries the model questions
	// they made (after deduplication), ClaimFailed those that failed,
	// ClaimTokens the prompt tokens the endpoint counted for them.
	Claims, ClaimQueries, ClaimFailed, ClaimTokens int
}

// SampleError is a sample whose text could not be extracted.
type SampleError struct {
	Sample string `json:"sample"`
	Text   string `json:"text"`
	Error  string `json:"error"`
}

type textRef struct {
	sample int
	text   kgeval.Text
	pass   int // passage index for contexts
	idx    int // index into the deduplicated texts
}

// of returns where the triplets of the text r refers to go in tri.
func (r textRef) of(tri []kgeval.SampleTriplets) *[]kgeval.Triplet {
	st := &tri[r.sample]
	switch r.text {
	case kgeval.TextQuestion:
		return &st.Question
	case kgeval.TextAnswer:
		return &st.Answer
	case kgeval.TextReference:
		return &st.Reference
	}
	return &st.Contexts[r.pass]
}

// Evaluate runs the whole pipeline for samples under run.
func (e *Evaluator) Evaluate(ctx context.Context, run string, samples []kgeval.Sample) (*Report, error) {
	rep := &Report{Run: run, Samples: len(samples), Stages: map[string]time.Duration{}}
	// Stage timings; a stage cut short by an error or an interrupt still
	// reports the time it ran, so a resumed run's record adds up.
	var (
		stage string
		start time.Time
	)
	begin := func(name string) { stage, start = name, time.Now() }
	end := func() { rep.Stages[stage] += time.Since(start); stage = "" }
	defer func() {
		if stage != "" {
			end()
		}
	}()
	done := func(sample, pair string) bool { return e.Done != nil && e.Done(sample, pair) }
	if e.Done != nil {
		var pending []kgeval.Sample
		for _, s := range samples {
			all := e.MetricsDone == nil || len(e.Metrics) == 0 || e.MetricsDone(s.ID)
			for _, p := range e.Pairs {
				all = all && done(s.ID, p.Name)
			}
			if all {
				rep.Resumed += len(e.Pairs)
				continue
			}
			pending = append(pending, s)
		}
		samples = pending
	}
	progress := func(stage string) func(int, int) {
		return func(d, t int) {
			if e.Progress != nil {
				e.Progress(stage, d, t)
			}
		}
	}

	// 1. Extraction: every text that has no pre-extracted triplets, once.
	begin("extract")
	var texts []kgeval.ExtractRequest
	var refs []textRef
	index := map[kgeval.ExtractRequest]int{}
	add := func(si int, t kgeval.Text, pass int, x kgeval.ExtractRequest) {
		if _, ok := index[x]; !ok {
			index[x] = len(texts)
			texts = append(texts, x)
		}
		refs = append(refs, textRef{si, t, pass, index[x]})
	}
	need := e.neededTexts()
	for si, s := range samples {
		st := s.Triplets
		if need[kgeval.TextQuestion] {
			if _, ok := st.Triplets(kgeval.TextQuestion); !ok {
				add(si, kgeval.TextQuestion, 0, kgeval.ExtractRequest{Text: s.Question, Asked: true})
			}
		}
		if need[kgeval.TextAnswer] {
			if _, ok := st.Triplets(kgeval.TextAnswer); !ok {
				add(si, kgeval.TextAnswer, 0, kgeval.ExtractRequest{Text: s.Answer, Question: s.Question})
			}
		}
		if need[kgeval.TextReference] {
			if _, ok := st.Triplets(kgeval.TextReference); !ok {
				add(si, kgeval.TextReference, 0, kgeval.ExtractRequest{Text: s.Reference, Question: s.Question})
			}
		}
		if need[kgeval.TextContexts] {
			if _, ok := st.Triplets(kgeval.TextContexts); !ok {
				for pi, p := range s.Contexts {
					add(si, kgeval.TextContexts, pi, kgeval.ExtractRequest{Text: p})
				}
			}
		}
	}
	rep.Texts = len(texts)
	if e.OnTexts != nil {
		byKind := map[kgeval.Text]int{}
		counted := map[int]bool{}
		passages := map[string]bool{}
		for _, r := range refs {
			if !counted[r.idx] {
				counted[r.idx] = true
				byKind[r.text]++
			}
		}
		for _, s := range samples {
			for _, p := range s.Contexts {
				passages[p] = true
			}
		}
		e.OnTexts(byKind, len(passages))
	}
	var extracted []kgeval.Extraction
	if len(texts) > 0 {
		var err error
		if extracted, err = e.Extractor.Extract(ctx, texts, progress("extract")); err != nil {
			return rep, fmt.Errorf("extract: %w", err)
		}
	}
	for _, x := range extracted {
		if !x.Cached && x.Err == nil {
			rep.Extracted++
		}
	}
	// Assemble each sample's triplets: provided ones, then extracted ones.
	tri := make([]kgeval.SampleTriplets, len(samples))
	failed := make([]map[kgeval.Text]string, len(samples))
	for si, s := range samples {
		if s.Triplets != nil {
			tri[si] = *s.Triplets
		}
		if tri[si].Contexts == nil && need[kgeval.TextContexts] {
			tri[si].Contexts = make([][]kgeval.Triplet, len(s.Contexts))
		}
		failed[si] = map[kgeval.Text]string{}
	}
	for _, r := range refs {
		x := extracted[r.idx]
		if x.Err != nil {
			failed[r.sample][r.text] = x.Err.Error()
			rep.Errors = append(rep.Errors, SampleError{Sample: samples[r.sample].ID, Text: string(r.text), Error: x.Err.Error()})
			continue
		}
		ts := x.Triplets
		if ts == nil {
			ts = []kgeval.Triplet{}
		}
		*r.of(tri) = ts
	}
	end()

	// 1b. Grounding (SPEC §2b): extracted triplets whose subject or object
	// does not occur in their text are reported, and dropped.
	if e.Grounding != kgeval.GroundingOff {
		begin("ground")
		rep.Kept, rep.Dropped = map[kgeval.Text]int{}, map[kgeval.Text]int{}
		extractedText := map[[2]int]bool{} // (sample, kind) extracted, not given
		for _, r := range refs {
			extractedText[[2]int{r.sample, textIndex(r.text)}] = true
		}
		for si, s := range samples {
			gs := scoring.GroundSample(s, &tri[si], func(t kgeval.Text) bool { return extractedText[[2]int{si, textIndex(t)}] }, e.Grounding != kgeval.GroundingKeep)
			for _, g := range gs {
				rep.Kept[g.Text] += g.Kept
				rep.Dropped[g.Text] += len(g.Dropped)
			}
			rep.Grounding = append(rep.Grounding, gs...)
		}
		if err := e.Store.WriteGrounding(ctx, run, rep.Grounding); err != nil {
			return rep, err
		}
		end()
	}

	if e.RuleFacts {
		addRuleFacts(texts, refs, extracted, tri, e.Grounding != kgeval.GroundingOff && e.Grounding != kgeval.GroundingKeep)
	}

	// 2. Embeddings of every entity and relation key.
	begin("embed")
	var keys []string
	seen := map[string]bool{}
	// An answer that a question's asked facts are checked against also
	// needs its triplets' phrases (scoring.PhraseKeys; only answers: the
	// contexts' phrases would multiply the labels to embed by five).
	phrases := map[kgeval.Text]bool{}
	for _, p := range e.Pairs {
		if scoring.UsesPhrases(p) {
			phrases[p.Context] = true
		}
	}
	for si := range samples {
		for _, t := range []kgeval.Text{kgeval.TextQuestion, kgeval.TextAnswer, kgeval.TextReference, kgeval.TextContexts} {
			ts, _ := tri[si].Triplets(t)
			ks := scoring.LabelKeys(ts)
			if phrases[t] {
				ks = append(ks, scoring.AnswerPhraseKeys(ts)...)
			}
			for _, k := range ks {
				if !seen[k] {
					seen[k] = true
					keys = append(keys, k)
				}
			}
		}
	}
	vec := scoring.Vectors{}
	for lo := 0; lo < len(keys); lo += 256 {
		part := keys[lo:min(lo+256, len(keys))]
		vs, err := e.Embedder.Embed(ctx, part)
		if err != nil {
			return rep, fmt.Errorf("embed entity labels: %w", err)
		}
		for i, k := range part {
			vec[k] = vs[i]
		}
		progress("embed")(min(lo+256, len(keys)), len(keys))
	}
	rep.EmbedTexts = len(keys)
	end()

	// 3. Pair graphs.
	begin("store")
	var graphs []*kgeval.PairGraph
	var skipped []kgeval.KGResult
	for si, s := range samples {
		for _, p := range e.Pairs {
			if done(s.ID, p.Name) {
				rep.Resumed++
				continue
			}
			if msg, bad := failed[si][p.Input]; bad {
				skipped = append(skipped, kgeval.KGResult{Sample: s.ID, Pair: p.Name, Reason: kgeval.ReasonExtractionFailed + string(p.Input) + " failed: " + msg})
				continue
			}
			if msg, bad := failed[si][p.Context]; bad {
				skipped = append(skipped, kgeval.KGResult{Sample: s.ID, Pair: p.Name, Reason: kgeval.ReasonExtractionFailed + string(p.Context) + " failed: " + msg})
				continue
			}
			in, _ := tri[si].Triplets(p.Input)
			cx, _ := tri[si].Triplets(p.Context)
			g, err := scoring.Build(s.ID, p, scoring.Side{Text: p.Input, Triplets: in}, scoring.Side{Text: p.Context, Triplets: cx}, vec, e.Params)
			if err != nil {
				return rep, err
			}
			graphs = append(graphs, g)
		}
	}
	rows, err := e.Store.WritePairGraphs(ctx, run, graphs)
	if err != nil {
		return rep, err
	}
	rep.GraphRows = rows
	end()
	progress("store")(len(graphs), len(graphs))

	// 4. Scores.
	begin("score")
	results, err := e.Engine.Score(ctx, run, graphs, e.Params)
	if err != nil {
		return rep, fmt.Errorf("score with %s: %w", e.Engine.Name(), err)
	}
	e.textVerdicts(samples, results)
	e.textVerdicts(samples, skipped) // atom_support needs no extraction
	end()
	if e.Verifier != nil {
		begin("verify")
		if err := e.verify(ctx, samples, results, rep, progress("verify")); err != nil {
			return rep, fmt.Errorf("verify: %w", err)
		}
		end()
	}
	begin("claims")
	if err := e.claimChecks(ctx, samples, graphs, results, rep, progress); err != nil {
		return rep, fmt.Errorf("claims: %w", err)
	}
	end()
	begin("score")
	results = append(results, skipped...)
	if err := e.Store.WriteKGResults(ctx, run, "default", e.Engine.Name(), e.Params, results); err != nil {
		return rep, err
	}
	rep.Results = results
	end()
	progress("score")(len(results), len(results))

	// 5. Per-sample metrics: triplet similarity and encoder metrics in one
	// batch, then the judge's, JudgeConcurrency samples at a time, each
	// stored as it comes (a killed run keeps what was judged; the answers
	// are cached anyway).
	ts, enc, base, judged := scoring.SplitMetrics(e.Metrics)
	if len(ts)+len(enc)+len(base)+len(judged) == 0 {
		return rep, nil
	}
	begin("metrics")
	ms, err := e.otherMetrics(ctx, samples, tri, failed)
	if err != nil {
		return rep, err
	}
	if err := e.Store.WriteMetricScores(ctx, run, ms); err != nil {
		return rep, err
	}
	rep.Metrics = ms
	if len(judged) > 0 {
		if err := e.judgeAll(ctx, run, samples, judged, rep, progress("judge")); err != nil {
			return rep, err
		}
	}
	end()
	return rep, nil
}

func (e *Evaluator) neededTexts() map[kgeval.Text]bool {
	need := map[kgeval.Text]bool{}
	if ts, _, _, _ := scoring.SplitMetrics(e.Metrics); len(ts) > 0 {
		need[kgeval.TextQuestion], need[kgeval.TextAnswer], need[kgeval.TextContexts] = true, true, true
	}
	for _, p := range e.Pairs {
		need[p.Input], need[p.Context] = true, true
	}
	return need
}

// judgeAll judges samples, JudgeConcurrency at a time, and stores each
// sample's values as soon as they come (a killed run keeps what was judged).
// The first error stops the samples not yet started.
func (e *Evaluator) judgeAll(ctx context.Context, run string, samples []kgeval.Sample, names []string, rep *Report, progress func(int, int)) error {
	progress(0, len(samples))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(e.JudgeConcurrency, 1))
	var mu sync.Mutex
	done := 0
	for _, s := range samples {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			var got []kgeval.MetricScore
			if e.Judge == nil {
				for _, m := range names {
					got = append(got, kgeval.MetricScore{Sample: s.ID, Metric: m, Family: kgeval.MetricFamily(m), Reason: "no LLM judge configured"})
				}
			} else {
				var err error
				if got, err = e.Judge.Judge(gctx, s, names); err != nil {
					return fmt.Errorf("judge sample %s: %w", s.ID, err)
				}
			}
			// A finished judgement is stored even when the stage is
			// stopping (an interrupt, another sample's failure).
			mu.Lock()
			defer mu.Unlock()
			if err := e.Store.WriteMetricScores(context.WithoutCancel(gctx), run, got); err != nil {
				return err
			}
			rep.Metrics = append(rep.Metrics, got...)
			done++
			progress(done, len(samples))
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}
