package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/judge"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/minilm"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/scoring"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

func (m *Main) evaluateCommand() *cobra.Command {
	var datasetPath, runName string
	var limit int
	var replace, resume, fresh bool
	c := &cobra.Command{
		Use:   "evaluate --dataset FILE [--run NAME]",
		Short: "Extract, store and score a dataset (one run)",
		Long: `evaluate loads a dataset, extracts triplets from every text with the
configured LLM (each distinct text once; answers are cached in Neo4j, so a
rerun makes no model call), embeds entity labels, stores one pair graph per
sample and pair in Neo4j, scores them with the KG engine and stores the scores
with their explanations. Pre-extracted triplets in the dataset skip extraction.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := m.config(cmd)
			if err != nil {
				return err
			}
			if datasetPath == "" {
				return kgeval.Errorf(kgeval.EINVALID, "--dataset is required")
			}
			if runName == "" {
				runName = strings.TrimSuffix(filepath.Base(datasetPath), filepath.Ext(datasetPath))
			}
			if replace && resume {
				return kgeval.Errorf(kgeval.EINVALID, "--replace and --resume exclude each other")
			}
			return m.evaluate(cmd.Context(), cfg, datasetPath, runName, evalOpts{limit: limit, replace: replace, resume: resume, fresh: fresh})
		},
	}
	c.Flags().StringVar(&datasetPath, "dataset", "", "dataset file (.jsonl, .json, .csv, .parquet)")
	c.Flags().StringVar(&runName, "run", "", "run name (default: the dataset's file name)")
	c.Flags().IntVar(&limit, "limit", 0, "evaluate only the first N valid records (0: all)")
	c.Flags().BoolVar(&replace, "replace", false, "delete a stored run of the same name first")
	c.Flags().BoolVar(&fresh, "fresh", false, "ask the model again even when its answer is cached (measures calls and tokens; new answers replace the cached ones)")
	c.Flags().BoolVar(&resume, "resume", false, "finish a stored run that was interrupted or crashed (no repeated model call, no duplicate)")
	c.Flags().String("engine", "", "gds or native (scoring.engine)")
	c.Flags().Float64("tau", 0, "SIMILAR edge threshold (scoring.tau)")
	c.Flags().Float64("delta", 0, "multihop path-cost threshold (scoring.delta)")
	c.Flags().StringSlice("metrics", nil, "metrics to compute (scoring.metrics)")
	c.Flags().Int("concurrency", 0, "parallel model calls (llm.concurrency)")
	c.Flags().Bool("strict", false, "stop before any work when a record is rejected (dataset.strict)")
	c.Flags().Bool("cache-only", false, "make no model call: a request the cache cannot answer fails (llm.cache_only; see `kgeval cache import`)")
	return c
}

// evalOpts are evaluate's per-invocation choices.
type evalOpts struct {
	limit           int
	replace, resume bool
	// fresh asks the model again even for cached answers (the new answers
	// replace them); label embeddings stay cached.
	fresh bool
}

func (m *Main) evaluate(ctx context.Context, cfg *Config, path, run string, o evalOpts) (err error) {
	res, err := loadDataset(cfg, path)
	if err != nil {
		return err
	}
	m.reportDataset(res)
	if o.limit > 0 && o.limit < len(res.Samples) {
		res.Samples = res.Samples[:o.limit]
		fmt.Fprintf(m.Stderr, "evaluate: --limit %d: evaluating the first %d samples\n", o.limit, o.limit)
	}
	if len(res.Rejected) > 0 && cfg.Dataset.Strict {
		return kgeval.Errorf(kgeval.EINVALID, "%d record(s) rejected and dataset.strict is set", len(res.Rejected))
	}
	if len(res.Samples) == 0 {
		return kgeval.Errorf(kgeval.EINVALID, "dataset %s: no valid record", path)
	}
	db, err := openMigratedStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close(context.WithoutCancel(ctx))
	cache := &graphstore.Cache{DB: db}

	llmCfg := llm.Config{BaseURL: cfg.LLM.BaseURL, APIKey: cfg.LLM.APIKey, Model: cfg.LLM.Model, Timeout: cfg.LLM.Timeout,
		MaxRetries: cfg.LLM.MaxRetries, Concurrency: cfg.LLM.Concurrency, Temperature: float32(cfg.LLM.Temperature), MaxTokens: cfg.LLM.MaxTokens,
		CacheOnly: cfg.LLM.CacheOnly}
	// One client for extraction and one for the judge, so that each
	// family's calls and tokens are counted apart.
	client, judgeClient, verifyClient := llm.New(llmCfg), llm.New(llmCfg), llm.New(llmCfg)
	embedder, err := newEmbedder(cfg, client)
	if err != nil {
		return err
	}
	cached := &llm.CachedEmbedder{Next: embedder, Cache: cache}
	var engine kgeval.KGEngine = &graphstore.GDS{DB: db}
	if cfg.Scoring.Engine == "native" {
		engine = &scoring.Native{Seed: uint64(cfg.Scoring.Seed)}
	}
	fp, err := fingerprint(path)
	if err != nil {
		return err
	}
	cfgJSON, _ := json.Marshal(redacted(cfg))
	record := kgeval.Run{Name: run, Dataset: path, Fingerprint: fp, Config: string(cfgJSON), LLM: client.Endpoint(),
		Encoder: embedder.Name(), Engine: engine.Name(), Status: kgeval.RunRunning, Samples: len(res.Samples), Rejected: len(res.Rejected),
		Started: time.Now().UTC()}

	// The run record: new, replaced, or resumed.
	var prevCalls kgeval.Calls
	prevStages := kgeval.Stages{}
	var done map[string]bool
	var metricsDone map[string]map[string]bool
	old, err := db.GetRun(ctx, run)
	switch {
	case err != nil && kgeval.ErrorCode(err) != kgeval.ENOTFOUND:
		return err
	case err != nil: // a new run
		if err := db.CreateRun(ctx, record); err != nil {
			return err
		}
	case o.replace:
		if err := db.DeleteRun(ctx, run); err != nil {
			return err
		}
		if err := db.CreateRun(ctx, record); err != nil {
			return err
		}
	case o.resume:
		if err := resumable(old, record, cfg); err != nil {
			return err
		}
		if old.Calls != nil {
			prevCalls = *old.Calls
		}
		for k, s := range old.Stages {
			prevStages[k] = s
		}
		if done, err = db.ScoredGraphs(ctx, run, kgeval.DefaultVariant); err != nil {
			return err
		}
		if metricsDone, err = db.MetricsDone(ctx, run); err != nil {
			return err
		}
		status, none, samples, rejected, resumes := kgeval.RunRunning, "", len(res.Samples), len(res.Rejected), old.Resumes+1
		if err := db.UpdateRun(ctx, run, kgeval.RunUpdate{Status: &status, Error: &none, Samples: &samples, Rejected: &rejected, Resumes: &resumes}); err != nil {
			return err
		}
		fmt.Fprintf(m.Stderr, "evaluate: resuming run %q (status %s): %d pair graphs already scored\n", run, old.Status, len(done))
	default:
		return kgeval.Errorf(kgeval.ECONFLICT, "run %q exists (status %s): add --resume to finish it, --replace to start it over, or choose another --run", run, old.Status)
	}

	ev := &pipeline.Evaluator{
		Embedder: cached, Store: db, Engine: engine, Params: cfg.GraphParams(), Pairs: cfg.Scoring.Pairs,
		Progress: testKillHook(m.progressPrinter()), Metrics: nonKG(cfg.Metrics()), Grounding: cfg.Extraction.Grounding,
	}
	if m, ok := embedder.(*minilm.Model); ok {
		ev.Tokens = m
	}
	var answers kgeval.Cache = cache
	if o.fresh {
		answers = writeOnlyCache{cache}
	}
	ev.Extractor = &llm.Extractor{Client: client, Cache: answers, MaxLabelChars: cfg.Dataset.MaxLabelChars, WindowChars: cfg.Extraction.WindowChars}
	if cfg.Scoring.Verify == "llm" {
		ev.Verifier, ev.VerifyPairs = &llm.Verifier{Client: verifyClient, Cache: answers}, cfg.Scoring.VerifyPairs
	}
	jd := &judge.Judge{Client: judgeClient, Cache: answers, Embedder: cached}
	ev.Judge, ev.JudgeConcurrency = jd, cfg.LLM.Concurrency
	// The run record keeps the texts of the whole evaluation: a resume sees
	// only what its unfinished samples still need, so it does not replace
	// a count an earlier attempt recorded.
	keepTexts := o.resume && old.Texts != nil
	ev.OnTexts = func(byKind map[kgeval.Text]int, passages int) {
		total := 0
		for _, n := range byKind {
			total += n
		}
		bound := 4*len(res.Samples) + passages
		fmt.Fprintf(m.Stderr, "extract: %d distinct texts for %d samples: %d questions, %d answers, %d references, %d context passages (at most %d: 4 per sample + 1 per distinct passage)\n",
			total, len(res.Samples), byKind[kgeval.TextQuestion], byKind[kgeval.TextAnswer], byKind[kgeval.TextReference], byKind[kgeval.TextContexts], bound)
		texts := kgeval.TextCounts{Question: byKind[kgeval.TextQuestion], Answer: byKind[kgeval.TextAnswer],
			Reference: byKind[kgeval.TextReference], Contexts: byKind[kgeval.TextContexts], Total: total, Bound: bound}
		if !keepTexts {
			_ = db.UpdateRun(ctx, run, kgeval.RunUpdate{Texts: &texts})
		}
	}
	if done != nil {
		ev.Done = func(sample, pair string) bool { return done[kgeval.JoinKey(sample, pair)] }
		ev.MetricsDone = func(sample string) bool {
			for _, name := range ev.Metrics {
				if !metricsDone[sample][name] {
					return false
				}
			}
			return true
		}
	}
	fmt.Fprintf(m.Stderr, "evaluate: run %q, %d samples, engine %s, model %s, encoder %s\n", run, len(res.Samples), engine.Name(), client.Endpoint(), embedder.Name())

	// The call accounting reaches the run record in the same transaction as
	// every cached answer, and after every failed call, so a killed process
	// loses none of it.
	calls := func() kgeval.Calls {
		return prevCalls.Add(client.Stats()).Add(judgeClient.Stats()).Add(verifyClient.Stats())
	}
	cache.Run, cache.Calls = run, calls
	var flushed int64
	progress := ev.Progress
	ev.Progress = func(stage string, d, total int) {
		if st := client.Stats().Add(judgeClient.Stats()).Add(verifyClient.Stats()); st.Calls+st.Failures != flushed {
			flushed = st.Calls + st.Failures
			cl := calls()
			_ = db.UpdateRun(ctx, run, kgeval.RunUpdate{Calls: &cl})
		}
		progress(stage, d, total)
	}
	var rep *pipeline.Report
	defer func() {
		status, msg := kgeval.RunDone, ""
		switch {
		case errors.Is(err, context.Canceled) || ctx.Err() != nil:
			status, msg = kgeval.RunInterrupted, "interrupted: finish it with the same command and --resume"
		case err != nil:
			status, msg = kgeval.RunFailed, err.Error()
		}
		stages := prevStages
		if rep != nil {
			for k, d := range rep.Stages {
				stages[k] += d.Seconds()
			}
		}
		cl, finished := calls(), time.Now().UTC()
		if ferr := db.UpdateRun(context.WithoutCancel(ctx), run, kgeval.RunUpdate{Status: &status, Error: &msg, Finished: &finished, Stages: stages, Calls: &cl}); ferr != nil && err == nil {
			err = ferr
		}
		if status == kgeval.RunInterrupted {
			fmt.Fprintf(m.Stderr, "evaluate: run %q interrupted; finish it with the same command and --resume\n", run)
		}
	}()
	if err := db.WriteSamples(ctx, run, res.Samples); err != nil {
		return err
	}
	rep, err = ev.Evaluate(ctx, run, res.Samples)
	if err != nil {
		return err
	}
	st := client.Stats()
	fmt.Fprintf(m.Stdout, "\nrun %s: %d samples, %d distinct texts (%d extracted now, %d from the cache), %d entity labels; %d texts embedded now (labels, triplets, answers; the rest cached); %d graph rows\n",
		run, rep.Samples, rep.Texts, rep.Extracted, st.CacheHits, rep.EmbedTexts, cached.Misses, rep.GraphRows)
	if rep.Resumed > 0 {
		fmt.Fprintf(m.Stdout, "resumed: %d pair graphs were scored before and kept\n", rep.Resumed)
	}
	if line := groundingLine(cfg.Extraction.Grounding, rep.Kept, rep.Dropped); line != "" {
		fmt.Fprintln(m.Stdout, line)
		if !o.resume {
			_ = db.UpdateRun(ctx, run, kgeval.RunUpdate{Grounding: &kgeval.GroundingCounts{Mode: cfg.Extraction.Grounding, Kept: rep.Kept, Dropped: rep.Dropped}})
		}
	}
	fmt.Fprintf(m.Stdout, "extraction: model calls %d (retries %d, repairs %d, failures %d), tokens %d prompt + %d completion, model time %s\n",
		st.Calls, st.Retries, st.Repairs, st.Failures, st.PromptTokens, st.CompletionTokens, st.Latency.Round(time.Millisecond))
	if ev.Verifier != nil {
		vs := verifyClient.Stats()
		fmt.Fprintf(m.Stdout, "verify (scoring.verify llm): %d questions (one per pair graph with open triplets; %d from the cache), %d triplets asked, %d unanswered; model calls %d (%.2f per sample), tokens %d prompt + %d completion\n",
			rep.VerifyBatches+rep.VerifyFailed, vs.CacheHits, rep.VerifyFacts, rep.VerifyFailed, vs.Calls, float64(vs.Calls)/float64(max(rep.Samples, 1)), vs.PromptTokens, vs.CompletionTokens)
	}
	if js := judgeClient.Stats(); js.Calls+js.Failures > 0 || len(jd.Stats().CacheHits) > 0 {
		asks, hits := 0, 0
		for _, n := range jd.Stats().Asks {
			asks += int(n)
		}
		for _, n := range jd.Stats().CacheHits {
			hits += int(n)
		}
		fmt.Fprintf(m.Stdout, "judge: %d questions to the model (%d from the cache), model calls %d (retries %d, repairs %d, failures %d), tokens %d prompt + %d completion, model time %s\n",
			asks, hits, js.Calls, js.Retries, js.Repairs, js.Failures, js.PromptTokens, js.CompletionTokens, js.Latency.Round(time.Millisecond))
	}
	if o.resume {
		all := calls()
		fmt.Fprintf(m.Stdout, "whole run, all attempts: model calls %d, tokens %d prompt + %d completion\n", all.Calls, all.PromptTokens, all.CompletionTokens)
	}
	// Every model client of this evaluation, a separate embeddings
	// endpoint's included.
	all := client.Stats().Add(judgeClient.Stats())
	if e, ok := embedder.(*llm.Embedder); ok && e.Client != client {
		all = all.Add(e.Client.Stats())
	}
	if cfg.LLM.CacheOnly {
		fmt.Fprintf(m.Stdout, "cache-only: model calls %d; %d requests not in the cache (refused)\n", all.Calls, all.Refused)
	}
	var stages []string
	for _, s := range []string{"extract", "ground", "embed", "store", "score", "verify", "metrics"} {
		stages = append(stages, fmt.Sprintf("%s %s", s, rep.Stages[s].Round(time.Millisecond)))
	}
	fmt.Fprintf(m.Stdout, "stages: %s\n\n", strings.Join(stages, ", "))
	for _, e := range rep.Errors {
		fmt.Fprintf(m.Stdout, "sample %s: %s not extracted: %s\n", e.Sample, e.Text, e.Error)
	}
	rows, err := db.RunScores(ctx, run, kgeval.DefaultVariant)
	if err != nil {
		return err
	}
	var results []kgeval.KGResult
	var others []kgeval.MetricScore
	for _, r := range rows {
		for _, k := range r.Scores {
			results = append(results, k)
		}
		for _, ms := range r.Metrics {
			others = append(others, ms)
		}
	}
	printSummary(m.Stdout, results, cfg.Scoring.Pairs)
	if len(others) > 0 {
		fmt.Fprintln(m.Stdout)
		printMetricSummary(m.Stdout, others)
	}
	if all.Refused > 0 {
		// Not an error: a model that gave no valid answer when the snapshot
		// was made left nothing to cache, and its values were null then too.
		fmt.Fprintf(m.Stderr, "evaluate: --cache-only: %d model requests were not in the cache; their values are null (\"not in the cache\"). Expected for the requests the model failed when the snapshot was made (its header counts them); otherwise import a snapshot that covers this evaluation\n", all.Refused)
	}
	return nil
}

// groundingLine reports the grounding check (SPEC §2b) per text kind: kept,
// dropped and the share dropped (the extractor's invention rate).
func groundingLine(mode string, kept, dropped map[kgeval.Text]int) string {
	if mode == kgeval.GroundingOff || len(kept)+len(dropped) == 0 {
		return ""
	}
	var parts []string
	for _, t := range []kgeval.Text{kgeval.TextQuestion, kgeval.TextAnswer, kgeval.TextReference, kgeval.TextContexts} {
		k, d := kept[t], dropped[t]
		if k+d == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %d kept, %d dropped (%.1f%%)", t, k, d, 100*float64(d)/float64(k+d)))
	}
	verb := "dropped"
	if mode == kgeval.GroundingKeep {
		verb = "kept anyway"
	}
	return fmt.Sprintf("grounding (extraction.grounding %s: ungrounded triplets %s): %s", mode, verb, strings.Join(parts, "; "))
}

// nonKG drops the KG metric names (computed per pair, always).
func nonKG(names []string) []string {
	var out []string
	for _, n := range names {
		if kgeval.MetricFamily(n) != kgeval.FamilyKG {
			out = append(out, n)
		}
	}
	return out
}

// printMetricSummary prints, per metric other than the KG scores: family,
// mean, std, n scored, n null and why (topReason).
func printMetricSummary(w io.Writer, scores []kgeval.MetricScore) {
	type agg struct {
		family  string
		vals    []float64
		reasons map[string]int
	}
	by := map[string]*agg{}
	var names []string
	for _, s := range scores {
		a := by[s.Metric]
		if a == nil {
			a = &agg{family: s.Family, reasons: map[string]int{}}
			by[s.Metric] = a
			names = append(names, s.Metric)
		}
		if s.Value != nil {
			a.vals = append(a.vals, *s.Value)
		} else {
			a.reasons[s.Reason]++
		}
	}
	sort.Slice(names, func(i, j int) bool {
		if by[names[i]].family != by[names[j]].family {
			return by[names[i]].family > by[names[j]].family
		}
		return names[i] < names[j]
	})
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "family\tmetric\tmean\tstd\tn\tnull\twhy null")
	for _, name := range names {
		a := by[name]
		mean, std := meanStd(a.vals)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\n", a.family, name, fmtNum(mean, len(a.vals)), fmtNum(std, len(a.vals)), len(a.vals), sumCounts(a.reasons), topReason(a.reasons))
	}
	tw.Flush()
}

func sumCounts(m map[string]int) int {
	n := 0
	for _, c := range m {
		n += c
	}
	return n
}

// topReason summarises why values are null: the two most common kinds of
// reason with their counts, and how many nulls the others account for, so
// that the counts add up to the null column. Reasons that differ only in a
// model's rejected answer ("gave no valid JSON after 3 attempts: label 2 is
// FN but ...") are one kind. Ties go to the alphabetically first.
func topReason(reasons map[string]int) string {
	kinds := map[string]int{}
	for r, n := range reasons {
		kinds[llm.ReasonKind(r)] += n
	}
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool {
		if kinds[names[i]] != kinds[names[j]] {
			return kinds[names[i]] > kinds[names[j]]
		}
		return names[i] < names[j]
	})
	var parts []string
	rest := 0
	for i, k := range names {
		if i < 2 {
			parts = append(parts, fmt.Sprintf("%s (%d)", truncateRunes(k, 110), kinds[k]))
		} else {
			rest += kinds[k]
		}
	}
	if rest > 0 {
		parts = append(parts, fmt.Sprintf("%d other kinds (%d)", len(names)-2, rest))
	}
	return strings.Join(parts, "; ")
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// resumable checks that a stored run can be resumed with the dataset and
// configuration at hand: the same dataset file content, models and scoring
// settings, else the resumed run would mix two evaluations.
func resumable(old, now kgeval.Run, cfg *Config) error {
	if old.Fingerprint != now.Fingerprint {
		return kgeval.Errorf(kgeval.EINVALID, "cannot resume run %q: the dataset changed (sha256 %.12s, now %.12s); use --replace or another --run", old.Name, old.Fingerprint, now.Fingerprint)
	}
	for _, f := range []struct{ name, was, is string }{{"llm", old.LLM, now.LLM}, {"encoder", old.Encoder, now.Encoder}, {"engine", old.Engine, now.Engine}} {
		if f.was != f.is {
			return kgeval.Errorf(kgeval.EINVALID, "cannot resume run %q: %s was %s, now %s; use --replace or another --run", old.Name, f.name, f.was, f.is)
		}
	}
	if old.Config != "" {
		// Metrics may change: a resumed run computes the ones a sample lacks.
		var was kgeval.RunSettings
		if old.Settings != nil {
			was = *old.Settings
		}
		now := cfg.Scoring
		was.Metrics, now.Metrics = nil, nil
		a, _ := json.Marshal(was)
		b, _ := json.Marshal(now)
		if string(a) != string(b) {
			return kgeval.Errorf(kgeval.EINVALID, "cannot resume run %q: the scoring settings changed (was %s, now %s); use --replace or another --run", old.Name, a, b)
		}
	}
	return nil
}

// testKillHook wraps a progress function so that the process kills itself
// with SIGKILL when the stage named by $KGEVAL_TEST_KILL_AT reports
// progress: the resume test uses it to crash at exact points (after the pair
// graphs are stored and before they are scored, for example).
func testKillHook(next func(stage string, done, total int)) func(stage string, done, total int) {
	at := os.Getenv("KGEVAL_TEST_KILL_AT")
	if at == "" {
		return next
	}
	return func(stage string, done, total int) {
		next(stage, done, total)
		if stage == at && done > 0 {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	}
}

// printSummary prints, per pair and metric: mean, std, n scored, n null and
// why (topReason).
func printSummary(w io.Writer, results []kgeval.KGResult, pairs []kgeval.Pair) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "pair\tmetric\tmean\tstd\tn\tnull\twhy null")
	for _, p := range pairs {
		for _, metric := range kgeval.KGMetricNames {
			var vals []float64
			reasons := map[string]int{}
			applies := false
			for _, r := range results {
				if r.Pair != p.Name {
					continue
				}
				for _, s := range r.Scores() {
					if s.Metric != metric {
						continue
					}
					applies = applies || !kgeval.NotApplicable(s.Reason)
					if s.Value != nil {
						vals = append(vals, *s.Value)
					} else {
						reasons[s.Reason]++
					}
				}
			}
			if !applies {
				continue // e.g. recall outside the reference pair
			}
			mean, std := meanStd(vals)
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\n", p.Name, metric, fmtNum(mean, len(vals)), fmtNum(std, len(vals)), len(vals), sumCounts(reasons), topReason(reasons))
		}
	}
	tw.Flush()
}

func meanStd(v []float64) (float64, float64) {
	if len(v) == 0 {
		return 0, 0
	}
	var s float64
	for _, x := range v {
		s += x
	}
	mean := s / float64(len(v))
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(v)))
}

func fmtNum(x float64, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.3f", x)
}

// progressPrinter reports each stage's progress: a progress bar with count,
// rate and ETA when standard error is a terminal, else plain lines at most
// every two seconds (and at the end of a stage), for logs and CI.
func (m *Main) progressPrinter() func(stage string, done, total int) {
	if f, ok := m.Stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return m.progressBars(f)
	}
	var mu sync.Mutex
	last := map[string]time.Time{}
	type mark struct {
		at   time.Time
		done int
	}
	// base is where the rate is measured from: items finished within the
	// stage's first second (answers from the cache, graphs a resumed run
	// already scored) do not count, or the ETA of a resumed run would be
	// seconds while hours of model calls remain.
	base, started := map[string]mark{}, map[string]time.Time{}
	return func(stage string, done, total int) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		if _, ok := started[stage]; !ok {
			started[stage] = now
		}
		if now.Sub(started[stage]) < time.Second {
			base[stage] = mark{now, done}
		}
		if done < total && now.Sub(last[stage]) < 2*time.Second {
			return
		}
		last[stage] = now
		b := base[stage]
		el, n := now.Sub(b.at), done-b.done
		if n <= 0 { // the whole stage within its first second
			el, n = now.Sub(started[stage]), done
		}
		eta := ""
		if n > 0 && done < total {
			eta = fmt.Sprintf(", ETA %s", (el * time.Duration(total-done) / time.Duration(n)).Round(time.Second))
		}
		rate := float64(n) / math.Max(el.Seconds(), 0.001)
		fmt.Fprintf(m.Stderr, "%-8s %d/%d (%.1f/s%s)\n", stage, done, total, rate, eta)
	}
}

// progressBars draws one bar per stage on a terminal.
func (m *Main) progressBars(w io.Writer) func(stage string, done, total int) {
	var mu sync.Mutex
	bars := map[string]*progressbar.ProgressBar{}
	return func(stage string, done, total int) {
		mu.Lock()
		defer mu.Unlock()
		b, ok := bars[stage]
		if !ok {
			b = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(fmt.Sprintf("%-8s", stage)),
				progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetPredictTime(true),
				progressbar.OptionSetWidth(30), progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }))
			bars[stage] = b
		}
		b.Set(done)
	}
}

// writeOnlyCache stores answers but never returns one (evaluate --fresh).
type writeOnlyCache struct{ kgeval.Cache }

func (writeOnlyCache) Get(context.Context, []string) (map[string][]byte, error) {
	return map[string][]byte{}, nil
}

func newEmbedder(cfg *Config, client *llm.Client) (kgeval.Embedder, error) {
	if cfg.Embedding.Provider == "openai" {
		ec := client
		if cfg.Embedding.BaseURL != "" {
			ec = llm.New(llm.Config{BaseURL: cfg.Embedding.BaseURL, APIKey: cfg.Embedding.APIKey, Model: cfg.Embedding.Model,
				Timeout: cfg.LLM.Timeout, MaxRetries: cfg.LLM.MaxRetries, Concurrency: cfg.LLM.Concurrency, CacheOnly: cfg.LLM.CacheOnly})
		}
		return &llm.Embedder{Client: ec, Model: cfg.Embedding.Model, BatchSize: cfg.Embedding.BatchSize}, nil
	}
	mdl, err := minilm.Load(filepath.Join(cfg.Embedding.ModelsDir, cfg.Embedding.Model))
	if err != nil {
		return nil, kgeval.Wrap(kgeval.EUNAVAILABLE, err, "local encoder %s", cfg.Embedding.Model)
	}
	return mdl, nil
}

// fingerprint is the sha256 of the dataset file, recorded with the run.
func fingerprint(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", kgeval.Wrap(kgeval.EINVALID, err, "dataset %s", path)
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:]), nil
}

// redacted returns a copy of cfg without secrets, for run records.
func redacted(cfg *Config) Config {
	c := *cfg
	c.Neo4j.Password = redact(c.Neo4j.Password)
	c.LLM.APIKey = redact(c.LLM.APIKey)
	c.Embedding.APIKey = redact(c.Embedding.APIKey)
	return c
}
