package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/pipeline"
	"github.com/kgeval/kgeval/render"
	"github.com/kgeval/kgeval/runner"
	"github.com/spf13/cobra"
)

func (m *Main) evaluateCommand() *cobra.Command {
	var tracesPath, system, killAt, shard string
	var q runner.Request
	var o printOptions
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
			case q.Path != "" && tracesPath != "":
				return kgeval.Errorf(kgeval.EINVALID, "--dataset and --traces exclude each other")
			case tracesPath != "":
				if q.Run == "" {
					q.Run = strings.TrimSuffix(filepath.Base(tracesPath), filepath.Ext(tracesPath))
				}
				if q.Path, err = m.tracesDataset(tracesPath, system); err != nil {
					return err
				}
				defer os.RemoveAll(filepath.Dir(q.Path))
			case q.Path == "":
				return kgeval.Errorf(kgeval.EINVALID, "--dataset (or --traces) is required")
			case system != "":
				return kgeval.Errorf(kgeval.EINVALID, "--system names the samples of --traces: a dataset's records carry their own")
			}
			if q.Run == "" {
				q.Run = strings.TrimSuffix(filepath.Base(q.Path), filepath.Ext(q.Path))
			}
			if q.Replace && q.Resume {
				return kgeval.Errorf(kgeval.EINVALID, "--replace and --resume exclude each other")
			}
			if shard != "" {
				if q.Shard, q.Shards, err = pipeline.ParseShard(shard); err != nil {
					return err
				}
			}
			if killAt != "" {
				q.Progress = killHook(killAt, render.Progress(m.Stderr))
			}
			r := runner.New(cfg)
			defer r.Close(context.WithoutCancel(cmd.Context()))
			err = adviseIf(m.evaluate(cmd.Context(), r, q, o), pipeline.IsMismatch, resumeMismatchAdvice)
			if shard != "" {
				return withAdvice(err, kgeval.ECONFLICT, ": add --resume to finish this shard, or delete the run (`kgeval runs delete`) to start every shard over")
			}
			return withAdvice(err, kgeval.ECONFLICT, ": add --resume to finish it, --replace to start it over, or choose another --run")
		},
	}
	f := c.Flags()
	f.StringVar(&q.Path, "dataset", "", "dataset file (.jsonl, .json, .csv, .parquet)")
	f.StringVar(&tracesPath, "traces", "", "recorded spans (OTLP JSON or a Phoenix span export) to turn into samples and evaluate in one step, as import-traces does")
	f.StringVar(&system, "system", "", "with --traces: the samples' system (default: each trace's service.name)")
	f.StringVar(&q.Run, "run", "", "run name (default: the dataset's file name)")
	f.IntVar(&q.Limit, "limit", 0, "evaluate only the first N valid records (0: all)")
	f.BoolVar(&q.Replace, "replace", false, "delete a stored run of the same name first")
	f.BoolVar(&q.Fresh, "fresh", false, "ask the model again even when its answer is cached (measures calls and tokens; new answers replace the cached ones)")
	f.BoolVar(&q.Resume, "resume", false, "finish a stored run that was interrupted or crashed (no repeated model call, no duplicate)")
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

// printOptions are what to print of an evaluation: every score after the
// headline (All, render.Scores), or render.EvaluationJSON (JSON).
type printOptions struct{ All, JSON bool }

// evaluate asks r to run q with the program's output streams and progress
// bars, then prints the evaluation summary and the run's table from the
// scores the evaluation holds.
func (m *Main) evaluate(ctx context.Context, r *runner.Runner, q runner.Request, o printOptions) error {
	q.Stdout, q.Stderr, q.Scores = m.Stdout, m.Stderr, true
	if o.JSON {
		q.Stdout = m.Stderr
	}
	if q.Progress == nil {
		q.Progress = render.Progress(m.Stderr)
	}
	if err := r.Preflight(ctx); err != nil {
		return err
	}
	ev, err := r.Evaluate(ctx, q)
	if err != nil {
		return err
	}
	cfg := r.Config()
	if o.JSON {
		return render.EvaluationJSON(m.Stdout, ev, cfg.Scoring.Pairs)
	}
	render.Evaluation(m.Stdout, ev)
	render.Scores(m.Stdout, q.Run, ev.Scores, cfg.Scoring.Pairs, o.All)
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
