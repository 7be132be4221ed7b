package web

import (
	"regexp"

	"github.com/gin-gonic/gin"
	"github.com/kgeval/kgeval/analysis"
	"github.com/kgeval/kgeval/jobs"
)

// An upload's id is shown only to the user who made it and to admins
// (a job may evaluate only its caller's own uploads): others see whose upload a job or run evaluates,
// not the id a job could be started on. With sign-in off there is nobody
// to tell apart, and everyone sees it.

// shownDataset is what the caller may see of dataset, the upload id of a
// job or the dataset path of a run, whose job jobOwner started ("" when
// not known): the same for an admin, the upload's owner, and the job's
// owner when the upload's is no longer recorded; "upload of OWNER" or
// "an upload" for anyone else.
func (s *Server) shownDataset(c *gin.Context, dataset, jobOwner string) string {
	o, ok := s.cfg.Jobs.(jobs.UploadOwners)
	if !ok || s.auth.isAdmin(c) || c.GetString(keyVia) == "open" {
		return dataset
	}
	owner, upload := o.UploadOwner(dataset)
	me := caller(c)
	switch {
	case !upload || (me != "" && (owner == me || (owner == "" && jobOwner == me))):
		return dataset
	case owner != "":
		return "upload of " + owner
	}
	return "an upload"
}

// shownRuns is runs with their datasets as the caller may see them.
func (s *Server) shownRuns(c *gin.Context, runs []analysis.RunRow) []analysis.RunRow {
	out := make([]analysis.RunRow, len(runs))
	for i, r := range runs {
		r.Dataset = s.shownDataset(c, r.Dataset, "")
		out[i] = r
	}
	return out
}

// shownView is a copy of v (which the reader may cache) with its dataset
// as the caller may see it.
func (s *Server) shownView(c *gin.Context, v *analysis.RunView) *analysis.RunView {
	if v == nil {
		return nil
	}
	cp := *v
	cp.Run.Dataset = s.shownDataset(c, v.Run.Dataset, "")
	return &cp
}

// uploadPath is an upload's id, and the path before it, in a text.
var uploadPath = regexp.MustCompile(`[^\s,()]*[0-9a-f]{32}\.(?:jsonl|json|csv|parquet)`)

// shownWarnings is warnings with the uploads they name as the caller may
// see them (a comparison of runs of different datasets names both).
func (s *Server) shownWarnings(c *gin.Context, warnings []analysis.RunWarning) []analysis.RunWarning {
	out := make([]analysis.RunWarning, len(warnings))
	for i, w := range warnings {
		w.Message = uploadPath.ReplaceAllStringFunc(w.Message, func(p string) string { return s.shownDataset(c, p, "") })
		out[i] = w
	}
	return out
}

// shownCompare is a copy of v (which the reader may cache) with its runs'
// datasets as the caller may see them.
func (s *Server) shownCompare(c *gin.Context, v *analysis.CompareView) *analysis.CompareView {
	if v == nil {
		return nil
	}
	cp := *v
	cp.A.Dataset, cp.B.Dataset = s.shownDataset(c, v.A.Dataset, ""), s.shownDataset(c, v.B.Dataset, "")
	cp.Warnings = s.shownWarnings(c, v.Warnings)
	if v.Paired != nil {
		paired := *v.Paired
		paired.Warnings = s.shownWarnings(c, v.Paired.Warnings)
		cp.Paired = &paired
	}
	return &cp
}
