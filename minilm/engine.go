package minilm

import (
	"sync"
	"sync/atomic"
)

// linear is a dense layer y = x·Wᵀ + b with PyTorch's weight layout
// W[out][in]. Engines keep whatever form of W they need.
type linear struct {
	in, out int
	w       []float32 // out×in, row-major (kept by the BLAS engine)
	b       []float32 // out
	packed  []float32 // Wᵀ in 32-column panels (pure-Go engine)
}

// engine is a matrix-multiplication backend. All methods are
// single-threaded; the callers split the work across goroutines.
type engine interface {
	name() string
	// prepare converts the weights of l into the engine's layout.
	prepare(l *linear)
	// linearBlock computes rows [r0,r1) and columns [c0,c1) of
	// y = x·Wᵀ + b (y has stride l.out, x stride l.in).
	linearBlock(l *linear, x, y []float32, r0, r1, c0, c1 int)
	// attention computes one head of self-attention over one sequence of
	// L tokens: out = softmax(scale·Q·Kᵀ)·V. q, k and v point at the head's
	// first element with row stride ld; out has row stride ldo.
	attention(q, k, v []float32, ld, L, dh int, out []float32, ldo int, scale float32, s *attnScratch)
}

// attnScratch is per-task scratch memory for attention.
type attnScratch struct {
	kp, vp, scores []float32
}

func grow(b []float32, n int) []float32 {
	if cap(b) < n {
		return make([]float32, n)
	}
	return b[:n]
}

var attnScratchPool = sync.Pool{New: func() any { return new(attnScratch) }}

// softmaxRows applies softmax(scale·row[:L]) to L rows of stride lds.
func softmaxRows(s []float32, L, lds int, scale float32) {
	for i := 0; i < L; i++ {
		row := s[i*lds : i*lds+L]
		m := row[0]
		for _, v := range row[1:] {
			if v > m {
				m = v
			}
		}
		var sum float32
		for j, v := range row {
			e := expf((v - m) * scale)
			row[j] = e
			sum += e
		}
		inv := 1 / sum
		for j := range row {
			row[j] *= inv
		}
	}
}

// goEngine is the pure-Go engine: packed panels + assembly micro-kernels.
type goEngine struct{}

func (goEngine) name() string { return "go-" + kernelISA }

func (goEngine) prepare(l *linear) {
	l.packed = make([]float32, packedLen(l.in, l.out))
	packTransposed(l.packed, l.w, l.in, l.in, l.out)
	l.w = nil // only the packed form is used
}

func (goEngine) linearBlock(l *linear, x, y []float32, r0, r1, c0, c1 int) {
	n := l.out
	for i := r0; i < r1; i++ {
		copy(y[i*n+c0:i*n+c1], l.b[c0:c1])
	}
	// c0 is a multiple of panelW; c1 is too unless it is n.
	gemmPackedRange(r0, r1, c0/panelW, panelsFor(c1), n, l.in, x, l.in, l.packed, y, n, true)
}

func (goEngine) attention(q, k, v []float32, ld, L, dh int, out []float32, ldo int, scale float32, s *attnScratch) {
	np := panelsFor(L)
	lds := np * panelW
	// Kᵀ as panels over the L key positions: scores = Q·Kᵀ (padded
	// columns come out as 0 and are ignored).
	s.kp = grow(s.kp, np*dh*panelW)
	packTransposed(s.kp, k, ld, dh, L)
	s.scores = grow(s.scores, L*lds)
	gemmPackedRange(0, L, 0, np, lds, dh, q, ld, s.kp, s.scores, lds, false)
	softmaxRows(s.scores, L, lds, scale)
	// out = P·V with V (L×dh) packed.
	s.vp = grow(s.vp, packedLen(L, dh))
	packRowMajor(s.vp, v, ld, L, dh)
	gemmPackedRange(0, L, 0, panelsFor(dh), dh, L, s.scores, lds, s.vp, out, ldo, false)
}

// parallelFor runs fn(0..n-1) on up to threads goroutines (the caller's
// included), handing out indices dynamically so that a stalled worker does
// not hold up the others.
func parallelFor(n, threads int, fn func(i int)) {
	if n <= 0 {
		return
	}
	if threads > n {
		threads = n
	}
	if threads <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= n {
				return
			}
			fn(i)
		}
	}
	var wg sync.WaitGroup
	wg.Add(threads - 1)
	for t := 0; t < threads-1; t++ {
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}

// linearForward computes y = x·Wᵀ + b for rows x[0:rows], splitting rows and
// column panels into tasks across threads.
func linearForward(e engine, l *linear, x []float32, rows int, y []float32, threads int) {
	const rowBlock = 96
	np := panelsFor(l.out)
	nrb := (rows + rowBlock - 1) / rowBlock
	// Aim for a few tasks per thread for load balance, but keep a task at
	// least ~1 MFLOP so that scheduling cost stays negligible.
	groups := 1
	if threads > 1 {
		want := 4 * threads
		if nrb < want {
			groups = (want + nrb - 1) / nrb
		}
		rowsPerTask := rows
		if rowsPerTask > rowBlock {
			rowsPerTask = rowBlock
		}
		maxGroups := np
		if minCols := 1 << 20 / (2 * l.in * rowsPerTask); minCols > panelW {
			maxGroups = (l.out + minCols - 1) / minCols
		}
		if groups > maxGroups {
			groups = maxGroups
		}
		if groups < 1 {
			groups = 1
		}
	}
	per := (np + groups - 1) / groups
	groups = (np + per - 1) / per
	parallelFor(nrb*groups, threads, func(t int) {
		rb, g := t/groups, t%groups
		r0 := rb * rowBlock
		r1 := r0 + rowBlock
		if r1 > rows {
			r1 = rows
		}
		c0 := g * per * panelW
		c1 := c0 + per*panelW
		if c1 > l.out {
			c1 = l.out
		}
		e.linearBlock(l, x, y, r0, r1, c0, c1)
	})
}
