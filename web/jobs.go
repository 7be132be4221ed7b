package web

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
)

// JobsPage is the view model of the jobs page: the options of a job and,
// for an admin, every stored run (to delete one).
type JobsPage struct {
	Options kgeval.JobOptions
	Admin   bool
	Runs    []string
}

func (s *Server) jobsPage(c *gin.Context) (string, any, error) {
	if s.cfg.Jobs == nil {
		return "", nil, kgeval.Errorf(kgeval.ENOTFOUND, "jobs are not enabled on this server")
	}
	p := JobsPage{Options: s.cfg.Jobs.Options(), Admin: s.auth.isAdmin(c)}
	if p.Admin {
		runs, err := s.read.Runs(c.Request.Context())
		if err != nil {
			return "", nil, err
		}
		for _, r := range runs {
			p.Runs = append(p.Runs, r.Name)
		}
	}
	return "Jobs", p, nil
}

func (s *Server) jobs() (kgeval.JobService, error) {
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

// uploadQuota names the caller as the upload's owner (kgeval.WithUploader,
// on the request's context) with its declared length (WithUploadSize), and
// refuses the upload before its body is read when their uploads are at the
// quota, or its declared length would pass it. JobService.Upload reserves
// the declared length, then the bytes as they arrive.
func (s *Server) uploadQuota(c *gin.Context) error {
	who := caller(c)
	c.Request = c.Request.WithContext(kgeval.WithUploadSize(kgeval.WithUploader(c.Request.Context(), who), c.Request.ContentLength))
	q, ok := s.cfg.Jobs.(kgeval.UploadQuota)
	if !ok {
		return nil
	}
	if err := q.CheckUpload(who, c.Request.ContentLength); err != nil {
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
	var req kgeval.JobRequest
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
	by := s.jobCaller(c)
	req.User, req.AnyUpload = by.User, by.Admin || by.Open
	return j.Start(s.jobContext(c), req)
}

// jobContext is the request's context carrying the memory budget the
// uploads share (web.upload_memory_bytes): Start and Resume read the
// upload of a job inside it, once their cheap checks have passed.
func (s *Server) jobContext(c *gin.Context) context.Context {
	return kgeval.WithMemoryBudget(c.Request.Context(), func(ctx context.Context, name, path string) (func(), error) {
		// What the file's decoded structure will hold (the upload meter's
		// cost, read through the file), not its size alone.
		w, err := s.budget.fileWeight(name, path)
		if err != nil {
			return nil, err
		}
		b := &budgetedBody{ctx: ctx, name: name, budget: s.budget, c: c, fixed: w}
		if err := b.reserve(); err != nil {
			return nil, err
		}
		return b.release, nil
	})
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
		jobs = []kgeval.Job{}
	}
	for i := range jobs {
		jobs[i].Dataset = s.shownDataset(c, jobs[i].Dataset, jobs[i].Owner)
	}
	out := gin.H{"jobs": jobs, "options": j.Options(), "admin": s.auth.isAdmin(c), "you": caller(c)}
	if q, ok := j.(kgeval.UploadQuota); ok {
		out["uploads"] = q.UploadUsage(caller(c))
	}
	return out, nil
}

func (s *Server) getJob(c *gin.Context) (any, error) {
	j, err := s.jobs()
	if err != nil {
		return nil, err
	}
	v, err := j.Get(c.Request.Context(), c.Param("run"))
	if err != nil {
		return nil, err
	}
	v.Dataset = s.shownDataset(c, v.Dataset, v.Owner)
	return v, nil
}

func (s *Server) cancelJob(c *gin.Context) (any, error) {
	j, err := s.jobs()
	if err != nil {
		return nil, err
	}
	return j.Cancel(c.Request.Context(), c.Param("run"), s.jobCaller(c))
}

func (s *Server) resumeJob(c *gin.Context) (any, error) {
	j, err := s.jobs()
	if err != nil {
		return nil, err
	}
	return j.Resume(s.jobContext(c), c.Param("run"), s.jobCaller(c))
}

// jobCaller is who calls, for the job service to decide whether they may
// cancel or resume a job.
func (s *Server) jobCaller(c *gin.Context) kgeval.Caller {
	return kgeval.Caller{User: caller(c), Admin: s.auth.isAdmin(c), Open: c.GetString(keyVia) == "open"}
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
