//go:build openblas && cgo

package minilm

// OpenBLAS engine, selected with -tags openblas (cgo; needs
// apt-get install -y libopenblas-dev). See internal/cblas.

import "github.com/kgeval/kgeval/minilm/internal/cblas"

func init() {
	// Parallelism comes from the Go side; one OpenBLAS thread per call
	// avoids oversubscribing the cores.
	cblas.SetNumThreads(1)
}

func defaultEngine() engine { return blasEngine{} }

type blasEngine struct{}

func (blasEngine) name() string { return "openblas" }

func (blasEngine) prepare(l *linear) {}

func (blasEngine) linearBlock(l *linear, x, y []float32, r0, r1, c0, c1 int) {
	n := l.out
	for i := r0; i < r1; i++ {
		copy(y[i*n+c0:i*n+c1], l.b[c0:c1])
	}
	// y[r0:r1, c0:c1] += x[r0:r1] · W[c0:c1]ᵀ
	cblas.Sgemm(true, r1-r0, c1-c0, l.in, 1, x[r0*l.in:], l.in, l.w[c0*l.in:], l.in, 1, y[r0*n+c0:], n)
}

func (blasEngine) attention(q, k, v []float32, ld, L, dh int, out []float32, ldo int, scale float32, s *attnScratch) {
	s.scores = grow(s.scores, L*L)
	cblas.Sgemm(true, L, L, dh, 1, q, ld, k, ld, 0, s.scores, L)
	softmaxRows(s.scores, L, L, scale)
	cblas.Sgemm(false, L, dh, L, 1, s.scores, L, v, ld, 0, out, ldo)
}
