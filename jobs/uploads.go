package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/configs"
	"github.com/kgeval/kgeval/dataset"
	"github.com/kgeval/kgeval/metricreg"
)

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
		CleanupAge: cfg.Web.UploadCleanupAge, CleanupEvery: cfg.Web.UploadCleanupInterval, MemoryBytes: cfg.Web.UploadMemoryBytes,
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

// uploadName is the form of a stored upload's generated name.
var uploadName = regexp.MustCompile(`^[0-9a-f]{32}\.(jsonl|json|csv|parquet)$`)

// Upload writes body to a new file of Dir named by 16 random bytes and the
// extension of name, then validates it with the dataset loader of
// `kgeval evaluate`, inside the memory budget (reserved once the body is
// in, given back when it returns). A file with no valid record is not kept. The upload
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
	body, release := j.budget.body(ctx, name, body)
	defer release()
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

// load reads the upload id once, inside the memory budget the uploads
// share. Errors: ENOTFOUND (removed), the
// budget's (EUNAVAILABLE), the loader's (ETOOLARGE, EINVALID) naming the
// upload, not the server's path.
func (j *Jobs) load(ctx context.Context, id string) (*dataset.Result, error) {
	path := filepath.Join(j.Dir, id)
	notFound := kgeval.Errorf(kgeval.ENOTFOUND, "upload %s: not found (upload it again)", id)
	if _, err := os.Stat(path); err != nil {
		return nil, notFound
	}
	release, err := j.budget.file(ctx, id, path)
	if err != nil {
		return nil, err
	}
	defer release()
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
