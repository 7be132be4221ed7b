package web

import (
	"context"
	"errors"
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
	// Errors: ENOTFOUND, ECONFLICT (not running).
	Cancel(ctx context.Context, run string) (Job, error)
	// Resume finishes an interrupted (or, after a restart, unfinished) run
	// of an uploaded dataset in the background. Errors: ENOTFOUND,
	// ECONFLICT (running), EINVALID (not a dashboard upload, or changed).
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

// JobRequest starts a job.
type JobRequest struct {
	Upload    string   `json:"upload"`
	Run       string   `json:"run"`
	Metrics   []string `json:"metrics"`
	Engine    string   `json:"engine"`
	Limit     int      `json:"limit"`
	CacheOnly bool     `json:"cache_only"`
	// User who started it (set by the server).
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
	User     string       `json:"user,omitempty"`
	Started  time.Time    `json:"started"`
	Finished *time.Time   `json:"finished,omitempty"`
	Resumes  int          `json:"resumes"`
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
	name := c.Query("name")
	if name == "" || len(name) > 255 {
		return nil, kgeval.Errorf(kgeval.EINVALID, "name: want the file's name (with its extension: .jsonl, .json, .csv or .parquet)")
	}
	up, err := j.Upload(c.Request.Context(), name, c.Request.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, kgeval.Errorf(kgeval.ETOOLARGE, "dataset over web.upload_max_bytes (%d bytes)", s.cfg.UploadMaxBytes)
		}
		return nil, err
	}
	return up, nil
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
	req.User = c.GetString(keyUser)
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
	return gin.H{"jobs": jobs, "options": j.Options(), "admin": s.auth.isAdmin(c)}, nil
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
	return j.Cancel(c.Request.Context(), c.Param("run"))
}

func (s *Server) resumeJob(c *gin.Context) (any, error) {
	j, err := s.jobs()
	if err != nil {
		return nil, err
	}
	return j.Resume(c.Request.Context(), c.Param("run"), c.GetString(keyUser))
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
