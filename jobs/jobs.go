package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/metricreg"
	"github.com/kgeval/kgeval/runner"
)

// Jobs runs the dashboard's evaluations (Service) with the use
// case of `kgeval evaluate` (Config.Evaluate): uploads are kept in Dir
// under generated names, each job runs in the background on a context of
// its own (Cancel cancels it: the run is recorded as interrupted) and
// reports its progress through Run.Progress. A job outlives the request
// that started it, not the server: runs a stopped server leaves unfinished
// are listed from the store and resumed (Run.Resume).
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

// Config are the dashboard's job settings and the use case a job runs.
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
}

// owners is what Jobs keeps in Dir/owners.json: the owner and size of
// each upload (by upload id) and who started the job of each run.
type owners struct {
	Uploads map[string]uploadRecord `json:"uploads"`
	Runs    map[string]string       `json:"runs"`
}

// uploadRecord is an upload's owner ("user:NAME", "token:NAME",
// "anonymous"; Request.User), size and time of upload. While it
// is read (Reading), Bytes is what it reserves of the quota: its declared
// size, or what has arrived. A record still reading
// when the server starts is of an upload a crash cut short: its file is
// removed (removeInterrupted).
type uploadRecord struct {
	Owner   string    `json:"owner"`
	Bytes   int64     `json:"bytes"`
	Created time.Time `json:"created"`
	Reading bool      `json:"reading,omitempty"`
}

// ownersFile is the name of the owners record in Dir (not an upload name,
// so the cleanup never takes it for one).
const ownersFile = "owners.json"

// startingJob is a job being started: its upload id and owner.
type startingJob struct{ upload, owner string }

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
	j := &Jobs{cfg: cfg, runner: r, db: db, Dir: dir, base: context.WithoutCancel(ctx), jobs: map[string]*job{}, starting: map[string]startingJob{}, MaxRunning: 2, MaxPerUser: 1,
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

// ConfigOf is the job settings of cfg: what a job may choose, the
// metrics, dataset.strict and the upload quota and cleanup of web.*.
func ConfigOf(cfg *configs.Config) Config {
	names, _ := metricreg.ExpandMetrics(cfg.Scoring.Metrics)
	// The metrics a job may add to the KG family (never nil: JSON's []).
	metrics := slices.DeleteFunc(append([]string{}, names...), func(n string) bool { return metricreg.MetricFamily(n) == metricreg.FamilyKG })
	return Config{
		Options: Options{Metrics: metrics, Engines: []string{"gds", "native"}, Engine: cfg.Scoring.Engine,
			Model: cfg.LLM.BaseURL + "#" + cfg.LLM.Model, Encoder: cfg.Embedding.Provider + " " + cfg.Embedding.Model, MaxUploadBytes: cfg.Web.UploadMaxBytes},
		Metrics: cfg.Scoring.Metrics, Strict: cfg.Dataset.Strict, QuotaFiles: cfg.Web.UploadQuotaFiles, QuotaBytes: cfg.Web.UploadQuotaBytes,
		CleanupAge: cfg.Web.UploadCleanupAge, CleanupEvery: cfg.Web.UploadCleanupInterval,
	}
}

// read reads a dataset file with the configured limits; upload keeps only
// the rejections the dashboard lists (MaxRejectedListed).
func (j *Jobs) read(path string, upload bool) (*dataset.Result, error) {
	opt := j.runner.Config().DatasetOptions()
	if upload {
		opt.MaxRejections = MaxRejectedListed
	}
	return dataset.Load(path, opt)
}

// UploadTTL is the default of web.upload_cleanup_age: how long an upload
// no unfinished run needs is kept.
const UploadTTL = 24 * time.Hour

// cleanupAge is web.upload_cleanup_age (UploadTTL when unset).
func (j *Jobs) cleanupAge() time.Duration {
	if j.cfg.CleanupAge > 0 {
		return j.cfg.CleanupAge
	}
	return UploadTTL
}

// cleanupEvery is web.upload_cleanup_interval (10 minutes when unset).
func (j *Jobs) cleanupEvery() time.Duration {
	if j.cfg.CleanupEvery > 0 {
		return j.cfg.CleanupEvery
	}
	return 10 * time.Minute
}

// cleanupLoop runs CleanupUploads every interval until Close. A failed
// round (Neo4j away) is tried again at the next tick.
func (j *Jobs) cleanupLoop(every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-j.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(j.base, time.Minute)
			j.CleanupUploads(ctx)
			cancel()
		}
	}
}

// CleanupUploads removes the uploads older than web.upload_cleanup_age
// (by their file's time) that no unfinished run needs: no stored run that
// is not done (running, interrupted or failed: it may be resumed) and no
// job of this server that is not done evaluates them. Only a run of the
// upload's owner keeps it so (pins): an admin's interrupted run on
// another user's upload does not keep that upload past its age, while a
// job runs or is being started it does. An upload of a done run is
// removed too: its results are in the store, and the run keeps the
// upload's name and fingerprint. It forgets the owners of removed uploads
// and of runs that are gone, and returns the ids it removed.
func (j *Jobs) CleanupUploads(ctx context.Context) ([]string, error) {
	listed := time.Now()
	runs, err := j.db.ListRuns(ctx)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(j.Dir)
	if err != nil {
		return nil, kgeval.Wrap(kgeval.EINVALID, err, "uploads directory %s", j.Dir)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	needed, stored := map[string]bool{}, map[string]bool{}
	for _, r := range runs {
		stored[r.Name] = true
		if id, ok := j.uploadOf(r.Dataset); ok && r.Status != kgeval.RunDone && j.pins(r.Name, id) {
			needed[id] = true
		}
	}
	for name, jb := range j.jobs {
		stored[name] = true // a job's run may not be recorded yet
		if jb.view.Live || (jb.view.Status != kgeval.RunDone && j.pins(name, jb.view.Dataset)) {
			needed[jb.view.Dataset] = true
		}
	}
	for name, st := range j.starting {
		stored[name] = true
		needed[st.upload] = true
	}
	var removed []string
	present := map[string]bool{}
	for _, e := range entries {
		if !uploadName.MatchString(e.Name()) {
			continue
		}
		path := filepath.Join(j.Dir, e.Name())
		info, err := e.Info()
		if err != nil || needed[e.Name()] || time.Since(info.ModTime()) < j.cleanupAge() {
			present[e.Name()] = err == nil
			continue
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			present[e.Name()] = true
			continue
		}
		removed = append(removed, e.Name())
	}
	changed := len(removed) > 0
	for id, r := range j.owners.Uploads {
		// An upload still being read or made since the listing is not
		// in it, and is kept.
		if !present[id] && !r.Reading && r.Created.Before(listed) {
			delete(j.owners.Uploads, id)
			changed = true
		}
	}
	for run := range j.owners.Runs {
		if !stored[run] {
			delete(j.owners.Runs, run)
			changed = true
		}
	}
	if changed {
		if err := j.saveOwners(); err != nil {
			return removed, err
		}
	}
	return removed, nil
}

// uploadOf returns the upload id of a run's recorded dataset, and whether
// it is one of Dir's uploads: kgeval.UploadDataset's form, or the path in
// Dir that runs recorded before issue 49 (kgeval doctor --fix and serve
// rewrite those; this reads one not yet rewritten).
func (j *Jobs) uploadOf(dataset string) (string, bool) {
	id, ok := kgeval.UploadOf(dataset)
	if !ok && filepath.IsAbs(dataset) && filepath.Dir(dataset) == filepath.Clean(j.Dir) {
		id, ok = filepath.Base(dataset), true
	}
	return id, ok && uploadName.MatchString(id)
}

// pins says whether the unfinished run keeps the upload id from the
// cleanup: only when who started the run uploaded it (as recorded; a run
// and an upload from before owners were kept pin too). Callers hold mu.
func (j *Jobs) pins(run, id string) bool {
	return j.owners.Runs[run] == j.owners.Uploads[id].Owner
}

// loadOwners reads Dir/owners.json (none yet: nobody owns anything).
func (j *Jobs) loadOwners() error {
	j.owners = owners{Uploads: map[string]uploadRecord{}, Runs: map[string]string{}}
	file := filepath.Join(j.Dir, ownersFile)
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return kgeval.Wrap(kgeval.EINVALID, err, "read %s", file)
	}
	if err := json.Unmarshal(b, &j.owners); err != nil {
		return kgeval.Errorf(kgeval.EINVALID, "%s: not an owners record (delete it: uploads then count for nobody's quota, and only admins may cancel or resume the jobs)", file)
	}
	if j.owners.Uploads == nil {
		j.owners.Uploads = map[string]uploadRecord{}
	}
	if j.owners.Runs == nil {
		j.owners.Runs = map[string]string{}
	}
	return nil
}

// saveOwners writes Dir/owners.json whole (a new file renamed over the
// old one), the uploads still being read included: a crash leaves their
// files, and the next start removes them. Callers hold mu.
func (j *Jobs) saveOwners() error {
	b, err := json.MarshalIndent(j.owners, "", "  ")
	if err != nil {
		return err
	}
	file := filepath.Join(j.Dir, ownersFile)
	tmp, err := os.CreateTemp(j.Dir, ".owners-*")
	if err != nil {
		return kgeval.Wrap(kgeval.EINTERNAL, err, "write %s", file)
	}
	_, err = tmp.Write(b)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return kgeval.Wrap(kgeval.EINTERNAL, err, "write %s", file)
	}
	return nil
}

// UploadUsage returns what who's kept uploads hold against the quota.
func (j *Jobs) UploadUsage(who string) UploadUsage {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.usage(who, "")
}

// usage counts who's uploads but skip, those being read included (what
// they reserve). Callers hold mu.
func (j *Jobs) usage(who, skip string) UploadUsage {
	u := UploadUsage{MaxFiles: j.cfg.QuotaFiles, MaxBytes: j.cfg.QuotaBytes, CleanupAgeSeconds: int64(j.cleanupAge() / time.Second)}
	for id, r := range j.owners.Uploads {
		if r.Owner == who && id != skip {
			u.Files++
			u.Bytes += r.Bytes
			if r.Reading {
				u.Reading++
			}
		}
	}
	return u
}

// forgetUpload removes an upload that is not kept and its record.
func (j *Jobs) forgetUpload(id string) {
	os.Remove(filepath.Join(j.Dir, id))
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.owners.Uploads, id)
	j.saveOwners() // the record of a file that is gone is harmless if this fails: it goes at the next start
}

// nameOf is the name part of an owner ("user:alice" is alice).
func nameOf(owner string) string {
	if _, name, ok := strings.Cut(owner, ":"); ok {
		return name
	}
	return owner
}

// Options are Config.Options.
func (j *Jobs) Options() Options { return j.cfg.Options }

// uploadName is the form of a stored upload's generated name.
var uploadName = regexp.MustCompile(`^[0-9a-f]{32}\.(jsonl|json|csv|parquet)$`)

// Upload writes body to a new file of Dir named by 16 random bytes and the
// extension of name, then validates it with the dataset loader of
// `kgeval evaluate`. A file with no valid record is not kept. The upload
// belongs to by.User and counts against their quota: at it,
// ETOOMANY (files) or ETOOLARGE (bytes), with the way to free space.
func (j *Jobs) Upload(ctx context.Context, by Caller, name string, size int64, body io.Reader) (Upload, error) {
	who := by.User
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(name), "."))
	if ext == "ndjson" {
		ext = "jsonl"
	}
	switch ext {
	case "jsonl", "json", "csv", "parquet":
	default:
		return Upload{}, kgeval.Errorf(kgeval.EINVALID, "%q: want a .jsonl, .json, .csv or .parquet file", name)
	}
	b := make([]byte, 16)
	rand.Read(b)
	id := hex.EncodeToString(b) + "." + ext
	path := filepath.Join(j.Dir, id)
	// The upload takes its place in the quota before it is read, its
	// declared size reserved and then each byte as it arrives, so that
	// uploads at once count each other.
	if err := j.reserveUpload(id, who, size); err != nil {
		return Upload{}, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		j.forgetUpload(id)
		return Upload{}, kgeval.Wrap(kgeval.EINTERNAL, err, "store upload")
	}
	n, err := io.Copy(f, &quotaReader{r: body, j: j, id: id})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		j.forgetUpload(id)
		return Upload{}, err
	}
	j.mu.Lock()
	if r, ok := j.owners.Uploads[id]; ok {
		r.Bytes = n // what it reserves: what it holds
		j.owners.Uploads[id] = r
	}
	j.mu.Unlock()
	res, err := j.read(path, true)
	if err != nil {
		j.forgetUpload(id)
		code := kgeval.ETOOLARGE // over a dataset limit: 413
		if kgeval.ErrorCode(err) != code {
			code = kgeval.EINVALID
		}
		return Upload{}, kgeval.Errorf(code, "%s", strings.ReplaceAll(kgeval.ErrorMessage(err), path, name))
	}
	up := Upload{ID: id, Name: name, Format: res.Format, Bytes: n, Records: res.Records(), Valid: len(res.Samples),
		Rejected: res.Rejected[:min(len(res.Rejected), MaxRejectedListed)], RejectedTotal: res.RejectedTotal}
	if up.Rejected == nil {
		up.Rejected = []kgeval.Rejection{}
	}
	if up.Valid == 0 {
		j.forgetUpload(id)
		up.ID = ""
		return up, nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.owners.Uploads[id] = uploadRecord{Owner: who, Bytes: n, Created: time.Now().UTC()}
	if err := j.saveOwners(); err != nil {
		delete(j.owners.Uploads, id)
		os.Remove(path)
		return Upload{}, err
	}
	return up, nil
}

// Start checks the request before it reads anything: an upload id the
// caller by may evaluate (their own, any for an admin), a run name no
// stored run and no job has, a free job slot. Only then does it read the
// upload, once and inside by.Budget,
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
	res, err := j.load(ctx, req.Upload, by.Budget)
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

// mayUse lets by evaluate the upload id: one recorded as theirs, or any
// for an admin or with sign-in off (an upload kept from before owners
// were recorded: only then). It reads nothing but the owners record and
// the file's presence. Errors: ENOTFOUND, EFORBIDDEN.
func (j *Jobs) mayUse(id string, by Caller) error {
	j.mu.Lock()
	rec, ok := j.owners.Uploads[id]
	j.mu.Unlock()
	notFound := kgeval.Errorf(kgeval.ENOTFOUND, "upload %s: not found (upload it again)", id)
	if ok && rec.Bytes == 0 { // still being read
		return notFound
	}
	if !ok {
		if _, err := os.Stat(filepath.Join(j.Dir, id)); err != nil {
			return notFound
		}
	}
	switch {
	case by.anyUpload() || (ok && rec.Owner == by.User):
		return nil
	case !ok:
		return kgeval.Errorf(kgeval.EFORBIDDEN, "only an admin may start a job on upload %s: who uploaded it is not recorded", id)
	}
	return kgeval.Errorf(kgeval.EFORBIDDEN, "upload %s is another user's: a job may evaluate only your own uploads (an admin may use any); upload the dataset yourself", id)
}

// claim takes a job slot for run, whose job owner is being started on
// upload id, while that upload is read: ECONFLICT when a job runs or is
// being started as run, ETOOMANY when MaxRunning jobs, or MaxPerUser of
// owner's, run or are being started (busy). The caller deletes
// j.starting[run] under mu once it has launched the job or given up.
func (j *Jobs) claim(run, id, owner string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if jb, ok := j.jobs[run]; ok && jb.view.Live {
		return kgeval.Errorf(kgeval.ECONFLICT, "run %q is running", run)
	}
	if _, ok := j.starting[run]; ok {
		return kgeval.Errorf(kgeval.ECONFLICT, "run %q is being started", run)
	}
	if err := j.busy(owner); err != nil {
		return err
	}
	j.starting[run] = startingJob{upload: id, owner: owner}
	return nil
}

// load reads the upload id once, inside reserve (the memory budget the
// uploads share) when there is one. Errors: ENOTFOUND (removed), the
// budget's (EUNAVAILABLE), the loader's (ETOOLARGE, EINVALID) naming the
// upload, not the server's path.
func (j *Jobs) load(ctx context.Context, id string, reserve MemoryBudget) (*dataset.Result, error) {
	path := filepath.Join(j.Dir, id)
	notFound := kgeval.Errorf(kgeval.ENOTFOUND, "upload %s: not found (upload it again)", id)
	if _, err := os.Stat(path); err != nil {
		return nil, notFound
	}
	if reserve != nil {
		release, err := reserve(ctx, id, path)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	res, err := j.read(path, false)
	if err == nil {
		return res, nil
	}
	code := kgeval.ErrorCode(err)
	switch code {
	case kgeval.ENOTFOUND:
		return nil, notFound
	case kgeval.ETOOLARGE:
	default:
		code = kgeval.EINVALID
	}
	return nil, kgeval.Errorf(code, "%s", strings.ReplaceAll(kgeval.ErrorMessage(err), path, "upload "+id))
}

// busy refuses a job of owner when MaxRunning jobs run or are being
// started, or MaxPerUser of owner's (not "anonymous", nor "" for a caller
// of this package that names nobody: with sign-in off there is nobody to
// tell apart): ETOOMANY with RetryAfter, the estimate
// of when such a slot frees up (slotWait). Callers hold mu.
func (j *Jobs) busy(owner string) error {
	var all, mine []*job
	n, own := len(j.starting), 0
	for _, st := range j.starting {
		if st.owner == owner {
			own++
		}
	}
	for _, jb := range j.jobs {
		if jb.view.Live {
			n++
			all = append(all, jb)
			if jb.view.Owner == owner {
				own++
				mine = append(mine, jb)
			}
		}
	}
	if j.MaxRunning > 0 && n >= j.MaxRunning {
		wait, how := slotWait(all)
		e := kgeval.Errorf(kgeval.ETOOMANY, "%d jobs are running or starting (at most %d at once): a slot frees up in %s at the earliest (%s); wait for one, or cancel one",
			n, j.MaxRunning, roundWait(wait), how)
		e.RetryAfter = wait
		return e
	}
	if j.MaxPerUser > 0 && owner != "anonymous" && owner != "" && own >= j.MaxPerUser {
		wait, how := slotWait(mine)
		e := kgeval.Errorf(kgeval.ETOOMANY, "you have %d job(s) running or starting (at most %d per user, so that other users get a slot): yours frees up in %s at the earliest (%s); wait for it, or cancel it",
			own, j.MaxPerUser, roundWait(wait), how)
		e.RetryAfter = wait
		return e
	}
	return nil
}

// Bounds of slotWait's estimate.
const (
	minSlotWait     = 5 * time.Second
	maxSlotWait     = time.Hour
	unknownSlotWait = time.Minute
)

// slotWait estimates when the first of jobs ends, and says how: the time
// its current stage has left at its rate so far (later stages add to it,
// so it is the soonest a slot may free up), between 5 s and an hour; a
// minute when no job has a rate yet (each is starting or has just begun a
// stage). Callers hold mu.
func slotWait(jobs []*job) (time.Duration, string) {
	best := -1.0
	for _, jb := range jobs {
		if eta := jb.view.ETA; eta >= 0 && (best < 0 || eta < best) {
			best = eta
		}
	}
	if best < 0 {
		return unknownSlotWait, "a guess: no running job has a rate yet"
	}
	d := time.Duration(best * float64(time.Second))
	return min(max(d, minSlotWait), maxSlotWait), "an estimate: the time the current stage of the job nearest its end has left at its rate so far; later stages add to it"
}

// roundWait writes a wait in whole seconds ("45 s") or minutes ("12 min").
func roundWait(d time.Duration) string {
	if d < 2*time.Minute {
		return fmt.Sprintf("%d s", int(math.Ceil(d.Seconds())))
	}
	return fmt.Sprintf("%d min", int(math.Round(d.Minutes())))
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
// once and inside by.Budget. The run keeps the owner it was
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
	res, err := j.load(ctx, id, by.Budget)
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

// mayControl lets the job's owner (who started it) and admins cancel or
// resume ("what") the job of run: EFORBIDDEN for anyone else, and for
// everyone but admins when no owner is recorded. With sign-in off there
// is nobody to tell apart, and everyone may. Only then is the job read.
func (j *Jobs) mayControl(ctx context.Context, run string, by Caller, what string) error {
	if by.Admin || by.Open {
		return nil
	}
	v, err := j.Get(ctx, run)
	if err != nil {
		return err
	}
	return ownerMay(v, by, what)
}

// ownerMay is mayControl's rule for a caller who is neither an admin nor
// on a server with sign-in off: only the job's recorded owner may.
func ownerMay(v Job, by Caller, what string) error {
	switch v.Owner {
	case "":
		return kgeval.Errorf(kgeval.EFORBIDDEN, "only an admin may %s the job of run %q: who started it is not recorded", what, v.Run)
	case by.User:
		return nil
	}
	return kgeval.Errorf(kgeval.EFORBIDDEN, "only %s, who started it, or an admin may %s the job of run %q", v.Owner, what, v.Run)
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
