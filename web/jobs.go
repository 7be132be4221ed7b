package web

import (
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/jobs"
)

// JobsPage is the view model of the jobs page: the options of a job and,
// for an admin, every stored run (to delete one).
type JobsPage struct {
	Options jobs.Options
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

func (s *Server) jobService() (jobs.Service, error) {
	if s.cfg.Jobs == nil {
		return nil, kgeval.Errorf(kgeval.ENOTFOUND, "jobs are not enabled on this server")
	}
	return s.cfg.Jobs, nil
}

// upload stores the request body (the file itself, not a multipart form)
// as a dataset named by ?name=.
func (s *Server) upload(c *gin.Context) (any, error) {
	j, err := s.jobService()
	if err != nil {
		return nil, err
	}
	by := s.jobCaller(c)
	if err := s.uploadQuota(c, by.User); err != nil {
		return nil, err
	}
	name := c.Query("name")
	if name == "" || len(name) > 255 {
		return nil, kgeval.Errorf(kgeval.EINVALID, "name: want the file's name (with its extension: .jsonl, .json, .csv or .parquet)")
	}
	up, err := j.Upload(c.Request.Context(), by, name, c.Request.ContentLength, c.Request.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, kgeval.Errorf(kgeval.ETOOLARGE, "dataset over web.upload_max_bytes (%d bytes)", s.cfg.UploadMaxBytes)
		}
		return nil, err
	}
	return up, nil
}

// uploadQuota refuses an upload of who before its body is read when their
// uploads are at the quota, or its declared length would pass it.
// jobs.Service.Upload reserves the declared length, then the bytes as
// they arrive.
func (s *Server) uploadQuota(c *gin.Context, who string) error {
	q, ok := s.cfg.Jobs.(jobs.UploadQuota)
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
	j, err := s.jobService()
	if err != nil {
		return nil, err
	}
	var req jobs.Request
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
	return j.Start(c.Request.Context(), s.jobCaller(c), req)
}

func (s *Server) listJobs(c *gin.Context) (any, error) {
	j, err := s.jobService()
	if err != nil {
		return nil, err
	}
	list, err := j.List(c.Request.Context())
	if err != nil {
		return nil, err
	}
	if list == nil {
		list = []jobs.Job{}
	}
	for i := range list {
		list[i].Dataset = s.shownDataset(c, list[i].Dataset, list[i].Owner)
	}
	out := gin.H{"jobs": list, "options": j.Options(), "admin": s.auth.isAdmin(c), "you": caller(c)}
	if q, ok := j.(jobs.UploadQuota); ok {
		out["uploads"] = q.UploadUsage(caller(c))
	}
	return out, nil
}

func (s *Server) getJob(c *gin.Context) (any, error) {
	j, err := s.jobService()
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
	j, err := s.jobService()
	if err != nil {
		return nil, err
	}
	return j.Cancel(c.Request.Context(), c.Param("run"), s.jobCaller(c))
}

func (s *Server) resumeJob(c *gin.Context) (any, error) {
	j, err := s.jobService()
	if err != nil {
		return nil, err
	}
	return j.Resume(c.Request.Context(), c.Param("run"), s.jobCaller(c))
}

// jobCaller is who calls, for the job service: whose quota an upload
// counts against, who owns a job, who may cancel or resume it.
func (s *Server) jobCaller(c *gin.Context) jobs.Caller {
	return jobs.Caller{User: caller(c), Admin: s.auth.isAdmin(c), Open: c.GetString(keyVia) == "open"}
}

// deleteRun deletes a stored run; admins only.
func (s *Server) deleteRun(c *gin.Context) (any, error) {
	if !s.auth.isAdmin(c) {
		return nil, kgeval.Errorf(kgeval.EFORBIDDEN, "deleting a run needs an admin")
	}
	j, err := s.jobService()
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
