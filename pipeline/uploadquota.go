package pipeline

import (
	"fmt"
	"strings"
	"time"

	"github.com/kgeval/kgeval"
)

// CheckUpload refuses one more upload by who of size bytes (-1: not known
// yet) over the quota (kgeval.UploadQuota): the dashboard asks before it
// reads an upload's body, Upload checks again with the bytes it read.
func (j *Jobs) CheckUpload(who string, size int64) error {
	return checkQuota(j.UploadUsage(who), size)
}

// checkQuota refuses one more upload of size bytes (-1: not known yet)
// over the quota u: ETOOMANY (429) when the files are at their limit,
// ETOOLARGE (413) when the bytes are or would be. The message says the
// limit and how to free space.
func checkQuota(u kgeval.UploadUsage, size int64) error {
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
