package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/graphstore"
	"github.com/kgeval/kgeval/llm"
	"github.com/kgeval/kgeval/web"
)

// Jobs runs the dashboard's evaluations (web.Jobs) with Evaluate, the use
// case of `kgeval evaluate`: uploads are kept in Dir under generated names,
// each job runs in the background on a context of its own (Cancel cancels
// it: the run is recorded as interrupted) and reports its progress through
// EvaluateOptions.Progress. A job outlives the request that started it,
// not the server: runs a stopped server leaves unfinished are listed from
// the store and resumed with Evaluate's Resume.
type Jobs struct {
	cfg *configs.Config
	db  *graphstore.DB
	// Dir holds the uploaded datasets.
	Dir string
	// base is the context jobs run under (the server's).
	base context.Context
	// Delay, if set, is slept (cancellably) at each progress report: the
	// browser test slows jobs down with $KGEVAL_TEST_JOB_DELAY so that
	// their progress can be watched without a model.
	Delay time.Duration
	// MaxRunning bounds the jobs that run at once (default 2): each one
	// loads the encoder and keeps the model busy.
	MaxRunning int

	mu   sync.Mutex
	jobs map[string]*job
	wg   sync.WaitGroup
}

type job struct {
	view    web.Job
	cancel  context.CancelFunc
	stageAt time.Time // when the current stage began
	stageN  int       // its done count then
}

// NewJobs returns the jobs of a dashboard on db, keeping uploads in dir;
// jobs run under ctx.
func NewJobs(ctx context.Context, cfg *configs.Config, db *graphstore.DB, dir string) (*Jobs, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, kgeval.Wrap(kgeval.EINVALID, err, "uploads directory %s", dir)
	}
	j := &Jobs{cfg: cfg, db: db, Dir: dir, base: context.WithoutCancel(ctx), jobs: map[string]*job{}, MaxRunning: 2}
	if d := os.Getenv("KGEVAL_TEST_JOB_DELAY"); d != "" {
		j.Delay, _ = time.ParseDuration(d)
	}
	if err := j.prune(ctx, UploadTTL); err != nil {
		return nil, err
	}
	return j, nil
}

// UploadTTL is how long an upload no stored run refers to is kept: older
// ones are removed when the server starts.
const UploadTTL = 7 * 24 * time.Hour

// prune removes the uploads older than ttl that no stored run evaluates.
func (j *Jobs) prune(ctx context.Context, ttl time.Duration) error {
	runs, err := j.db.ListRuns(ctx)
	if err != nil {
		return err
	}
	used := map[string]bool{}
	for _, r := range runs {
		used[filepath.Clean(r.Dataset)] = true
	}
	entries, err := os.ReadDir(j.Dir)
	if err != nil {
		return kgeval.Wrap(kgeval.EINVALID, err, "uploads directory %s", j.Dir)
	}
	for _, e := range entries {
		path := filepath.Join(j.Dir, e.Name())
		info, err := e.Info()
		if err != nil || !uploadName.MatchString(e.Name()) || used[path] || time.Since(info.ModTime()) < ttl {
			continue
		}
		os.Remove(path)
	}
	return nil
}

// Options: the non-KG metrics of scoring.metrics, the two engines, and the
// configured models.
func (j *Jobs) Options() web.JobOptions {
	names, _ := kgeval.ExpandMetrics(j.cfg.Scoring.Metrics)
	metrics := []string{}
	for _, n := range names {
		if kgeval.MetricFamily(n) != kgeval.FamilyKG {
			metrics = append(metrics, n)
		}
	}
	model := llm.New(llm.Config{BaseURL: j.cfg.LLM.BaseURL, Model: j.cfg.LLM.Model}).Endpoint()
	enc := j.cfg.Embedding.Provider + " " + j.cfg.Embedding.Model
	return web.JobOptions{Metrics: metrics, Engines: []string{"gds", "native"}, Engine: j.cfg.Scoring.Engine, Model: model, Encoder: enc,
		MaxUploadBytes: j.cfg.Web.UploadMaxBytes}
}

// uploadName is the form of a stored upload's generated name.
var uploadName = regexp.MustCompile(`^[0-9a-f]{32}\.(jsonl|json|csv|parquet)$`)

// Upload writes body to a new file of Dir named by 16 random bytes and the
// extension of name, then validates it with the dataset loader of
// `kgeval evaluate`. A file with no valid record is not kept.
func (j *Jobs) Upload(ctx context.Context, name string, body io.Reader) (web.Upload, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(name), "."))
	if ext == "ndjson" {
		ext = "jsonl"
	}
	switch ext {
	case "jsonl", "json", "csv", "parquet":
	default:
		return web.Upload{}, kgeval.Errorf(kgeval.EINVALID, "%q: want a .jsonl, .json, .csv or .parquet file", name)
	}
	b := make([]byte, 16)
	rand.Read(b)
	id := hex.EncodeToString(b) + "." + ext
	path := filepath.Join(j.Dir, id)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return web.Upload{}, kgeval.Wrap(kgeval.EINTERNAL, err, "store upload")
	}
	n, err := io.Copy(f, body)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return web.Upload{}, err
	}
	res, err := LoadDataset(j.cfg, path)
	if err != nil {
		os.Remove(path)
		return web.Upload{}, kgeval.Errorf(kgeval.EINVALID, "%s", strings.ReplaceAll(kgeval.ErrorMessage(err), path, name))
	}
	up := web.Upload{ID: id, Name: name, Format: res.Format, Bytes: n, Records: res.Records(), Valid: len(res.Samples),
		Rejected: res.Rejected[:min(len(res.Rejected), web.MaxRejectedListed)], RejectedTotal: len(res.Rejected)}
	if up.Rejected == nil {
		up.Rejected = []kgeval.Rejection{}
	}
	if up.Valid == 0 {
		os.Remove(path)
		up.ID = ""
	}
	return up, nil
}

// Start checks the request (an existing upload with a valid record, a new
// run name) and evaluates the upload in the background with the chosen
// metrics, engine and limit.
func (j *Jobs) Start(ctx context.Context, req web.JobRequest) (web.Job, error) {
	if !uploadName.MatchString(req.Upload) {
		return web.Job{}, kgeval.Errorf(kgeval.EINVALID, "upload: not an upload id")
	}
	path := filepath.Join(j.Dir, req.Upload)
	res, err := LoadDataset(j.cfg, path)
	if err != nil {
		return web.Job{}, kgeval.Errorf(kgeval.ENOTFOUND, "upload %s: not found (upload it again)", req.Upload)
	}
	if len(res.Samples) == 0 {
		return web.Job{}, kgeval.Errorf(kgeval.EINVALID, "upload %s: no valid record", req.Upload)
	}
	if len(res.Rejected) > 0 && j.cfg.Dataset.Strict {
		return web.Job{}, kgeval.Errorf(kgeval.EINVALID, "%d record(s) rejected and dataset.strict is set", len(res.Rejected))
	}
	cfg := *j.cfg
	cfg.Scoring.Metrics = append([]string{kgeval.FamilyKG}, req.Metrics...)
	cfg.Scoring.Engine = req.Engine
	cfg.LLM.CacheOnly = cfg.LLM.CacheOnly || req.CacheOnly
	samples := len(res.Samples)
	if req.Limit > 0 && req.Limit < samples {
		samples = req.Limit
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if old, ok := j.jobs[req.Run]; ok && old.view.Status == kgeval.RunRunning {
		return web.Job{}, kgeval.Errorf(kgeval.ECONFLICT, "run %q is running", req.Run)
	}
	if _, err := j.db.GetRun(ctx, req.Run); err == nil {
		return web.Job{}, kgeval.Errorf(kgeval.ECONFLICT, "run %q exists: choose another name, or delete it first", req.Run)
	} else if kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
		return web.Job{}, err
	}
	if err := j.busy(); err != nil {
		return web.Job{}, err
	}
	v := web.Job{Run: req.Run, Dataset: req.Upload, Samples: samples, Rejected: len(res.Rejected), Metrics: req.Metrics, Engine: req.Engine, User: req.User}
	return j.launch(&cfg, path, v, EvaluateOptions{Limit: req.Limit}), nil
}

// busy refuses a job when MaxRunning jobs run. Callers hold mu.
func (j *Jobs) busy() error {
	n := 0
	for _, jb := range j.jobs {
		if jb.view.Live {
			n++
		}
	}
	if j.MaxRunning > 0 && n >= j.MaxRunning {
		return kgeval.Errorf(kgeval.ETOOMANY, "%d jobs are running (at most %d at once): wait for one, or cancel one", n, j.MaxRunning)
	}
	return nil
}

// launch runs Evaluate for v in the background. Callers hold mu.
func (j *Jobs) launch(cfg *configs.Config, path string, v web.Job, o EvaluateOptions) web.Job {
	ctx, cancel := context.WithCancel(j.base)
	v.Status, v.Live, v.Resumable, v.Started, v.Finished, v.Error, v.ETA = kgeval.RunRunning, true, false, time.Now().UTC(), nil, "", -1
	v.Stage, v.Done, v.Total, v.Rate = "load", 0, 0, 0
	jb := &job{view: v, cancel: cancel, stageAt: time.Now()}
	j.jobs[v.Run] = jb
	o.Stdout, o.Stderr = io.Discard, io.Discard
	o.Progress = func(stage string, done, total int) {
		j.progress(jb, stage, done, total)
		if j.Delay > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(j.Delay):
			}
		}
	}
	j.wg.Add(1)
	go func() {
		defer j.wg.Done()
		defer cancel()
		err := Evaluate(ctx, cfg, path, v.Run, o)
		j.mu.Lock()
		defer j.mu.Unlock()
		now := time.Now().UTC()
		jb.view.Live, jb.view.Finished, jb.view.ETA = false, &now, -1
		switch {
		case err == nil:
			jb.view.Status = kgeval.RunDone
		case errors.Is(err, context.Canceled) || ctx.Err() != nil:
			jb.view.Status, jb.view.Resumable = kgeval.RunInterrupted, true
		default:
			jb.view.Status, jb.view.Error = kgeval.RunFailed, kgeval.ErrorMessage(err)
			jb.view.Resumable = kgeval.ErrorCode(err) != kgeval.EINVALID && kgeval.ErrorCode(err) != kgeval.ECONFLICT
		}
	}()
	return v
}

// progress records a stage's count, its rate since the stage began and the
// time left at that rate.
func (j *Jobs) progress(jb *job, stage string, done, total int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	v := &jb.view
	if stage != v.Stage {
		v.Stage, jb.stageAt, jb.stageN, v.Rate = stage, time.Now(), done, 0
	}
	v.Done, v.Total, v.ETA = done, total, -1
	if el := time.Since(jb.stageAt).Seconds(); el > 0 && done > jb.stageN {
		v.Rate = float64(done-jb.stageN) / el
		v.ETA = float64(total-done) / v.Rate
	}
}

// List returns the jobs of this server (newest first), then the stored runs
// left running or interrupted that no job of this server runs.
func (j *Jobs) List(ctx context.Context) ([]web.Job, error) {
	runs, err := j.db.ListRuns(ctx)
	if err != nil {
		return nil, err
	}
	stored := map[string]kgeval.Run{}
	for _, r := range runs {
		stored[r.Name] = r
	}
	j.mu.Lock()
	var out []web.Job
	for _, jb := range j.jobs {
		// A job whose run is gone was deleted elsewhere, unless it runs
		// or failed before its run was recorded (its error is shown).
		if r, ok := stored[jb.view.Run]; ok || jb.view.Status == kgeval.RunRunning || jb.view.Status == kgeval.RunFailed {
			out = append(out, j.withRun(jb.view, r, ok))
		}
	}
	live := map[string]bool{}
	for name := range j.jobs {
		live[name] = true
	}
	j.mu.Unlock()
	sort.Slice(out, func(a, b int) bool { return out[a].Started.After(out[b].Started) })
	for _, r := range runs {
		if !live[r.Name] && (r.Status == kgeval.RunRunning || r.Status == kgeval.RunInterrupted) {
			out = append(out, j.stored(r))
		}
	}
	return out, nil
}

// withRun adds the stored run's call accounting and resumes to a job; a
// job without a stored run cannot be resumed.
func (j *Jobs) withRun(v web.Job, r kgeval.Run, ok bool) web.Job {
	if ok {
		if r.Calls != nil {
			v.Calls = *r.Calls
		}
		v.Resumes = r.Resumes
	} else {
		v.Resumable = false
	}
	if v.Metrics == nil {
		v.Metrics = []string{}
	}
	return v
}

// stored is the job view of a stored run no job of this server runs.
func (j *Jobs) stored(r kgeval.Run) web.Job {
	v := web.Job{Run: r.Name, Dataset: filepath.Base(r.Dataset), Status: r.Status, Error: r.Error, Samples: r.Samples, Rejected: r.Rejected,
		Engine: r.Engine, Started: r.Started, Resumes: r.Resumes, ETA: -1, Metrics: []string{}}
	if r.Settings != nil {
		v.Metrics = append(v.Metrics, r.Settings.Metrics...)
	}
	if r.Calls != nil {
		v.Calls = *r.Calls
	}
	if !r.Finished.IsZero() {
		f := r.Finished
		v.Finished = &f
	}
	switch {
	case r.Status != kgeval.RunRunning && r.Status != kgeval.RunInterrupted:
	case filepath.Dir(r.Dataset) != filepath.Clean(j.Dir):
		v.Note = "not a dashboard upload: finish it with kgeval evaluate --resume"
		if r.Status == kgeval.RunRunning {
			v.Note = "run by another process (or left by one that was killed); not a dashboard upload: finish it with kgeval evaluate --resume"
		}
	default:
		v.Resumable = true
		if r.Status == kgeval.RunRunning {
			v.Note = "no job of this server runs it: left unfinished by a stopped server, resume it"
		}
	}
	return v
}

// Get returns the job of run, or its stored run.
func (j *Jobs) Get(ctx context.Context, run string) (web.Job, error) {
	r, err := j.db.GetRun(ctx, run)
	found := err == nil
	if err != nil && kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
		return web.Job{}, err
	}
	j.mu.Lock()
	jb, ok := j.jobs[run]
	var v web.Job
	if ok {
		v = jb.view
	}
	j.mu.Unlock()
	switch {
	case ok && (found || v.Status == kgeval.RunRunning || v.Status == kgeval.RunFailed):
		return j.withRun(v, r, found), nil
	case found:
		return j.stored(r), nil
	}
	return web.Job{}, kgeval.Errorf(kgeval.ENOTFOUND, "no job or run %q", run)
}

// Cancel cancels a running job's context; Evaluate records the run as
// interrupted. It waits up to 30 s for that.
func (j *Jobs) Cancel(ctx context.Context, run string) (web.Job, error) {
	j.mu.Lock()
	jb, ok := j.jobs[run]
	if !ok || !jb.view.Live {
		j.mu.Unlock()
		if !ok {
			return web.Job{}, kgeval.Errorf(kgeval.ENOTFOUND, "no job runs %q on this server", run)
		}
		return web.Job{}, kgeval.Errorf(kgeval.ECONFLICT, "job %q is not running (%s)", run, jb.view.Status)
	}
	jb.cancel()
	j.mu.Unlock()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		j.mu.Lock()
		live := jb.view.Live
		j.mu.Unlock()
		if !live {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	return j.Get(ctx, run)
}

// Resume finishes an interrupted or unfinished run of an uploaded dataset
// with the settings it was recorded with (Evaluate with Resume).
func (j *Jobs) Resume(ctx context.Context, run, user string) (web.Job, error) {
	r, err := j.db.GetRun(ctx, run)
	if err != nil {
		return web.Job{}, err
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if jb, ok := j.jobs[run]; ok && jb.view.Live {
		return web.Job{}, kgeval.Errorf(kgeval.ECONFLICT, "run %q is running", run)
	}
	if r.Status == kgeval.RunDone {
		return web.Job{}, kgeval.Errorf(kgeval.ECONFLICT, "run %q is done", run)
	}
	if filepath.Dir(r.Dataset) != filepath.Clean(j.Dir) || !uploadName.MatchString(filepath.Base(r.Dataset)) {
		return web.Job{}, kgeval.Errorf(kgeval.EINVALID, "run %q is not of a dashboard upload: finish it with kgeval evaluate --resume", run)
	}
	if err := j.busy(); err != nil {
		return web.Job{}, err
	}
	cfg := *j.cfg
	if r.Settings != nil {
		cfg.Scoring = *r.Settings
	}
	cfg.Scoring.Engine = r.Engine
	var rec struct{ LLM struct{ CacheOnly bool } }
	if json.Unmarshal([]byte(r.Config), &rec) == nil && rec.LLM.CacheOnly {
		cfg.LLM.CacheOnly = true
	}
	var metrics []string
	for _, m := range cfg.Scoring.Metrics {
		if m != kgeval.FamilyKG {
			metrics = append(metrics, m)
		}
	}
	v := web.Job{Run: run, Dataset: filepath.Base(r.Dataset), Samples: r.Samples, Rejected: r.Rejected, Metrics: metrics, Engine: r.Engine, User: user,
		Resumes: r.Resumes + 1}
	if jb, ok := j.jobs[run]; ok {
		v.Dataset, v.Metrics = jb.view.Dataset, jb.view.Metrics
	}
	return j.launch(&cfg, r.Dataset, v, EvaluateOptions{Limit: r.Samples, Resume: true}), nil
}

// DeleteRun deletes a stored run (not while its job runs) and its job.
func (j *Jobs) DeleteRun(ctx context.Context, run string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if jb, ok := j.jobs[run]; ok && jb.view.Live {
		return kgeval.Errorf(kgeval.ECONFLICT, "run %q is running: cancel its job first", run)
	}
	if err := j.db.DeleteRun(ctx, run); err != nil {
		return err
	}
	delete(j.jobs, run)
	return nil
}

// Close cancels the running jobs and waits (up to timeout) until each has
// recorded its run as interrupted.
func (j *Jobs) Close(timeout time.Duration) {
	j.mu.Lock()
	for _, jb := range j.jobs {
		jb.cancel()
	}
	j.mu.Unlock()
	done := make(chan struct{})
	go func() { j.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(timeout):
	}
}

var _ web.Jobs = (*Jobs)(nil)
