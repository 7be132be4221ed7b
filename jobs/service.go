// Package jobs runs the dashboard's evaluations in the background on the
// one runner.Runner the CLI asks: uploads kept and validated (uploads.go),
// each user's upload quota (quota.go), who owns each upload and run and
// the cleanup of old uploads (owners.go), the slots that bound the jobs
// running at once (slots.go), the memory that uploads being read and jobs
// loading one share (budget.go), and the queue of jobs with their
// progress, cancel and resume (jobs.go). Service is what package web
// calls; who asks is one explicit Caller argument.
package jobs

import (
	"context"
	"io"
	"time"

	"github.com/kgeval/kgeval"
)

// Service starts and watches evaluations for the dashboard: datasets
// uploaded and validated, evaluations run in the background with their
// progress, cancelled, resumed, and runs deleted. Jobs implements it on the
// Runner the CLI asks. Who asks is always the explicit Caller argument.
type Service interface {
	// Options are what a job may choose, from the server's configuration.
	Options() Options
	// Upload stores a dataset file of by (name gives its format by
	// extension; size is its declared length, -1 when not declared; the
	// body is already size-limited), counts it against by's quota and
	// validates it record by record, inside the memory budget uploads and
	// job loads share (web.upload_memory_bytes; reserved once the body is
	// in). Errors: EINVALID (unknown format, unreadable file), ETOOLARGE,
	// ETOOMANY (the quota's files), EUNAVAILABLE with a RetryAfter (the
	// budget not free in time).
	Upload(ctx context.Context, by Caller, name string, size int64, body io.Reader) (Upload, error)
	// Start evaluates an upload as a new run of by in the background. It
	// reads the upload (once, inside the memory budget) only after the cheap checks
	// have passed. Errors: EINVALID, ENOTFOUND (no such upload),
	// EFORBIDDEN (another user's upload, and by is no admin on a server
	// with sign-in on), ECONFLICT (the run exists), ETOOMANY (jobs
	// running), and the budget's (EUNAVAILABLE).
	Start(ctx context.Context, by Caller, req Request) (Job, error)
	// List returns this server's jobs and the stored runs left unfinished.
	List(ctx context.Context) ([]Job, error)
	// Get returns the job (or unfinished stored run) of a run. Errors:
	// ENOTFOUND.
	Get(ctx context.Context, run string) (Job, error)
	// Cancel stops a running job; its run is recorded as interrupted.
	// Only the job's Owner or an admin may (Caller). Errors: EFORBIDDEN,
	// ENOTFOUND, ECONFLICT (not running).
	Cancel(ctx context.Context, run string, by Caller) (Job, error)
	// Resume finishes an interrupted (or, after a restart, unfinished) run
	// of an uploaded dataset in the background; the run keeps its recorded
	// owner (by.User becomes it when none is recorded). Only the job's
	// Owner or an admin may (Caller). It reads the upload as Start does.
	// Errors: EFORBIDDEN, ENOTFOUND (the run, or its upload, is gone),
	// ECONFLICT (running), ETOOMANY, EINVALID (not a dashboard upload, or
	// changed).
	Resume(ctx context.Context, run string, by Caller) (Job, error)
	// DeleteRun deletes a stored run and forgets its job. Errors:
	// ENOTFOUND, ECONFLICT (its job is running).
	DeleteRun(ctx context.Context, run string) error
}

// Caller is who asks, as the server knows them: one argument of every
// call that depends on it. An upload counts against User's quota; a job
// records User as its Owner. The job's Owner and admins may cancel or
// resume it; with sign-in off (Open) there is nobody to tell apart, and
// everyone may. Anyone else, and everyone but admins when no owner is
// recorded, gets EFORBIDDEN. Admins (and everyone with sign-in off) may
// evaluate any upload, others only their own.
type Caller struct {
	// User is "user:NAME" or "token:NAME" (as web.users and web.tokens
	// name them), "anonymous" with sign-in off.
	User string
	// Admin: web.users[].admin or web.tokens[].admin.
	Admin bool
	// Open: sign-in is off (web.auth: false).
	Open bool
}

// anyUpload says whether by may evaluate any upload: an admin, or anyone
// with sign-in off.
func (by Caller) anyUpload() bool { return by.Admin || by.Open }

// Options are the choices the jobs page offers.
type Options struct {
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

// UploadQuota is implemented by a Service that keeps each user's
// uploads within a quota (Jobs does). Its Upload enforces it;
// the server asks first, so that an upload over it is refused before its
// body is read.
type UploadQuota interface {
	// UploadUsage returns what who's kept uploads hold and the limits.
	UploadUsage(who string) UploadUsage
	// CheckUpload refuses one more upload by who of size bytes (-1: not
	// known yet) over the quota. Errors: ETOOMANY, ETOOLARGE.
	CheckUpload(who string, size int64) error
}

// UploadUsage is what one user's (or token's) uploads hold against the
// upload quota (web.upload_quota_files, web.upload_quota_bytes), and how
// long an upload no unfinished run needs is kept (web.upload_cleanup_age).
// Files and Bytes count the uploads still being read too (Reading of
// them): each reserves its declared size, or the bytes that have arrived.
type UploadUsage struct {
	Files             int   `json:"files"`
	Bytes             int64 `json:"bytes"`
	Reading           int   `json:"reading"`
	MaxFiles          int   `json:"max_files"`
	MaxBytes          int64 `json:"max_bytes"`
	CleanupAgeSeconds int64 `json:"cleanup_age_seconds"`
}

// UploadOwners is implemented by a Service that records who made each
// upload (Jobs does): the dashboard shows an upload's id only to
// its owner and admins.
type UploadOwners interface {
	// UploadOwner tells whether dataset (an upload id, or the path a run
	// records) is one of the service's uploads, and who made it ("" when
	// that is no longer recorded).
	UploadOwner(dataset string) (owner string, upload bool)
}

// Request starts a job.
type Request struct {
	Upload    string   `json:"upload"`
	Run       string   `json:"run"`
	Metrics   []string `json:"metrics"`
	Engine    string   `json:"engine"`
	Limit     int      `json:"limit"`
	CacheOnly bool     `json:"cache_only"`
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
