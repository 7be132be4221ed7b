package render

import (
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress reports each stage's progress on w: a progress bar with count,
// rate and ETA when w is a terminal, else plain lines at most every two
// seconds (and at the end of a stage), for logs and CI.
func Progress(w io.Writer) func(stage string, done, total int) {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return progressBars(f)
	}
	var mu sync.Mutex
	last := map[string]time.Time{}
	type mark struct {
		at   time.Time
		done int
	}
	// base is where the rate is measured from: items finished within the
	// stage's first second (answers from the cache, graphs a resumed run
	// already scored) do not count, or the ETA of a resumed run would be
	// seconds while hours of model calls remain.
	base, started := map[string]mark{}, map[string]time.Time{}
	return func(stage string, done, total int) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		if _, ok := started[stage]; !ok {
			started[stage] = now
		}
		if now.Sub(started[stage]) < time.Second {
			base[stage] = mark{now, done}
		}
		if done < total && now.Sub(last[stage]) < 2*time.Second {
			return
		}
		last[stage] = now
		b := base[stage]
		el, n := now.Sub(b.at), done-b.done
		if n <= 0 { // the whole stage within its first second
			el, n = now.Sub(started[stage]), done
		}
		eta := ""
		if n > 0 && done < total {
			eta = fmt.Sprintf(", ETA %s", (el * time.Duration(total-done) / time.Duration(n)).Round(time.Second))
		}
		rate := float64(n) / math.Max(el.Seconds(), 0.001)
		fmt.Fprintf(w, "%-8s %d/%d (%.1f/s%s)\n", stage, done, total, rate, eta)
	}
}

// progressBars draws one bar per stage on a terminal.
func progressBars(w io.Writer) func(stage string, done, total int) {
	var mu sync.Mutex
	bars := map[string]*progressbar.ProgressBar{}
	return func(stage string, done, total int) {
		mu.Lock()
		defer mu.Unlock()
		b, ok := bars[stage]
		if !ok {
			b = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(fmt.Sprintf("%-8s", stage)),
				progressbar.OptionShowCount(), progressbar.OptionShowIts(), progressbar.OptionSetPredictTime(true),
				progressbar.OptionSetWidth(30), progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }))
			bars[stage] = b
		}
		if b.GetMax() != total { // a stage that learns its work as it goes (atomic claims)
			b.ChangeMax(total)
		}
		b.Set(done)
	}
}
