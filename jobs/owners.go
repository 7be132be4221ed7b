package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kgeval/kgeval"
)

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

// nameOf is the name part of an owner ("user:alice" is alice).
func nameOf(owner string) string {
	if _, name, ok := strings.Cut(owner, ":"); ok {
		return name
	}
	return owner
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
