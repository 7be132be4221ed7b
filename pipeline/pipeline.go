// Package pipeline holds kgeval's use cases, each one function with an
// options struct: Evaluate (a run with its start / resume / replace policy
// and call accounting, or one shard of a run that several workers share;
// both in evaluate.go), Sweep, the sensitivity experiment
// (PlanSensitivity, then each step evaluated, then Read), ExportCache and
// ImportCache, Doctor. They depend on the domain's service interfaces
// (readmodel.Services); package runner builds the adapters once and is
// what the CLI and the dashboard's jobs ask.
//
// The Evaluator is the evaluation itself, one stage after the other on one
// evaluation value (stages.go; each stage that calls the scoring room sits
// in a file of its own, and each text is prepared once for all of them):
// extract triplets from every text
// of a dataset (deduplicated, cached), embed entity labels (cached), build
// the pair graphs, store them, score them with a KG engine and store the
// scores, then compute and store the other selected per-sample metrics
// (triplet similarity, encoder metrics, the LLM judge's). A resumed run
// skips what is already stored (Evaluator.Done, MetricsDone).
// scoring.RuleExtractor is the model-free extractor of `extraction.method: rules`;
// Evaluator.RuleFacts adds the same rule-read triplets to the model's
// (`both`, the default).
package pipeline

import (
	"context"
	"time"

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
	// (triplet similarity, encoder and judge metrics; see metricreg.ExpandMetrics).
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
	// VerifyPairs names the pairs the Verifier or the ClaimVerifier checks (empty: every pair
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
	// ClaimTokens the prompt tokens the endpoint counted for them,
	// ClaimSettled the claims the cascade settled without asking.
	Claims, ClaimQueries, ClaimFailed, ClaimTokens, ClaimSettled int
	// ClaimLedger is what the claims' model answers cost, per pair: the
	// requests sent now (one completion token each) with their prompt
	// tokens, and the answers read from the cache with what they cost.
	ClaimLedger map[string]kgeval.LedgerEntry
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

// Evaluate runs the whole pipeline for samples under run, one stage after
// the other on one evaluation value (stages.go): load, extract, ground,
// embed, build and store, score, verify, claims, metrics, judge. Each
// stage's time goes to Report.Stages; a stage cut short by an error or an
// interrupt still reports the time it ran, so a resumed run's record adds
// up.
func (e *Evaluator) Evaluate(ctx context.Context, run string, samples []kgeval.Sample) (*Report, error) {
	v := e.newEvaluation(run, samples)
	rep := v.rep
	defer v.end()
	v.load()

	v.begin("extract")
	if err := v.extract(ctx); err != nil {
		return rep, err
	}
	v.end()
	if e.Grounding != kgeval.GroundingOff {
		v.begin("ground")
		v.ground()
		if err := e.Store.WriteGrounding(ctx, run, rep.Grounding); err != nil {
			return rep, err
		}
		v.end()
	}
	if e.RuleFacts {
		v.addRuleFacts()
	}
	v.begin("embed")
	if err := v.embed(ctx); err != nil {
		return rep, err
	}
	v.begin("store")
	if err := v.build(); err != nil {
		return rep, err
	}
	rows, err := e.Store.WritePairGraphs(ctx, run, v.graphs)
	if err != nil {
		return rep, err
	}
	rep.GraphRows = rows
	v.end()
	v.progress("store")(len(v.graphs), len(v.graphs))

	v.begin("score")
	if err := v.score(ctx); err != nil {
		return rep, err
	}
	if e.Verifier != nil {
		v.begin("verify")
		if err := v.verify(ctx); err != nil {
			return rep, err
		}
	}
	v.begin("claims")
	if err := v.claims(ctx); err != nil {
		return rep, err
	}
	v.begin("score")
	if err := v.storeScores(ctx); err != nil {
		return rep, err
	}
	v.end()
	v.progress("score")(len(rep.Results), len(rep.Results))

	if !v.hasMetrics() {
		return rep, nil
	}
	v.begin("metrics")
	if err := v.metrics(ctx); err != nil {
		return rep, err
	}
	return rep, v.judge(ctx)
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
