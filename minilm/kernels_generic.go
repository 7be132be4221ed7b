//go:build !amd64 || purego

package minilm

// Portable build (non-amd64, or -tags purego): plain Go micro-kernel only.

const maxKernelRows = 4

var (
	kernelRows = 4
	kernelISA  = "go"
)

// selectKernel is a no-op without assembly kernels.
func selectKernel(avx512, avx2 bool) {}

// microKernel computes C[r×32] (+)= A[r×k] · P[k×32] for r <= kernelRows.
func microKernel(r, k int, a []float32, lda int, b []float32, c []float32, ldc int, accum bool) {
	if r <= 0 || k <= 0 {
		return
	}
	kernelGeneric(r, k, a, lda, b, c, ldc, accum)
}

func useKernelFlags() (bool, bool) { return false, false }

// geluSlice applies gelu in place.
func geluSlice(x []float32) {
	for i, v := range x {
		x[i] = gelu(v)
	}
}
