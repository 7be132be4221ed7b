package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
)

// Jobs starts and watches evaluations for the dashboard (issue 16 item 5):
// datasets uploaded and validated, evaluations run in the background with
// their progress, cancelled, resumed, and runs deleted. Package app
// implements it on app.Evaluate, the use case the CLI runs.
type Jobs interface {
	// Options are what a job may choose, from the server's configuration.
	Options() JobOptions
	// Upload stores a dataset file (name gives its format by extension;
	// the body is already size-limited) and validates it record by record.
	// Errors: EINVALID (unknown format, unreadable file), ETOOLARGE.
	Upload(ctx context.Context, name string, body io.Reader) (Upload, error)
	// Start evaluates an upload as a new run in the background. Errors:
	// EINVALID, ENOTFOUND (no such upload), ECONFLICT (the run exists).
	Start(ctx context.Context, req JobRequest) (Job, error)
	// List returns this server's jobs and the stored runs left unfinished.
	List(ctx context.Context) ([]Job, error)
	// Get returns the job (or unfinished stored run) of a run. Errors:
	// ENOTFOUND.
	Get(ctx context.Context, run string) (Job, error)
	// Cancel stops a running job; its run is recorded as interrupted.
	// The server lets only the job's Owner or an admin call it. Errors:
	// ENOTFOUND, ECONFLICT (not running).
	Cancel(ctx context.Context, run string) (Job, error)
	// Resume finishes an interrupted (or, after a restart, unfinished) run
	// of an uploaded dataset in the background; the run keeps its recorded
	// owner (user becomes it when none is recorded). The server lets only
	// the job's Owner or an admin call it. Errors: ENOTFOUND, ECONFLICT
	// (running), EINVALID (not a dashboard upload, or changed).
	Resume(ctx context.Context, run string, user string) (Job, error)
	// DeleteRun deletes a stored run and forgets its job. Errors:
	// ENOTFOUND, ECONFLICT (its job is running).
	DeleteRun(ctx context.Context, run string) error
}

// JobOptions are the choices the jobs page offers.
type JobOptions struct {
	// Metrics are the non-KG metrics of scoring.metrics (the KG metrics
	// are always computed); a job keeps all or some of them.
	Metrics []string `json:"metrics"`
	// Engines a job may use; Engine is the configured one.
	Engines []string `json:"engines"`
	Engine  string   `json:"engine"`
	// Model is the configured model (endpoint#model), shown, not chosen.
	Model   string `json:"model"`
	Encoder string `json:"encoder"`
	// MaxUploadBytes is web.upload_max_bytes.
	MaxUploadBytes int64 `json:"max_upload_bytes"`
}

// Upload is a stored, validated dataset file.
type Upload struct {
	// ID names the stored file (generated; a job refers to it).
	ID string `json:"id"`
	// Name is the name the browser sent (shown only).
	Name   string `json:"name"`
	Format string `json:"format"`
	Bytes  int64  `json:"bytes"`
	// Records read, Valid ones, and the Rejected ones with their record
	// number (1-based) and reason, as `kgeval evaluate` reports them.
	// Rejected lists at most MaxRejectedListed of them; RejectedTotal
	// counts them all.
	Records       int                `json:"records"`
	Valid         int                `json:"valid"`
	Rejected      []kgeval.Rejection `json:"rejected"`
	RejectedTotal int                `json:"rejected_total"`
}

// MaxRejectedListed bounds the rejected records an upload lists.
const MaxRejectedListed = 1000

// UploadQuota is implemented by Jobs that keep each user's uploads within
// a quota (package app's do). Jobs.Upload enforces it; the server asks
// first, so that an upload over it is refused before its body is read.
type UploadQuota interface {
	// UploadUsage returns what who's kept uploads hold and the limits.
	UploadUsage(who string) UploadUsage
}

// UploadUsage is what one user's (or token's) kept uploads hold against
// the upload quota (web.upload_quota_files, web.upload_quota_bytes), and
// how long an upload no unfinished run needs is kept
// (web.upload_cleanup_age).
type UploadUsage struct {
	Files             int   `json:"files"`
	Bytes             int64 `json:"bytes"`
	MaxFiles          int   `json:"max_files"`
	MaxBytes          int64 `json:"max_bytes"`
	CleanupAgeSeconds int64 `json:"cleanup_age_seconds"`
}

// Check refuses one more upload of size bytes (-1: not known yet) over the
// quota: ETOOMANY (429) when the files are at their limit, ETOOLARGE (413)
// when the bytes are or would be. The message says the limit and how to
// free space.
func (u UploadUsage) Check(size int64) error {
	free := fmt.Sprintf("an upload is removed %s after it was made once no unfinished run needs it (web.upload_cleanup_age): wait for that, resume your interrupted runs to done, or ask an admin to delete runs you no longer need",
		age(time.Duration(u.CleanupAgeSeconds)*time.Second))
	if u.MaxFiles > 0 && u.Files >= u.MaxFiles {
		return kgeval.Errorf(kgeval.ETOOMANY, "upload quota: you keep %d uploads, at most %d per user (web.upload_quota_files); %s", u.Files, u.MaxFiles, free)
	}
	if u.MaxBytes > 0 && (u.Bytes >= u.MaxBytes || size > u.MaxBytes-u.Bytes) {
		this := ""
		if size >= 0 {
			this = fmt.Sprintf(" and this one brings at least %s more", byteSize(size))
		}
		return kgeval.Errorf(kgeval.ETOOLARGE, "upload quota: your uploads hold %s%s, at most %s per user (web.upload_quota_bytes); %s", byteSize(u.Bytes), this, byteSize(u.MaxBytes), free)
	}
	return nil
}

// byteSize writes n bytes for people: 256.0 MiB, 12.5 KiB, 300 bytes.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// age writes a duration without its zero tail: 24h, 1h30m, 7d.
func age(d time.Duration) string {
	if d >= 48*time.Hour && d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", d/(24*time.Hour))
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

type uploaderKey struct{}

// WithUploader returns ctx naming who uploads (as JobRequest.User names
// who starts a job): Jobs.Upload counts the upload against their quota.
func WithUploader(ctx context.Context, who string) context.Context {
	return context.WithValue(ctx, uploaderKey{}, who)
}

// UploaderFrom returns who WithUploader named ("" if nobody).
func UploaderFrom(ctx context.Context) string {
	who, _ := ctx.Value(uploaderKey{}).(string)
	return who
}

// JobRequest starts a job.
type JobRequest struct {
	Upload    string   `json:"upload"`
	Run       string   `json:"run"`
	Metrics   []string `json:"metrics"`
	Engine    string   `json:"engine"`
	Limit     int      `json:"limit"`
	CacheOnly bool     `json:"cache_only"`
	// User who starts it, set by the server: "user:NAME" or "token:NAME"
	// (as web.users and web.tokens name them), "anonymous" with sign-in
	// off. The job records it as its Owner.
	User string `json:"-"`
}

// Job is an evaluation started (or left unfinished) and its progress.
type Job struct {
	Run     string `json:"run"`
	Dataset string `json:"dataset"`
	// Status is the run's: running, done, failed or interrupted.
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// Live is true while this server runs the job.
	Live bool `json:"live"`
	// Resumable: interrupted or unfinished, of an uploaded dataset, not
	// running; Note says why a stored run cannot be resumed here.
	Resumable bool   `json:"resumable"`
	Note      string `json:"note,omitempty"`
	// Stage of the pipeline (extract, embed, store, score, metrics,
	// judge), its Done and Total counts, Rate per second and ETA in
	// seconds (-1: unknown).
	Stage string  `json:"stage"`
	Done  int     `json:"done"`
	Total int     `json:"total"`
	Rate  float64 `json:"rate"`
	ETA   float64 `json:"eta"`
	// Calls is the run's model-call accounting.
	Calls    kgeval.Calls `json:"calls"`
	Samples  int          `json:"samples"`
	Rejected int          `json:"rejected"`
	Metrics  []string     `json:"metrics"`
	Engine   string       `json:"engine"`
	// Owner started the job ("user:NAME", "token:NAME" or "anonymous");
	// only they and admins may cancel or resume it. Empty when no starter
	// is recorded (a run of the CLI, or one started before owners were
	// kept): then only admins may. User is the name part of Owner.
	Owner    string     `json:"owner,omitempty"`
	User     string     `json:"user,omitempty"`
	Started  time.Time  `json:"started"`
	Finished *time.Time `json:"finished,omitempty"`
	Resumes  int        `json:"resumes"`
}

// JobsPage is the view model of the jobs page: the options of a job and,
// for an admin, every stored run (to delete one).
type JobsPage struct {
	Options JobOptions
	Admin   bool
	Runs    []string
}

func (s *Server) jobsPage(c *gin.Context) (string, any, error) {
	if s.cfg.Jobs == nil {
		return "", nil, kgeval.Errorf(kgeval.ENOTFOUND, "jobs are not enabled on this server")
	}
	p := JobsPage{Options: s.cfg.Jobs.Options(), Admin: s.auth.isAdmin(c)}
	if p.Admin {
		runs, err := s.store.ListRuns(c.Request.Context())
		if err != nil {
			return "", nil, err
		}
		for _, r := range runs {
			p.Runs = append(p.Runs, r.Name)
		}
	}
	return "Jobs", p, nil
}

func (s *Server) jobs() (Jobs, error) {
	if s.cfg.Jobs == nil {
		return nil, kgeval.Errorf(kgeval.ENOTFOUND, "jobs are not enabled on this server")
	}
	return s.cfg.Jobs, nil
}

// upload stores the request body (the file itself, not a multipart form)
// as a dataset named by ?name=.
func (s *Server) upload(c *gin.Context) (any, error) {
	j, err := s.jobs()
	if err != nil {
		return nil, err
	}
	if err := s.uploadQuota(c); err != nil {
		return nil, err
	}
	name := c.Query("name")
	if name == "" || len(name) > 255 {
		return nil, kgeval.Errorf(kgeval.EINVALID, "name: want the file's name (with its extension: .jsonl, .json, .csv or .parquet)")
	}
	body, release := s.budgetBody(c, name, c.Request.Body)
	defer release()
	up, err := j.Upload(c.Request.Context(), name, body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, kgeval.Errorf(kgeval.ETOOLARGE, "dataset over web.upload_max_bytes (%d bytes)", s.cfg.UploadMaxBytes)
		}
		return nil, err
	}
	return up, nil
}

// uploadQuota names the caller as the upload's owner (WithUploader, on the
// request's context) and refuses the upload before its body is read when
// their kept uploads are at the quota, or its declared length would pass
// it. Jobs.Upload checks again with the bytes it read.
func (s *Server) uploadQuota(c *gin.Context) error {
	who := caller(c)
	c.Request = c.Request.WithContext(WithUploader(c.Request.Context(), who))
	q, ok := s.cfg.Jobs.(UploadQuota)
	if !ok {
		return nil
	}
	if err := q.UploadUsage(who).Check(c.Request.ContentLength); err != nil {
		c.Header("Connection", "close") // the body is not read
		return err
	}
	return nil
}

// maxRunName bounds a run name chosen in the browser.
const maxRunName = 200

// checkRunName refuses empty, long and control-character names.
func checkRunName(name string) error {
	if strings.TrimSpace(name) == "" || len([]rune(name)) > maxRunName {
		return kgeval.Errorf(kgeval.EINVALID, "run: want a name of 1 to %d characters", maxRunName)
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return kgeval.Errorf(kgeval.EINVALID, "run: no control or format characters (U+%04X)", r)
		}
	}
	return nil
}

func (s *Server) startJob(c *gin.Context) (any, error) {
	j, err := s.jobs()
	if err != nil {
		return nil, err
	}
	var req JobRequest
	if err := c.ShouldBindJSON(&req); err != nil {
		return nil, kgeval.Errorf(kgeval.EINVALID, "want a JSON body {upload, run, metrics, engine, limit, cache_only}")
	}
	if req.Run == "" {
		req.Run = "upload-" + time.Now().UTC().Format("20060102-150405")
	}
	if err := checkRunName(req.Run); err != nil {
		return nil, err
	}
	if req.Limit < 0 {
		return nil, kgeval.Errorf(kgeval.EINVALID, "limit: want 0 (all) or more")
	}
	opt := j.Options()
	allowed := map[string]bool{}
	for _, m := range opt.Metrics {
		allowed[m] = true
	}
	for _, m := range req.Metrics {
		if !allowed[m] {
			return nil, kgeval.Errorf(kgeval.EINVALID, "metric %q is not one this server offers (scoring.metrics)", m)
		}
	}
	if req.Engine == "" {
		req.Engine = opt.Engine
	}
	ok := false
	for _, e := range opt.Engines {
		ok = ok || e == req.Engine
	}
	if !ok {
		return nil, kgeval.Errorf(kgeval.EINVALID, "engine %q: want one of %s", req.Engine, strings.Join(opt.Engines, ", "))
	}
	req.User = caller(c)
	return j.Start(c.Request.Context(), req)
}

func (s *Server) listJobs(c *gin.Context) (any, error) {
	j, err := s.jobs()
	if err != nil {
		return nil, err
	}
	jobs, err := j.List(c.Request.Context())
	if err != nil {
		return nil, err
	}
	if jobs == nil {
		jobs = []Job{}
	}
	out := gin.H{"jobs": jobs, "options": j.Options(), "admin": s.auth.isAdmin(c), "you": caller(c)}
	if q, ok := j.(UploadQuota); ok {
		out["uploads"] = q.UploadUsage(caller(c))
	}
	return out, nil
}

func (s *Server) getJob(c *gin.Context) (any, error) {
	j, err := s.jobs()
	if err != nil {
		return nil, err
	}
	return j.Get(c.Request.Context(), c.Param("run"))
}

func (s *Server) cancelJob(c *gin.Context) (any, error) {
	j, err := s.jobs()
	if err != nil {
		return nil, err
	}
	if err := s.mayControl(c, j, "cancel"); err != nil {
		return nil, err
	}
	return j.Cancel(c.Request.Context(), c.Param("run"))
}

func (s *Server) resumeJob(c *gin.Context) (any, error) {
	j, err := s.jobs()
	if err != nil {
		return nil, err
	}
	if err := s.mayControl(c, j, "resume"); err != nil {
		return nil, err
	}
	return j.Resume(c.Request.Context(), c.Param("run"), caller(c))
}

// mayControl lets the job's owner (who started it) and admins cancel or
// resume it: EFORBIDDEN for anyone else, and for everyone but admins when
// no owner is recorded. With sign-in off there is nobody to tell apart,
// and everyone may.
func (s *Server) mayControl(c *gin.Context, j Jobs, what string) error {
	if s.auth.isAdmin(c) || c.GetString(keyVia) == "open" {
		return nil
	}
	v, err := j.Get(c.Request.Context(), c.Param("run"))
	if err != nil {
		return err
	}
	switch v.Owner {
	case "":
		return kgeval.Errorf(kgeval.EFORBIDDEN, "only an admin may %s the job of run %q: who started it is not recorded", what, v.Run)
	case caller(c):
		return nil
	}
	return kgeval.Errorf(kgeval.EFORBIDDEN, "only %s, who started it, or an admin may %s the job of run %q", v.Owner, what, v.Run)
}

// deleteRun deletes a stored run; admins only.
func (s *Server) deleteRun(c *gin.Context) (any, error) {
	if !s.auth.isAdmin(c) {
		return nil, kgeval.Errorf(kgeval.EFORBIDDEN, "deleting a run needs an admin")
	}
	j, err := s.jobs()
	if err != nil {
		return nil, err
	}
	run := c.Param("run")
	if err := j.DeleteRun(c.Request.Context(), run); err != nil {
		return nil, err
	}
	return gin.H{"deleted": run}, nil
}

// uploadLimit is the body limit of the upload route.
func (s *Server) uploadLimit() int64 {
	if s.cfg.UploadMaxBytes > 0 {
		return s.cfg.UploadMaxBytes
	}
	return 32 << 20
}
