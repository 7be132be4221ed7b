package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/app"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/render"
	"github.com/spf13/cobra"
)

func (m *Main) evaluateCommand() *cobra.Command {
	var datasetPath, tracesPath, system, runName, killAt, shard string
	var o evaluateOptions
	c := &cobra.Command{
		Use:   "evaluate --dataset FILE [--run NAME]",
		Short: "Extract, store and score a dataset (one run)",
		Long:  help("evaluate"),
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := m.config(cmd)
			if err != nil {
				return err
			}
			switch {
			case datasetPath != "" && tracesPath != "":
				return kgeval.Errorf(kgeval.EINVALID, "--dataset and --traces exclude each other")
			case tracesPath != "":
				if runName == "" {
					runName = strings.TrimSuffix(filepath.Base(tracesPath), filepath.Ext(tracesPath))
				}
				if datasetPath, err = m.tracesDataset(tracesPath, system); err != nil {
					return err
				}
				defer os.RemoveAll(filepath.Dir(datasetPath))
			case datasetPath == "":
				return kgeval.Errorf(kgeval.EINVALID, "--dataset (or --traces) is required")
			case system != "":
				return kgeval.Errorf(kgeval.EINVALID, "--system names the samples of --traces: a dataset's records carry their own")
			}
			if runName == "" {
				runName = strings.TrimSuffix(filepath.Base(datasetPath), filepath.Ext(datasetPath))
			}
			if o.Replace && o.Resume {
				return kgeval.Errorf(kgeval.EINVALID, "--replace and --resume exclude each other")
			}
			if shard != "" {
				if o.Shard, o.Shards, err = parseShard(shard); err != nil {
					return err
				}
			}
			if killAt != "" {
				o.Progress = killHook(killAt, render.Progress(m.Stderr))
			}
			err = adviseIf(m.evaluate(cmd.Context(), cfg, datasetPath, runName, o), pipeline.IsMismatch, resumeMismatchAdvice)
			if shard != "" {
				return withAdvice(err, kgeval.ECONFLICT, ": add --resume to finish this shard, or delete the run (`kgeval runs delete`) to start every shard over")
			}
			return withAdvice(err, kgeval.ECONFLICT, ": add --resume to finish it, --replace to start it over, or choose another --run")
		},
	}
	f := c.Flags()
	f.StringVar(&datasetPath, "dataset", "", "dataset file (.jsonl, .json, .csv, .parquet)")
	f.StringVar(&tracesPath, "traces", "", "recorded spans (OTLP JSON or a Phoenix span export) to turn into samples and evaluate in one step, as import-traces does")
	f.StringVar(&system, "system", "", "with --traces: the samples' system (default: each trace's service.name)")
	f.StringVar(&runName, "run", "", "run name (default: the dataset's file name)")
	f.IntVar(&o.Limit, "limit", 0, "evaluate only the first N valid records (0: all)")
	f.BoolVar(&o.Replace, "replace", false, "delete a stored run of the same name first")
	f.BoolVar(&o.Fresh, "fresh", false, "ask the model again even when its answer is cached (measures calls and tokens; new answers replace the cached ones)")
	f.BoolVar(&o.Resume, "resume", false, "finish a stored run that was interrupted or crashed (no repeated model call, no duplicate)")
	f.StringVar(&shard, "shard", "", "evaluate shard I/N of the dataset (records whose index mod N is I) into a run that N workers share; the run is done when every shard is (docs/SCALING.md)")
	f.BoolVar(&o.JSON, "json", false, "print one JSON object on standard output instead of the tables (run, samples, rejected records, sample errors, model calls, headline per pair); the dataset report goes to standard error")
	f.BoolVar(&o.All, "all", false, "print every score after the headline: each KG metric per pair and the other metric families")
	f.String("engine", "", "gds or native (scoring.engine)")
	f.Float64("tau", 0, "SIMILAR edge threshold (scoring.tau)")
	f.Float64("delta", 0, "multihop path-cost threshold (scoring.delta)")
	f.StringSlice("metrics", nil, "metrics to compute (scoring.metrics)")
	f.Int("concurrency", 0, "parallel model calls (llm.concurrency)")
	f.Bool("strict", false, "stop before any work when a record is rejected (dataset.strict)")
	f.Bool("cache-only", false, "make no model call: a request the cache cannot answer fails (llm.cache_only; see `kgeval cache import`)")
	// --kill-at is for the crash tests only, hence hidden from the help.
	f.StringVar(&killAt, "kill-at", "", "kill the process with SIGKILL once STAGE reports progress (crash tests)")
	_ = f.MarkHidden("kill-at")
	return c
}

// evaluateOptions are app.EvaluateOptions and what to print.
type evaluateOptions struct {
	app.EvaluateOptions
	// All prints every score after the headline (render.Scores).
	All bool
	// JSON prints render.EvaluationJSON instead of the tables.
	JSON bool
}

// evaluate runs app.Evaluate with the program's output streams and
// progress bars, then prints the evaluation summary and the run's table
// from the scores the evaluation holds.
func (m *Main) evaluate(ctx context.Context, cfg *configs.Config, path, run string, o evaluateOptions) error {
	o.Stdout, o.Stderr, o.Scores = m.Stdout, m.Stderr, true
	if o.JSON {
		o.Stdout = m.Stderr
	}
	if o.Progress == nil {
		o.Progress = render.Progress(m.Stderr)
	}
	if err := modelPreflight(ctx, cfg); err != nil {
		return err
	}
	ev, err := app.Evaluate(ctx, cfg, path, run, o.EvaluateOptions)
	if err != nil {
		return err
	}
	if o.JSON {
		return render.EvaluationJSON(m.Stdout, ev, cfg.Scoring.Pairs)
	}
	render.Evaluation(m.Stdout, ev)
	render.Scores(m.Stdout, run, ev.Scores, cfg.Scoring.Pairs, o.All)
	if refused := ev.Usage.All.Refused; refused > 0 {
		// Not an error: a model that gave no valid answer when the snapshot
		// was made left nothing to cache, and its values were null then too.
		fmt.Fprintf(m.Stderr, "evaluate: --cache-only: %d model requests were not in the cache; their values are null (\"not in the cache\"). Expected for the requests the model failed when the snapshot was made (its header counts them); otherwise import a snapshot that covers this evaluation\n", refused)
	}
	return nil
}

// tracesDataset writes the samples of the spans in path (traceSamples) to
// a dataset file in a folder of its own, for the caller to remove.
func (m *Main) tracesDataset(path, system string) (string, error) {
	b, err := m.traceSamples(path, system)
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "kgeval-traces-")
	if err != nil {
		return "", kgeval.Wrap(kgeval.EINTERNAL, err, "temporary folder for the samples of %s", path)
	}
	out := filepath.Join(dir, "samples.jsonl")
	if err := os.WriteFile(out, b, 0o600); err != nil {
		os.RemoveAll(dir)
		return "", kgeval.Wrap(kgeval.EINTERNAL, err, "write %s", out)
	}
	return out, nil
}

// parseShard parses --shard I/N.
func parseShard(s string) (i, n int, err error) {
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

// killHook wraps a progress function so that the process kills itself with
// SIGKILL when stage reports progress: the resume test passes --kill-at to
// crash at exact points (after the pair graphs are stored and before they
// are scored, for example).
func killHook(stage string, next func(stage string, done, total int)) func(stage string, done, total int) {
	return func(s string, done, total int) {
		next(s, done, total)
		if s == stage && done > 0 {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	}
}

// modelPreflight asks the model endpoint for its model list before any work
// when llm.required is set (the Python package sets it) and the evaluation
// will call the model without answering from the cache alone (no
// --cache-only): extraction by the model, the model check of a pair it
// applies to, or an LLM-judged metric. An endpoint that does not answer
// would otherwise leave those values null after minutes of retries (left
// so when llm.required is false: a dataset of pre-extracted triplets needs
// no extraction). Errors: EUNAVAILABLE naming llm.base_url and the ways to
// score without it.
func modelPreflight(ctx context.Context, cfg *configs.Config) error {
	if cfg.LLM.CacheOnly || !cfg.LLM.Required {
		return nil
	}
	uses := cfg.ModelUses()
	if len(uses) == 0 {
		return nil
	}
	if err := llm.Probe(ctx, cfg.LLM.BaseURL, cfg.LLM.APIKey); err != nil {
		return kgeval.Wrap(kgeval.EUNAVAILABLE, err, "the model endpoint %s (llm.base_url) does not answer, and %s need%s it: start it (make llm-start), point llm.base_url / KGEVAL_LLM_BASE_URL at one, replay from the model cache with --cache-only, or score without a model (extraction.method rules, scoring.verify off, no llm or ragas metrics)",
			cfg.LLM.BaseURL, strings.Join(uses, ", "), map[bool]string{true: "s", false: ""}[len(uses) == 1])
	}
	return nil
}
