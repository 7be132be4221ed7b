package jobs

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/kgeval/kgeval"
	"github.com/kgeval/kgeval/dataset"
	"golang.org/x/sync/semaphore"
)

// budget is the memory the uploads being read and validated, and the jobs
// loading an upload, share at once (web.upload_memory_bytes). An upload
// reserves what reading it may hold once its body is in, so that a slow
// upload holds none while it arrives, and gives it back when Upload
// returns; a job reserves what loading its stored upload holds
// (fileWeight) while Start or Resume reads it. What reading may hold is
// what the budget's meter measured of the bytes (the structure of the
// records too), else its cost of the name and size. One that cannot
// reserve it within wait gets EUNAVAILABLE with a RetryAfter (the API's
// 503 and Retry-After): N bombs at once hold N reservations, never more
// than the budget; one that needs more than the whole budget gets
// ETOOLARGE.
type budget struct {
	sem   *semaphore.Weighted
	total int64
	cost  func(name string, size int64) int64
	meter func(name string) *dataset.Meter
	wait  time.Duration
}

// budgetWait is how long an upload or a job's load waits for its
// reservation.
const budgetWait = 10 * time.Second

// defaultMemoryBytes is web.upload_memory_bytes's default.
const defaultMemoryBytes = 512 << 20

// newBudget returns a budget of total bytes (default 512 MiB) whose costs
// are those of reading a dataset with opt's limits.
func newBudget(total int64, opt dataset.Options) *budget {
	return newBudgetOf(total, dataset.UploadCost(opt), func(name string) *dataset.Meter { return dataset.NewMeter(name, opt) })
}

// newBudgetOf returns a budget of total bytes with the given cost and
// meter, which measures what reading an upload holds as its bytes go by
// (nil, or a nil Meter for a name of no dataset format: cost alone; nil
// cost or a negative one: the whole budget).
func newBudgetOf(total int64, cost func(name string, size int64) int64, m func(name string) *dataset.Meter) *budget {
	if total <= 0 {
		total = defaultMemoryBytes
	}
	return &budget{sem: semaphore.NewWeighted(total), total: total, cost: cost, meter: m, wait: budgetWait}
}

// weight is what an upload named name of size bytes reserves: its cost,
// within 1 byte and the whole budget (an unbounded cost takes it all).
func (b *budget) weight(name string, size int64) int64 {
	w := b.total
	if b.cost != nil {
		if c := b.cost(name, size); c >= 0 {
			w = c
		}
	}
	return min(max(w, 1), b.total)
}

// fileWeight is what loading the stored dataset at path (an upload, named
// name) reserves of the budget: its meter's cost, the file read through
// it, when the budget has a meter, else weight of its size. Errors:
// ENOTFOUND, ETOOLARGE (more than the whole budget).
func (b *budget) fileWeight(name, path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, kgeval.Errorf(kgeval.ENOTFOUND, "upload %s: not found (upload it again)", name)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, kgeval.Wrap(kgeval.EINTERNAL, err, "upload %s", name)
	}
	if b.meter == nil {
		return b.weight(name, st.Size()), nil
	}
	m := b.meter(name)
	if m == nil {
		return b.weight(name, st.Size()), nil
	}
	if _, err := io.Copy(m, f); err != nil {
		return 0, kgeval.Wrap(kgeval.EINTERNAL, err, "upload %s", name)
	}
	c := m.Cost()
	if c > b.total {
		return 0, kgeval.Errorf(kgeval.ETOOLARGE, "loading upload %s would hold about %s of memory, more than the %s uploads and jobs share (web.upload_memory_bytes)", name, mebibytes(c), mebibytes(b.total))
	}
	if c < 0 {
		return b.total, nil
	}
	return max(c, 1), nil
}

// file reserves what loading the stored upload at path (named name) holds;
// release gives it back. Errors: fileWeight's, EUNAVAILABLE (not free
// within the wait).
func (b *budget) file(ctx context.Context, name, path string) (release func(), err error) {
	w, err := b.fileWeight(name, path)
	if err != nil {
		return nil, err
	}
	r := &budgetedBody{ctx: ctx, name: name, budget: b, fixed: w}
	if err := r.reserve(); err != nil {
		return nil, err
	}
	return r.release, nil
}

// body wraps the body of the upload named name: at its end it reserves
// the upload's weight for its size before returning io.EOF (or the
// reservation's error, which ends the upload). release gives the
// reservation back; call it once the upload is validated.
func (b *budget) body(ctx context.Context, name string, body io.Reader) (io.Reader, func()) {
	r := &budgetedBody{r: body, ctx: ctx, name: name, budget: b}
	if b.meter != nil {
		r.meter = b.meter(name)
	}
	return r, r.release
}

// budgetedBody is an upload body that reserves its memory at its end.
type budgetedBody struct {
	r      io.Reader
	ctx    context.Context
	name   string
	budget *budget
	meter  *dataset.Meter // nil: the budget's cost of the name and size
	fixed  int64          // > 0: the weight to reserve (a stored upload's fileWeight)

	n     int64 // bytes read
	err   error // the reservation failed
	mu    sync.Mutex
	taken int64
}

func (b *budgetedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.meter != nil {
		b.meter.Write(p[:n])
	}
	if err == io.EOF {
		if rerr := b.reserve(); rerr != nil {
			b.err = rerr
			return n, rerr
		}
	}
	return n, err
}

// reserve takes the upload's weight, waiting at most the budget's wait.
func (b *budgetedBody) reserve() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.taken > 0 {
		return nil
	}
	w := b.budget.weight(b.name, b.n)
	if b.fixed > 0 {
		w = b.fixed
	} else if b.meter != nil {
		if c := b.meter.Cost(); c > b.budget.total {
			return kgeval.Errorf(kgeval.ETOOLARGE, "reading this upload would hold about %s of memory, more than the %s all uploads share (web.upload_memory_bytes): split it, or flatten the objects and lists of its fields (each costs hundreds of bytes once decoded)",
				mebibytes(c), mebibytes(b.budget.total))
		} else if c >= 0 {
			w = max(c, 1)
		}
	}
	ctx, cancel := context.WithTimeout(b.ctx, b.budget.wait)
	defer cancel()
	if err := b.budget.sem.Acquire(ctx, w); err != nil {
		secs := int((b.budget.wait + time.Second - 1) / time.Second)
		e := kgeval.Errorf(kgeval.EUNAVAILABLE, "the server is busy reading other uploads: this one needs %s of the %s they share (web.upload_memory_bytes), which did not come free within %d s; retry in %d s",
			mebibytes(w), mebibytes(b.budget.total), secs, secs)
		e.RetryAfter = time.Duration(secs) * time.Second
		return e
	}
	b.taken = w
	return nil
}

func (b *budgetedBody) release() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.taken > 0 {
		b.budget.sem.Release(b.taken)
		b.taken = 0
	}
}

// mebibytes writes n bytes in MiB: 153.4 MiB.
func mebibytes(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
