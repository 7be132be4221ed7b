package jobs

import (
	"fmt"
	"math"
	"time"

	"github.com/kgeval/kgeval"
)

// startingJob is a job being started: its upload id and owner.
type startingJob struct{ upload, owner string }

// claim takes a job slot for run, whose job owner is being started on
// upload id, while that upload is read: ECONFLICT when a job runs or is
// being started as run, ETOOMANY when MaxRunning jobs, or MaxPerUser of
// owner's, run or are being started (busy). The caller deletes
// j.starting[run] under mu once it has launched the job or given up.
func (j *Jobs) claim(run, id, owner string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if jb, ok := j.jobs[run]; ok && jb.view.Live {
		return kgeval.Errorf(kgeval.ECONFLICT, "run %q is running", run)
	}
	if _, ok := j.starting[run]; ok {
		return kgeval.Errorf(kgeval.ECONFLICT, "run %q is being started", run)
	}
	if err := j.busy(owner); err != nil {
		return err
	}
	j.starting[run] = startingJob{upload: id, owner: owner}
	return nil
}

// busy refuses a job of owner when MaxRunning jobs run or are being
// started, or MaxPerUser of owner's (not "anonymous", nor "" for a caller
// of this package that names nobody: with sign-in off there is nobody to
// tell apart): ETOOMANY with RetryAfter, the estimate
// of when such a slot frees up (slotWait). Callers hold mu.
func (j *Jobs) busy(owner string) error {
	var all, mine []*job
	n, own := len(j.starting), 0
	for _, st := range j.starting {
		if st.owner == owner {
			own++
		}
	}
	for _, jb := range j.jobs {
		if jb.view.Live {
			n++
			all = append(all, jb)
			if jb.view.Owner == owner {
				own++
				mine = append(mine, jb)
			}
		}
	}
	if j.MaxRunning > 0 && n >= j.MaxRunning {
		wait, how := slotWait(all)
		e := kgeval.Errorf(kgeval.ETOOMANY, "%d jobs are running or starting (at most %d at once): a slot frees up in %s at the earliest (%s); wait for one, or cancel one",
			n, j.MaxRunning, roundWait(wait), how)
		e.RetryAfter = wait
		return e
	}
	if j.MaxPerUser > 0 && owner != "anonymous" && owner != "" && own >= j.MaxPerUser {
		wait, how := slotWait(mine)
		e := kgeval.Errorf(kgeval.ETOOMANY, "you have %d job(s) running or starting (at most %d per user, so that other users get a slot): yours frees up in %s at the earliest (%s); wait for it, or cancel it",
			own, j.MaxPerUser, roundWait(wait), how)
		e.RetryAfter = wait
		return e
	}
	return nil
}

// Bounds of slotWait's estimate.
const (
	minSlotWait     = 5 * time.Second
	maxSlotWait     = time.Hour
	unknownSlotWait = time.Minute
)

// slotWait estimates when the first of jobs ends, and says how: the time
// its current stage has left at its rate so far (later stages add to it,
// so it is the soonest a slot may free up), between 5 s and an hour; a
// minute when no job has a rate yet (each is starting or has just begun a
// stage). Callers hold mu.
func slotWait(jobs []*job) (time.Duration, string) {
	best := -1.0
	for _, jb := range jobs {
		if eta := jb.view.ETA; eta >= 0 && (best < 0 || eta < best) {
			best = eta
		}
	}
	if best < 0 {
		return unknownSlotWait, "a guess: no running job has a rate yet"
	}
	d := time.Duration(best * float64(time.Second))
	return min(max(d, minSlotWait), maxSlotWait), "an estimate: the time the current stage of the job nearest its end has left at its rate so far; later stages add to it"
}

// roundWait writes a wait in whole seconds ("45 s") or minutes ("12 min").
func roundWait(d time.Duration) string {
	if d < 2*time.Minute {
		return fmt.Sprintf("%d s", int(math.Ceil(d.Seconds())))
	}
	return fmt.Sprintf("%d min", int(math.Round(d.Minutes())))
}
