package jobs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kgeval/kgeval"
)

// CheckUpload refuses one more upload by who of size bytes (-1: not known
// yet) over the quota (UploadQuota): the dashboard asks before it
// reads an upload's body; Upload reserves its declared size and its bytes
// as they arrive.
func (j *Jobs) CheckUpload(who string, size int64) error {
	return checkQuota(j.UploadUsage(who), size)
}

// reserveUpload records upload id of who as being read, reserving its
// declared size (-1: none) of who's quota, and saves the record, so that
// a crash leaves no file unaccounted for. Errors: those of checkQuota.
func (j *Jobs) reserveUpload(id, who string, declared int64) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := checkQuota(j.usage(who, ""), declared); err != nil {
		return err
	}
	j.owners.Uploads[id] = uploadRecord{Owner: who, Bytes: max(declared, 0), Created: time.Now().UTC(), Reading: true}
	if err := j.saveOwners(); err != nil {
		delete(j.owners.Uploads, id)
		return err
	}
	return nil
}

// quotaReader reads an upload's body, reserving of its owner's quota each
// byte past what its record reserves before returning it: over the quota,
// the read fails with checkQuota's error.
type quotaReader struct {
	r  io.Reader
	j  *Jobs
	id string
	n  int64
}

func (q *quotaReader) Read(p []byte) (int, error) {
	n, err := q.r.Read(p)
	if n == 0 {
		return n, err
	}
	q.j.mu.Lock()
	defer q.j.mu.Unlock()
	rec, ok := q.j.owners.Uploads[q.id]
	if !ok {
		return 0, kgeval.Errorf(kgeval.EINTERNAL, "upload %s: no record", q.id)
	}
	if q.n+int64(n) > rec.Bytes {
		if qerr := checkQuota(q.j.usage(rec.Owner, q.id), q.n+int64(n)); qerr != nil {
			return 0, qerr
		}
		rec.Bytes = q.n + int64(n)
		q.j.owners.Uploads[q.id] = rec
	}
	q.n += int64(n)
	return n, err
}

// removeInterrupted removes the uploads that were being read when the
// server stopped (a crash, or a kill): their files are cut short, and
// they were never kept. It runs at start, before any upload.
func (j *Jobs) removeInterrupted() error {
	changed := false
	for id, r := range j.owners.Uploads {
		if !r.Reading {
			continue
		}
		if err := os.Remove(filepath.Join(j.Dir, id)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return kgeval.Wrap(kgeval.EINTERNAL, err, "remove interrupted upload %s", id)
		}
		delete(j.owners.Uploads, id)
		changed = true
	}
	if changed {
		return j.saveOwners()
	}
	return nil
}

// checkQuota refuses one more upload of size bytes (-1: not known yet)
// over the quota u: ETOOMANY (429) when the files are at their limit,
// ETOOLARGE (413) when the bytes are or would be. The message says the
// limit and how to free space.
func checkQuota(u UploadUsage, size int64) error {
	free := fmt.Sprintf("an upload is removed %s after it was made once no unfinished run needs it (web.upload_cleanup_age): wait for that, resume your interrupted runs to done, or ask an admin to delete runs you no longer need",
		age(time.Duration(u.CleanupAgeSeconds)*time.Second))
	if u.MaxFiles > 0 && u.Files >= u.MaxFiles {
		return kgeval.Errorf(kgeval.ETOOMANY, "upload quota: you keep %d uploads, at most %d per user (web.upload_quota_files); %s", u.Files, u.MaxFiles, free)
	}
	if u.MaxBytes > 0 && (u.Bytes >= u.MaxBytes || size > u.MaxBytes-u.Bytes) {
		this, reading := "", ""
		if size >= 0 {
			this = fmt.Sprintf(" and this one brings at least %s more", byteSize(size))
		}
		if u.Reading > 0 {
			reading = fmt.Sprintf(" (%d of them still being read)", u.Reading)
		}
		return kgeval.Errorf(kgeval.ETOOLARGE, "upload quota: your uploads hold %s%s%s, at most %s per user (web.upload_quota_bytes); %s", byteSize(u.Bytes), reading, this, byteSize(u.MaxBytes), free)
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

// UploadOwner tells whether dataset, an upload id or a run's recorded
// dataset (uploadOf), is an upload, and who made it (UploadOwners).
func (j *Jobs) UploadOwner(dataset string) (string, bool) {
	id, ok := j.uploadOf(dataset)
	if !ok && uploadName.MatchString(dataset) {
		id, ok = dataset, true // a job's upload id
	}
	if !ok {
		return "", false
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.owners.Uploads[id].Owner, true
}
