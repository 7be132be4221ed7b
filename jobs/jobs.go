package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/runner"
)

// Jobs runs the dashboard's evaluations (Service), each one an evaluation
// the Runner runs as it runs `kgeval evaluate`'s: uploads are kept in Dir
// under generated names, each job runs in the background on a context of
// its own (Cancel cancels it: the run is recorded as interrupted) and
// reports its progress through its runner.Request's Progress. A job
// outlives the request that started it, not the server: runs a stopped
// server leaves unfinished are listed from the store and resumed (a
// Request with Resume).
//
// Who uploaded each file and who started each run's job are kept in
// Dir/owners.json, so that they outlive the server too: each user's
// uploads are held to the upload quota (web.upload_quota_files,
// web.upload_quota_bytes), and only a job's owner or an admin may cancel
// or resume it (Caller). Uploads no unfinished run needs are removed
// web.upload_cleanup_age after they were made, at start and every
// web.upload_cleanup_interval while the server runs.
type Jobs struct {
	cfg    Config
	runner *runner.Runner
	db     RunCatalog
	// Dir holds the uploaded datasets.
	Dir string
	// base is the context jobs run under (the server's).
	base context.Context
	// Delay, if set, is slept (cancellably) at each progress report: the
	// browser test slows jobs down (`kgeval serve --test-job-delay`) so
	// that their progress can be watched without a model.
	Delay time.Duration
	// MaxRunning bounds the jobs that run or are being started at once
	// (default 2): each one holds its dataset and keeps the model busy.
	MaxRunning int
	// MaxPerUser bounds the jobs of one user (or token) that run or are
	// being started at once (default 1), so that one user cannot hold
	// every slot while others wait (issue 49, N4); 0: no bound. With
	// sign-in off everyone is "anonymous", whom it does not bound, nor a
	// request that names nobody ("").
	MaxPerUser int

	// budget is the memory uploads and job loads share.
	budget *budget

	mu     sync.Mutex
	jobs   map[string]*job
	owners owners
	// starting holds the runs whose job is being started (Start or Resume
	// reads their upload) with their upload and owner. They count as
	// running.
	starting map[string]startingJob
	wg       sync.WaitGroup

	stop     chan struct{} // closed by Close: the cleanup loop ends
	stopOnce sync.Once
}

// RunCatalog is what Jobs reads and deletes of the stored runs.
type RunCatalog interface {
	ListRuns(ctx context.Context) ([]kgeval.Run, error)
	GetRun(ctx context.Context, name string) (kgeval.Run, error)
	DeleteRun(ctx context.Context, name string) error
}

// Config are the dashboard's job settings (ConfigOf a configuration).
type Config struct {
	// Options are what a job may choose (Jobs.Options).
	Options Options
	// Metrics are scoring.metrics as configured (a resumed run without
	// recorded settings shows them).
	Metrics []string
	// Strict refuses an upload with a rejected record (dataset.strict).
	Strict bool
	// QuotaFiles and QuotaBytes are each user's upload quota
	// (web.upload_quota_files, web.upload_quota_bytes; 0: none).
	QuotaFiles int
	QuotaBytes int64
	// CleanupAge and CleanupEvery are web.upload_cleanup_age (default
	// UploadTTL) and web.upload_cleanup_interval (default 10 minutes).
	CleanupAge, CleanupEvery time.Duration
	// MemoryBytes is the memory the uploads being read and the jobs
	// loading one share at once (web.upload_memory_bytes; default 512 MiB).
	MemoryBytes int64
}

type job struct {
	view    Job
	cancel  context.CancelFunc
	stageAt time.Time // when the current stage began
	stageN  int       // its done count then
}

// New returns the jobs of a dashboard on db, keeping uploads in dir; jobs
// run under ctx, each one an evaluation that r runs.
func New(ctx context.Context, cfg Config, r *runner.Runner, db RunCatalog, dir string) (*Jobs, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, kgeval.Wrap(kgeval.EINVALID, err, "uploads directory %s", dir)
	}
	j := &Jobs{cfg: cfg, runner: r, db: db, Dir: dir, budget: newBudget(cfg.MemoryBytes, r.Config().DatasetOptions()), base: context.WithoutCancel(ctx), jobs: map[string]*job{}, starting: map[string]startingJob{}, MaxRunning: 2, MaxPerUser: 1,
		stop: make(chan struct{})}
	if err := j.loadOwners(); err != nil {
		return nil, err
	}
	if err := j.removeInterrupted(); err != nil {
		return nil, err
	}
	if _, err := j.CleanupUploads(ctx); err != nil {
		return nil, err
	}
	go j.cleanupLoop(j.cleanupEvery())
	return j, nil
}

// Options are Config.Options.
func (j *Jobs) Options() Options { return j.cfg.Options }

// Start checks the request before it reads anything: an upload id the
// caller by may evaluate (their own, any for an admin), a run name no
// stored run and no job has, a free job slot. Only then does it read the
// upload, once and inside the memory budget uploads share,
// check that it has a valid record, and evaluate it in the background
// with the chosen metrics, engine and limit.
func (j *Jobs) Start(ctx context.Context, by Caller, req Request) (Job, error) {
	if !uploadName.MatchString(req.Upload) {
		return Job{}, kgeval.Errorf(kgeval.EINVALID, "upload: not an upload id")
	}
	if err := j.mayUse(req.Upload, by); err != nil {
		return Job{}, err
	}
	if _, err := j.db.GetRun(ctx, req.Run); err == nil {
		return Job{}, kgeval.Errorf(kgeval.ECONFLICT, "run %q exists: choose another name, or delete it first", req.Run)
	} else if kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
		return Job{}, err
	}
	if err := j.claim(req.Run, req.Upload, by.User); err != nil {
		return Job{}, err
	}
	res, err := j.load(ctx, req.Upload)
	if err == nil {
		err = res.Evaluable("upload "+req.Upload, j.cfg.Strict)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.starting, req.Run)
	if err != nil {
		return Job{}, err
	}
	samples := len(res.Samples)
	if req.Limit > 0 && req.Limit < samples {
		samples = req.Limit
	}
	j.owners.Runs[req.Run] = by.User
	if err := j.saveOwners(); err != nil {
		delete(j.owners.Runs, req.Run)
		return Job{}, err
	}
	v := Job{Run: req.Run, Dataset: req.Upload, Samples: samples, Rejected: len(res.Rejected), Metrics: req.Metrics, Engine: req.Engine,
		Owner: by.User, User: nameOf(by.User)}
	r := runner.Request{Path: filepath.Join(j.Dir, req.Upload), Dataset: kgeval.UploadDataset(req.Upload), Run: req.Run, Data: res, Metrics: append([]string{metricreg.FamilyKG}, req.Metrics...),
		Engine: req.Engine, CacheOnly: req.CacheOnly, Limit: req.Limit}
	return j.launch(r, v), nil
}

// launch runs the evaluation r of v in the background. Callers hold mu.
func (j *Jobs) launch(r runner.Request, v Job) Job {
	ctx, cancel := context.WithCancel(j.base)
	v.Status, v.Live, v.Resumable, v.Started, v.Finished, v.Error, v.ETA = kgeval.RunRunning, true, false, time.Now().UTC(), nil, "", -1
	v.Stage, v.Done, v.Total, v.Rate = "load", 0, 0, 0
	jb := &job{view: v, cancel: cancel, stageAt: time.Now()}
	j.jobs[v.Run] = jb
	r.Progress = func(stage string, done, total int) {
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
		_, err := j.runner.Evaluate(ctx, r)
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
func (j *Jobs) List(ctx context.Context) ([]Job, error) {
	runs, err := j.db.ListRuns(ctx)
	if err != nil {
		return nil, err
	}
	stored := map[string]kgeval.Run{}
	for _, r := range runs {
		stored[r.Name] = r
	}
	j.mu.Lock()
	var out []Job
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
func (j *Jobs) withRun(v Job, r kgeval.Run, ok bool) Job {
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
func (j *Jobs) stored(r kgeval.Run) Job {
	j.mu.Lock()
	owner := j.owners.Runs[r.Name]
	j.mu.Unlock()
	id, isUpload := j.uploadOf(r.Dataset)
	if !isUpload {
		id = filepath.Base(r.Dataset)
	}
	v := Job{Run: r.Name, Dataset: id, Status: r.Status, Error: r.Error, Samples: r.Samples, Rejected: r.Rejected,
		Engine: r.Engine, Started: r.Started, Resumes: r.Resumes, ETA: -1, Metrics: []string{}, Owner: owner, User: nameOf(owner)}
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
	case !isUpload:
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
func (j *Jobs) Get(ctx context.Context, run string) (Job, error) {
	r, err := j.db.GetRun(ctx, run)
	found := err == nil
	if err != nil && kgeval.ErrorCode(err) != kgeval.ENOTFOUND {
		return Job{}, err
	}
	j.mu.Lock()
	jb, ok := j.jobs[run]
	var v Job
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
	return Job{}, kgeval.Errorf(kgeval.ENOTFOUND, "no job or run %q", run)
}

// Cancel cancels a running job's context; Evaluate records the run as
// interrupted. It waits up to 30 s for that.
func (j *Jobs) Cancel(ctx context.Context, run string, by Caller) (Job, error) {
	if err := j.mayControl(ctx, run, by, "cancel"); err != nil {
		return Job{}, err
	}
	j.mu.Lock()
	jb, ok := j.jobs[run]
	if !ok || !jb.view.Live {
		j.mu.Unlock()
		if !ok {
			return Job{}, kgeval.Errorf(kgeval.ENOTFOUND, "no job runs %q on this server", run)
		}
		return Job{}, kgeval.Errorf(kgeval.ECONFLICT, "job %q is not running (%s)", run, jb.view.Status)
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
// with the settings it was recorded with (Evaluate with Resume). As Start,
// it checks who may, the run and a free slot before it reads the upload,
// once and inside the memory budget. The run keeps the owner it was
// started by; by.User becomes it when none is recorded.
func (j *Jobs) Resume(ctx context.Context, run string, by Caller) (Job, error) {
	if err := j.mayControl(ctx, run, by, "resume"); err != nil {
		return Job{}, err
	}
	user := by.User
	r, err := j.db.GetRun(ctx, run)
	if err != nil {
		return Job{}, err
	}
	if r.Status == kgeval.RunDone {
		return Job{}, kgeval.Errorf(kgeval.ECONFLICT, "run %q is done", run)
	}
	id, ok := j.uploadOf(r.Dataset)
	if !ok {
		return Job{}, kgeval.Errorf(kgeval.EINVALID, "run %q is not of a dashboard upload: finish it with kgeval evaluate --resume", run)
	}
	j.mu.Lock()
	owner := j.owners.Runs[run]
	j.mu.Unlock()
	if owner == "" {
		owner = user
	}
	if err := j.claim(run, id, owner); err != nil {
		return Job{}, err
	}
	res, err := j.load(ctx, id)
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.starting, run)
	if kgeval.ErrorCode(err) == kgeval.ENOTFOUND {
		return Job{}, kgeval.Errorf(kgeval.ENOTFOUND, "run %q cannot be resumed: its upload %s is gone (an upload is removed web.upload_cleanup_age after it was made once no unfinished run of its owner needs it); upload the dataset again and start a new run", run, id)
	} else if err != nil {
		return Job{}, err
	}
	jr := runner.Request{Path: filepath.Join(j.Dir, id), Dataset: kgeval.UploadDataset(id), Run: run, Data: res, Settings: r.Settings, Engine: r.Engine, Limit: r.Samples, Resume: true}
	var rec struct{ LLM struct{ CacheOnly bool } }
	if json.Unmarshal([]byte(r.Config), &rec) == nil && rec.LLM.CacheOnly {
		jr.CacheOnly = true
	}
	configured := j.cfg.Metrics
	if r.Settings != nil {
		configured = r.Settings.Metrics
	}
	var metrics []string
	for _, m := range configured {
		if m != metricreg.FamilyKG {
			metrics = append(metrics, m)
		}
	}
	if j.owners.Runs[run] == "" {
		j.owners.Runs[run] = owner
		if err := j.saveOwners(); err != nil {
			delete(j.owners.Runs, run)
			return Job{}, err
		}
	}
	owner = j.owners.Runs[run]
	v := Job{Run: run, Dataset: id, Samples: r.Samples, Rejected: r.Rejected, Metrics: metrics, Engine: r.Engine,
		Owner: owner, User: nameOf(owner), Resumes: r.Resumes + 1}
	if jb, ok := j.jobs[run]; ok {
		v.Dataset, v.Metrics = jb.view.Dataset, jb.view.Metrics
	}
	return j.launch(jr, v), nil
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
	if _, ok := j.owners.Runs[run]; ok {
		delete(j.owners.Runs, run)
		return j.saveOwners()
	}
	return nil
}

// Close stops the upload cleanup, cancels the running jobs and waits (up
// to timeout) until each has recorded its run as interrupted.
func (j *Jobs) Close(timeout time.Duration) {
	j.stopOnce.Do(func() { close(j.stop) })
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

var (
	_ Service      = (*Jobs)(nil)
	_ UploadQuota  = (*Jobs)(nil)
	_ UploadOwners = (*Jobs)(nil)
)
