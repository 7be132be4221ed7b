package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/models"
	"github.com/kgeval/kgeval/readmodel"
	"github.com/kgeval/kgeval/scoring/claims"
)

// EvaluateOptions are one evaluation of a dataset as a run.
type EvaluateOptions struct {
	Run string
	// Dataset is the dataset file, Fingerprint its sha256; Samples its
	// valid records and Rejected how many it rejected.
	Dataset, Fingerprint string
	Samples              []kgeval.Sample
	Rejected             int
	// Replace deletes a stored run of the same name first; Resume finishes
	// a stored run (same dataset, models, engine and scoring settings);
	// without either, a stored run of the same name is a conflict.
	Replace, Resume bool
	// Fresh asks the model again even for cached answers (the new answers
	// replace them); label vectors stay cached.
	Fresh bool
	// Config is the configuration in force (JSON, secrets redacted) and
	// Settings its scoring section, both recorded with the run.
	Config   string
	Settings kgeval.RunSettings
	// Grounding is extraction.grounding (drop, keep or off).
	Grounding string
	// RuleFacts adds the rule-read triplets to the model's
	// (extraction.method both; Evaluator.RuleFacts).
	RuleFacts bool
	// LLM (endpoint#model) and Encoder identify the models in the record.
	LLM, Encoder string
	// JudgeConcurrency is how many samples are judged at once.
	JudgeConcurrency int
	// Engine scores the pair graphs.
	Engine kgeval.KGEngine
	// Cache is the shared model cache; Models builds the adapters on the
	// run's cache (answers: the cache the model answers go through, which
	// --fresh makes write-only).
	Cache  kgeval.CacheService
	Models *models.Set
	// Progress, if set, is told about each stage's progress.
	Progress func(stage string, done, total int)
	// Log receives what the operator should know as it happens (a resume,
	// the texts to extract, an interrupt); nil discards it.
	Log io.Writer
	// Shard and Shards make this evaluation worker Shard of Shards on one
	// run (evaluate --shard i/n; see ShardOf): Shards 0 is a run of one
	// process. Samples stays the whole dataset; the worker evaluates its
	// shard of it.
	Shard, Shards int
	// total is the number of samples of the whole dataset when Samples
	// was cut to a shard.
	total int
	// Scores asks for the run's score rows in Evaluation.Scores (to print
	// its table): made from the scores the evaluation holds, read back
	// only on a resume.
	Scores bool
	// Rejections are the dataset's rejected records (the first of them),
	// reported with the outcome; CacheOnly says the models answer from
	// the cache alone (llm.cache_only), which the outcome reports.
	Rejections []kgeval.Rejection
	CacheOnly  bool
}

// Evaluation is what an evaluation did: the one outcome the CLI prints
// (render.Evaluation, render.EvaluationJSON) and a dashboard job records.
type Evaluation struct {
	*Report
	// Run is the run's name; Grounding extraction.grounding; Resumed says
	// it finished a stored run; Verified that the model check
	// (scoring.verify llm) ran; CacheOnly that the models answered from
	// the cache alone.
	Run                          string
	Grounding                    string
	Resumed, Verified, CacheOnly bool
	// Models are the adapters it used (their counters say what they did).
	Models *models.Adapters
	// Calls is the run's call accounting over all its attempts, Ledger
	// the model's cost per stage and pair over them.
	Calls  kgeval.Calls
	Ledger kgeval.Ledger
	// Usage is what this process's model clients did (models.Set.Usage);
	// Usage.All.Refused the requests --cache-only found no answer for.
	Usage models.Usage
	// Scores are the run's score rows, in record order, when
	// EvaluateOptions.Scores asked for them.
	Scores []readmodel.SampleScores
	// Rejected are the dataset's rejected records (EvaluateOptions.Rejections).
	Rejected []kgeval.Rejection
}

// Evaluate runs one evaluation with its start / resume / replace policy:
// it records the run (a new one; a replaced one; or, with Resume, the
// stored one checked against this evaluation and continued), evaluates the
// samples with the pipeline, keeps the call accounting on the run record
// (in the transaction of every cached answer, and after every failed
// call, so that a killed process loses none of it) and records the outcome:
// done, failed, or interrupted (a cancelled ctx). Errors: ECONFLICT for a
// stored run without Resume or Replace, EINVALID for a resume of another
// evaluation, and those of the store and the pipeline.
func Evaluate(ctx context.Context, store readmodel.Services, o EvaluateOptions) (*Evaluation, error) {
	if o.Shards > 0 {
		if err := checkShard(o); err != nil {
			return nil, err
		}
		o.total, o.Samples = len(o.Samples), ShardOf(o.Samples, o.Shard, o.Shards)
	}
	ev, err := evaluate(ctx, store, o)
	if err != nil || !o.Scores {
		return ev, err
	}
	// After the run is recorded: a failed read of its scores leaves it done.
	ev.Scores, err = scoreRows(ctx, store, o, ev.Report)
	return ev, err
}

func evaluate(ctx context.Context, store readmodel.Services, o EvaluateOptions) (ev *Evaluation, err error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	a := &attempt{store: store, o: o, prevStages: kgeval.Stages{}}
	if err := a.open(ctx); err != nil {
		return nil, err
	}
	// The models on the run's cache. The call accounting reaches the run
	// record in the same transaction as every cached answer.
	cache := o.Cache.RunCache(o.Run, a.calls)
	if sc, ok := o.Cache.(shardCacher); ok && a.shards != nil {
		cache = sc.ShardCache(o.Run, o.Shard, a.calls)
	}
	answers := cache
	if o.Fresh {
		answers = writeOnly{cache}
	}
	ev = &Evaluation{Run: o.Run, Grounding: o.Grounding, Resumed: o.Resume, Verified: o.Settings.Verify == "llm", CacheOnly: o.CacheOnly, Rejected: o.Rejections}
	defer func() {
		err = a.finish(ctx, ev, err)
		if a.models != nil {
			ev.Usage = o.Models.Usage()
		}
	}()
	if a.models, err = o.Models.Adapters(cache, answers); err != nil {
		return ev, err
	}
	ev.Models = a.models
	e := a.evaluator(ctx)
	fmt.Fprintf(o.Log, "evaluate: run %q, %d samples, engine %s, model %s, encoder %s\n", o.Run, len(o.Samples), o.Engine.Name(), o.LLM, o.Encoder)
	if err := store.WriteSamples(ctx, o.Run, o.Samples); err != nil {
		return ev, err
	}
	if a.rep, err = e.Evaluate(ctx, o.Run, o.Samples); err != nil {
		return ev, err
	}
	ev.Report = a.rep
	if o.Grounding != kgeval.GroundingOff && len(a.rep.Kept)+len(a.rep.Dropped) > 0 && !o.Resume && a.shards == nil {
		if err := store.UpdateRun(ctx, o.Run, kgeval.RunUpdate{Grounding: &kgeval.GroundingCounts{Mode: o.Grounding, Kept: a.rep.Kept, Dropped: a.rep.Dropped}}); err != nil {
			return ev, fmt.Errorf("recording the grounding counts of run %q: %w", o.Run, err)
		}
	}
	return ev, nil
}

// attempt is one Evaluate call on a run: the run record as it was, and the
// models and report of this attempt.
type attempt struct {
	store readmodel.Services
	o     EvaluateOptions
	// old is the stored run a resume continues (the zero Run otherwise).
	old kgeval.Run
	// prevCalls and prevStages are the accounting of the run's earlier
	// attempts; done and metricsDone what they stored.
	prevCalls   kgeval.Calls
	prevStages  kgeval.Stages
	prevLedger  kgeval.Ledger
	done        map[string]bool
	metricsDone map[string]map[string]bool
	models      *models.Adapters
	rep         *Report
	// shards is the store of a sharded run (nil: a run of one process).
	shards ShardLedger
}

// record is the run record of this evaluation as it starts.
func (a *attempt) record() kgeval.Run {
	o, samples := a.o, len(a.o.Samples)
	if o.total > 0 {
		samples = o.total
	}
	return kgeval.Run{Name: o.Run, Dataset: o.Dataset, Fingerprint: o.Fingerprint, Config: o.Config, Settings: &o.Settings, LLM: o.LLM,
		Encoder: o.Encoder, Engine: o.Engine.Name(), Status: kgeval.RunRunning, Samples: samples, Rejected: o.Rejected,
		Started: time.Now().UTC()}
}

// open records the run: new, replaced, or resumed.
func (a *attempt) open(ctx context.Context) error {
	store, o, run := a.store, a.o, a.o.Run
	if o.Shards > 0 {
		return a.openShard(ctx)
	}
	record := a.record()
	old, err := store.GetRun(ctx, run)
	switch {
	case err != nil && kgeval.ErrorCode(err) != kgeval.ENOTFOUND:
		return err
	case err != nil: // a new run
		return store.CreateRun(ctx, record)
	case o.Replace:
		if err := store.DeleteRun(ctx, run); err != nil {
			return err
		}
		return store.CreateRun(ctx, record)
	case o.Resume:
		return a.resume(ctx, old, record)
	default:
		return kgeval.Errorf(kgeval.ECONFLICT, "run %q exists (status %s)", run, old.Status)
	}
}

// resume checks the stored run old against record, reads what its earlier
// attempts stored and marks it running again.
func (a *attempt) resume(ctx context.Context, old, record kgeval.Run) error {
	store, o, run := a.store, a.o, a.o.Run
	if err := Resumable(old, record); err != nil {
		return err
	}
	a.old = old
	if old.Calls != nil {
		a.prevCalls = *old.Calls
	}
	for k, s := range old.Stages {
		a.prevStages[k] = s
	}
	a.prevLedger = old.Ledger
	var err error
	if a.done, err = store.ScoredGraphs(ctx, run, kgeval.DefaultVariant); err != nil {
		return err
	}
	if a.metricsDone, err = store.MetricsDone(ctx, run); err != nil {
		return err
	}
	status, none, samples, rejected, resumes := kgeval.RunRunning, "", len(o.Samples), o.Rejected, old.Resumes+1
	if err := store.UpdateRun(ctx, run, kgeval.RunUpdate{Status: &status, Error: &none, Samples: &samples, Rejected: &rejected, Resumes: &resumes}); err != nil {
		return err
	}
	fmt.Fprintf(o.Log, "evaluate: resuming run %q (status %s): %d pair graphs already scored\n", run, old.Status, len(a.done))
	return nil
}

// calls is the run's call accounting: its earlier attempts' and this one's
// so far.
func (a *attempt) calls() kgeval.Calls {
	if a.models == nil || a.models.Calls == nil {
		return a.prevCalls
	}
	return a.prevCalls.Add(a.models.Calls())
}

// finish records the outcome of the attempt that ended with err (done,
// failed or interrupted), its stage times and call accounting, and returns
// err, or the error of recording it.
func (a *attempt) finish(ctx context.Context, ev *Evaluation, err error) error {
	run := a.o.Run
	status, msg := kgeval.RunDone, ""
	switch {
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		// The stored message fits every reader (the dashboard offers Resume);
		// the command line prints its own advice below.
		status, msg = kgeval.RunInterrupted, "interrupted: resume the run to finish it"
	case err != nil:
		status, msg = kgeval.RunFailed, err.Error()
	}
	stages := a.prevStages
	if a.rep != nil {
		for k, d := range a.rep.Stages {
			stages[k] += d.Seconds()
		}
	}
	cl, finished := a.calls(), time.Now().UTC()
	ledger := a.prevLedger.Add(a.ledger())
	ev.Ledger = ledger
	if a.shards != nil {
		if ferr := a.finishShard(context.WithoutCancel(ctx), status, msg, stages, cl); ferr != nil && err == nil {
			err = ferr
		}
	} else if ferr := a.store.UpdateRun(context.WithoutCancel(ctx), run, kgeval.RunUpdate{Status: &status, Error: &msg, Finished: &finished, Stages: stages, Calls: &cl, Ledger: ledger}); ferr != nil && err == nil {
		err = ferr
	}
	if status == kgeval.RunInterrupted {
		fmt.Fprintf(a.o.Log, "evaluate: run %q interrupted; finish it with the same command and --resume\n", run)
	}
	ev.Calls = cl
	return err
}

// evaluator is the pipeline of this attempt on its models.
func (a *attempt) evaluator(ctx context.Context) *Evaluator {
	o, models := a.o, a.models
	e := &Evaluator{
		Extractor: models.Extractor, Embedder: models.Embedder, Tokens: models.Tokens, Store: a.store, Engine: o.Engine,
		Params: o.Settings.GraphParams(), Pairs: o.Settings.Pairs, Metrics: nonKG(o.Settings.Metrics), Grounding: o.Grounding, RuleFacts: o.RuleFacts,
		Judge: models.Judge, JudgeConcurrency: o.JudgeConcurrency,
	}
	if o.Settings.Verify == "llm" {
		e.Verifier, e.VerifyPairs = models.Verifier, o.Settings.VerifyPairs
	}
	e.Claims.Evidence = claims.Params{Mode: o.Settings.Evidence, Budget: o.Settings.EvidenceTokens}
	if kgeval.AsksClaims(o.Settings.Verify) {
		e.ClaimVerifier, e.VerifyPairs = models.ClaimVerifier, o.Settings.VerifyPairs
		e.Claims.Cascade = o.Settings.Verify == kgeval.VerifyCascade
	}
	e.OnTexts = a.onTexts(ctx)
	if a.done != nil {
		e.Done = func(sample, pair string) bool { return a.done[kgeval.JoinKey(sample, pair)] }
		e.MetricsDone = func(sample string) bool {
			for _, name := range e.Metrics {
				if !a.metricsDone[sample][name] {
					return false
				}
			}
			return true
		}
	}
	e.Progress = a.progress(ctx)
	return e
}

// onTexts logs the texts to extract and records their counts on the run.
// The run record keeps the texts of the whole evaluation: a resume sees
// only what its unfinished samples still need, so it does not replace a
// count an earlier attempt recorded.
func (a *attempt) onTexts(ctx context.Context) func(map[kgeval.Text]int, int) {
	o := a.o
	// A shard counts only its own texts: a sharded run records none.
	keepTexts := o.Resume && a.old.Texts != nil || a.shards != nil
	return func(byKind map[kgeval.Text]int, passages int) {
		total := 0
		for _, n := range byKind {
			total += n
		}
		bound := 4*len(o.Samples) + passages
		fmt.Fprintf(o.Log, "extract: %d distinct texts for %d samples: %d questions, %d answers, %d references, %d context passages (at most %d: 4 per sample + 1 per distinct passage)\n",
			total, len(o.Samples), byKind[kgeval.TextQuestion], byKind[kgeval.TextAnswer], byKind[kgeval.TextReference], byKind[kgeval.TextContexts], bound)
		texts := kgeval.TextCounts{Question: byKind[kgeval.TextQuestion], Answer: byKind[kgeval.TextAnswer],
			Reference: byKind[kgeval.TextReference], Contexts: byKind[kgeval.TextContexts], Total: total, Bound: bound}
		if !keepTexts {
			if err := a.store.UpdateRun(ctx, o.Run, kgeval.RunUpdate{Texts: &texts}); err != nil {
				// The evaluation goes on: the counts are shown above and
				// only the run record misses them.
				fmt.Fprintf(o.Log, "evaluate: warning: the text counts were not recorded in run %q: %v\n", o.Run, err)
			}
		}
	}
}

// progress passes each stage's progress on to EvaluateOptions.Progress;
// after every failed call too, the accounting reaches the run record.
func (a *attempt) progress(ctx context.Context) func(string, int, int) {
	var flushed int64
	warned := false
	return func(stage string, d, total int) {
		if a.models.Calls != nil {
			if st := a.models.Calls(); st.Calls+st.Failures != flushed {
				flushed = st.Calls + st.Failures
				cl := a.calls()
				var err error
				if a.shards != nil {
					err = a.shards.UpdateShard(ctx, a.o.Run, a.o.Shard, kgeval.RunUpdate{Calls: &cl})
				} else {
					err = a.store.UpdateRun(ctx, a.o.Run, kgeval.RunUpdate{Calls: &cl})
				}
				// The accounting is written again at the end of the
				// attempt; one warning says the record lags until then.
				if err != nil && !warned && ctx.Err() == nil {
					warned = true
					fmt.Fprintf(a.o.Log, "evaluate: warning: the model-call counts were not recorded in run %q (they are written again when the attempt ends): %v\n", a.o.Run, err)
				}
			}
		}
		if a.o.Progress != nil {
			a.o.Progress(stage, d, total)
		}
	}
}

// Resumable checks that a stored run can be resumed by an evaluation whose
// record is now: the same dataset file content, models, engine and scoring
// settings (the metrics may change: a resumed run computes the values a
// sample lacks), else the resumed run would mix two evaluations. Errors:
// EINVALID naming what changed, as a MismatchError.
func Resumable(old, now kgeval.Run) error {
	if old.Fingerprint != now.Fingerprint {
		return mismatch(old.Name, kgeval.EINVALID, "cannot resume run %q: the dataset changed (sha256 %.12s, now %.12s)", old.Name, old.Fingerprint, now.Fingerprint)
	}
	for _, f := range []struct{ name, was, is string }{{"llm", old.LLM, now.LLM}, {"encoder", old.Encoder, now.Encoder}, {"engine", old.Engine, now.Engine}} {
		if f.was != f.is {
			return mismatch(old.Name, kgeval.EINVALID, "cannot resume run %q: %s was %s, now %s", old.Name, f.name, f.was, f.is)
		}
	}
	if old.Config != "" {
		var was, is kgeval.RunSettings
		if old.Settings != nil {
			was = *old.Settings
		}
		if now.Settings != nil {
			is = *now.Settings
		}
		was.Metrics, is.Metrics = nil, nil
		was.Communities, is.Communities = was.CommunityMode(), is.CommunityMode()
		was.VerifyForms, is.VerifyForms = verifyForms(was), verifyForms(is)
		a, _ := json.Marshal(was)
		b, _ := json.Marshal(is)
		if string(a) != string(b) {
			return mismatch(old.Name, kgeval.EINVALID, "cannot resume run %q: the scoring settings changed (was %s, now %s)", old.Name, a, b)
		}
	}
	return nil
}

// KeepCommunityMode returns settings with the community mode of the stored
// run old: an evaluation that resumes a run, or joins it as a shard worker,
// finishes it in the mode it started in, so that a run started before batch
// became the default keeps louvain-per-graph and its scores do
// not mix two modes.
func KeepCommunityMode(old kgeval.Run, settings kgeval.RunSettings) kgeval.RunSettings {
	var was kgeval.RunSettings
	if old.Settings != nil {
		was = *old.Settings
	}
	settings.Communities = was.CommunityMode()
	return settings
}

// verifyForms is a run's claim question forms; runs recorded before the
// key existed asked the claim form alone.
func verifyForms(s kgeval.RunSettings) []string {
	if len(s.VerifyForms) == 0 {
		return []string{"claim"}
	}
	return s.VerifyForms
}

// nonKG expands scoring.metrics (families and names) and drops the KG
// metrics, which are computed per pair, always.
func nonKG(values []string) []string {
	names, _ := metricreg.ExpandMetrics(values)
	var out []string
	for _, n := range names {
		if metricreg.MetricFamily(n) != metricreg.FamilyKG {
			out = append(out, n)
		}
	}
	return out
}

// writeOnly stores answers but never returns one (EvaluateOptions.Fresh).
type writeOnly struct{ kgeval.Cache }

func (writeOnly) Get(context.Context, []string) (map[string][]byte, error) {
	return map[string][]byte{}, nil
}

// Sharded runs: n `kgeval evaluate --shard i/n` workers evaluate disjoint
// parts of one dataset into one run (EvaluateOptions.Shard and Shards).
//
// A sample belongs to shard i when its index among the dataset's valid
// records (after --limit) mod n is i: membership depends only on the file
// and n, never on which worker starts first or how fast it goes, and
// interleaving spreads a dataset sorted by size or difficulty evenly over
// the workers. Every sample is scored exactly as in a run of one process
// (the pair graphs of a sample never meet another sample's, and every
// engine and community mode gives each graph the communities it gets
// alone), so the stored rows, and `kgeval export`, are those of
// a single run.
//
// The run record is shared: the first worker creates it (JoinRun, a MERGE
// on the name, so that two workers starting at once make one run), the
// others check it against their own evaluation. Each worker records its
// shard's status, stages and calls in the shard's own fields
// (ShardLedger.UpdateShard); the run stays running until every shard is
// done, and the worker that sees the last shard done sets it done with the
// sums of the shards' stages, calls and resumes.

// ShardLedger is what a sharded run needs of the store beyond Services: who
// joined and how far each shard got (graphstore.DB implements it).
type ShardLedger interface {
	// JoinRun creates the sharded run r or returns the stored record of
	// the run a worker on another shard created.
	JoinRun(ctx context.Context, r kgeval.Run) (kgeval.Run, error)
	// Shards reads the state of every shard of a sharded run.
	Shards(ctx context.Context, run string) ([]kgeval.ShardState, error)
	// UpdateShard sets the status, error, resumes, stages and calls of
	// shard i that u sets.
	UpdateShard(ctx context.Context, run string, i int, u kgeval.RunUpdate) error
}

// shardCacher is the CacheService of sharded runs: the shard's call
// accounting reaches its own field of the run record (graphstore.Cache).
type shardCacher interface {
	ShardCache(run string, i int, calls func() kgeval.Calls) kgeval.Cache
}

// ShardOf returns the samples of shard i of n: those whose index in
// samples mod n is i, in their order.
func ShardOf(samples []kgeval.Sample, i, n int) []kgeval.Sample {
	var out []kgeval.Sample
	for k := i; k < len(samples); k += n {
		out = append(out, samples[k])
	}
	return out
}

// checkShard checks EvaluateOptions.Shard and Shards against the dataset.
func checkShard(o EvaluateOptions) error {
	switch {
	case o.Shards < 1 || o.Shard < 0 || o.Shard >= o.Shards:
		return kgeval.Errorf(kgeval.EINVALID, "--shard %d/%d: want i/n with 0 <= i < n", o.Shard, o.Shards)
	case o.Shards > len(o.Samples):
		return kgeval.Errorf(kgeval.EINVALID, "--shard %d/%d: the dataset has only %d samples, fewer than the shards", o.Shard, o.Shards, len(o.Samples))
	case o.Replace:
		return kgeval.Errorf(kgeval.EINVALID, "--shard and --replace exclude each other (one worker would delete the others' work): delete the run first with `kgeval runs delete %s`", o.Run)
	}
	return nil
}

// openShard creates or joins the sharded run and claims this worker's
// shard: new, or resumed with --resume.
func (a *attempt) openShard(ctx context.Context) error {
	o, run := a.o, a.o.Run
	ss, ok := a.store.(ShardLedger)
	if !ok {
		return kgeval.Errorf(kgeval.EINTERNAL, "the store does not support sharded runs")
	}
	record := a.record()
	record.Shards = o.Shards
	stored, err := ss.JoinRun(ctx, record)
	if err != nil {
		return err
	}
	switch {
	case stored.Shards == 0:
		return kgeval.Errorf(kgeval.ECONFLICT, "run %q exists and is not sharded (status %s)", run, stored.Status)
	case stored.Shards != o.Shards:
		return kgeval.Errorf(kgeval.EINVALID, "run %q has %d shards, this worker says --shard %d/%d: every worker of a run must give the same n", run, stored.Shards, o.Shard, o.Shards)
	}
	if err := Resumable(stored, record); err != nil {
		return err
	}
	states, err := ss.Shards(ctx, run)
	if err != nil {
		return err
	}
	me := states[o.Shard]
	if me.Status != "" && !o.Resume {
		return kgeval.Errorf(kgeval.ECONFLICT, "shard %d/%d of run %q exists (status %s)", o.Shard, o.Shards, run, me.Status)
	}
	a.shards, a.old = ss, stored
	resumes := me.Resumes
	if me.Status != "" {
		resumes++
		if me.Calls != nil {
			a.prevCalls = *me.Calls
		}
		for k, s := range me.Stages {
			a.prevStages[k] = s
		}
		if a.done, err = a.store.ScoredGraphs(ctx, run, kgeval.DefaultVariant); err != nil {
			return err
		}
		if a.metricsDone, err = a.store.MetricsDone(ctx, run); err != nil {
			return err
		}
	}
	status, none := kgeval.RunRunning, ""
	if err := ss.UpdateShard(ctx, run, o.Shard, kgeval.RunUpdate{Status: &status, Error: &none, Resumes: &resumes}); err != nil {
		return err
	}
	if stored.Status != kgeval.RunRunning {
		// A resumed shard that had failed: the run is running again.
		if err := a.store.UpdateRun(ctx, run, kgeval.RunUpdate{Status: &status, Error: &none}); err != nil {
			return err
		}
	}
	fmt.Fprintf(o.Log, "evaluate: shard %d/%d of run %q: %d samples", o.Shard, o.Shards, run, len(o.Samples))
	if me.Status != "" {
		fmt.Fprintf(o.Log, ", resuming (status %s): %d pair graphs of the run already scored", me.Status, len(a.done))
	}
	fmt.Fprintln(o.Log)
	return nil
}

// finishShard records the outcome of this worker's shard and, when every
// shard is done, the run's: done, with the sums of the shards' stages,
// calls and resumes. A shard that failed or was interrupted marks the run
// so (its --resume makes it running again).
func (a *attempt) finishShard(ctx context.Context, status, msg string, stages kgeval.Stages, cl kgeval.Calls) error {
	o, run := a.o, a.o.Run
	if err := a.shards.UpdateShard(ctx, run, o.Shard, kgeval.RunUpdate{Status: &status, Error: &msg, Stages: stages, Calls: &cl}); err != nil {
		return err
	}
	if status != kgeval.RunDone {
		msg = fmt.Sprintf("shard %d/%d: %s", o.Shard, o.Shards, msg)
		return a.store.UpdateRun(ctx, run, kgeval.RunUpdate{Status: &status, Error: &msg})
	}
	// Read after this shard's write: of two workers finishing at once, the
	// later reader sees both shards done.
	states, err := a.shards.Shards(ctx, run)
	if err != nil {
		return err
	}
	done, sumStages, sumCalls, resumes := 0, kgeval.Stages{}, kgeval.Calls{}, 0
	for _, s := range states {
		if s.Status == kgeval.RunDone {
			done++
		}
		for k, v := range s.Stages {
			sumStages[k] += v
		}
		if s.Calls != nil {
			sumCalls = sumCalls.Add(*s.Calls)
		}
		resumes += s.Resumes
	}
	if done < len(states) {
		fmt.Fprintf(o.Log, "evaluate: shard %d/%d of run %q done; %d of %d shards done, the run finishes with the last\n", o.Shard, o.Shards, run, done, len(states))
		return nil
	}
	none, finished := "", time.Now().UTC()
	fmt.Fprintf(o.Log, "evaluate: shard %d/%d of run %q done; all %d shards done, the run is done\n", o.Shard, o.Shards, run, len(states))
	return a.store.UpdateRun(ctx, run, kgeval.RunUpdate{Status: &status, Error: &none, Finished: &finished, Stages: sumStages, Calls: &sumCalls, Resumes: &resumes})
}

// MismatchError is the error of a stored run that an evaluation may not
// resume or keep because it was made from other data or with other
// settings. Its message states what differs, in words that fit the
// dashboard as well as the command line; the command line adds its own way
// out (replace the run, or choose another name).
type MismatchError struct {
	// Run is the stored run.
	Run string
	err *kgeval.Error
}

func (e *MismatchError) Error() string { return e.err.Error() }
func (e *MismatchError) Unwrap() error { return e.err }

// mismatch returns a MismatchError of run with code and a formatted
// message.
func mismatch(run, code, format string, args ...any) error {
	return &MismatchError{Run: run, err: kgeval.Errorf(code, format, args...)}
}

// IsMismatch reports whether err is, or wraps, a MismatchError.
func IsMismatch(err error) bool {
	var m *MismatchError
	return errors.As(err, &m)
}

// ledger is this attempt's model cost per stage and pair: extraction, the
// model check of triplets (verify) and the judge from their clients'
// accounting, the claim checks per pair from their answers (the verify
// client's time shared out by prompt tokens).
func (a *attempt) ledger() kgeval.Ledger {
	l := kgeval.Ledger{}
	if a.models == nil {
		return l
	}
	u := a.o.Models.Usage()
	entry := func(c kgeval.Calls) kgeval.LedgerEntry {
		return kgeval.LedgerEntry{Requests: c.Calls, CacheHits: c.CacheHits, PromptTokens: c.PromptTokens, CompletionTokens: c.CompletionTokens, Seconds: c.Latency.Seconds()}
	}
	l.Set("extract", kgeval.LedgerAll, entry(u.Extraction))
	l.Set("judge", kgeval.LedgerAll, entry(u.Judge))
	if a.rep == nil || len(a.rep.ClaimLedger) == 0 {
		l.Set("verify", kgeval.LedgerAll, entry(u.Verify))
		return l
	}
	var prompt int64
	for _, e := range a.rep.ClaimLedger {
		prompt += e.PromptTokens
	}
	for pair, e := range a.rep.ClaimLedger {
		if prompt > 0 {
			e.Seconds = u.Verify.Latency.Seconds() * float64(e.PromptTokens) / float64(prompt)
		}
		l.Set("claims", pair, e)
	}
	return l
}

// ParseShard parses a shard spec I/N (evaluate --shard): worker I of N.
func ParseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		i, err = strconv.Atoi(a)
		if err == nil {
			n, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, kgeval.Errorf(kgeval.EINVALID, "--shard %q: want I/N with 0 <= I < N, e.g. 0/2 and 1/2 for two workers", s)
	}
	return i, n, nil
}
