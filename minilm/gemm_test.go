package minilm

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
)

func naiveLinear(x []float32, m, k int, w []float32, n int) []float32 {
	y := make([]float32, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var s float64
			for kk := 0; kk < k; kk++ {
				s += float64(x[i*k+kk]) * float64(w[j*k+kk])
			}
			y[i*n+j] = float32(s)
		}
	}
	return y
}

func randSlice(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(r.NormFloat64())
	}
	return s
}

func TestGemmPacked(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	isas := [][2]bool{{false, false}}
	if kernelISA != "go" {
		isas = append(isas, [2]bool{false, true})
		if kernelISA == "avx512" {
			isas = append(isas, [2]bool{true, false})
		}
	}
	defer selectKernel(useKernelFlags())
	for _, isa := range isas {
		selectKernel(isa[0], isa[1])
		for _, sh := range [][3]int{{1, 5, 3}, {7, 32, 16}, {13, 70, 33}, {25, 384, 96}, {30, 37, 1}, {12, 64, 384}} {
			m, n, k := sh[0], sh[1], sh[2]
			t.Run(fmt.Sprintf("%s/%dx%dx%d", kernelISA, m, n, k), func(t *testing.T) {
				x := randSlice(r, m*k)
				w := randSlice(r, n*k)
				want := naiveLinear(x, m, k, w, n)
				bp := make([]float32, packedLen(k, n))
				packTransposed(bp, w, k, k, n)
				for _, accum := range []bool{false, true} {
					c := make([]float32, m*n)
					if accum {
						for i := range c {
							c[i] = 1
						}
					}
					gemmPackedRange(0, m, 0, panelsFor(n), n, k, x, k, bp, c, n, accum)
					for i := range c {
						wv := want[i]
						if accum {
							wv++
						}
						if math.Abs(float64(c[i]-wv)) > 1e-3*(1+math.Abs(float64(wv))) {
							t.Fatalf("accum=%v c[%d]=%v want %v", accum, i, c[i], wv)
						}
					}
				}
				// Row-major packing of Wᵀ gives the same panels.
				wt := make([]float32, k*n)
				for j := 0; j < n; j++ {
					for kk := 0; kk < k; kk++ {
						wt[kk*n+j] = w[j*k+kk]
					}
				}
				bp2 := make([]float32, packedLen(k, n))
				packRowMajor(bp2, wt, n, k, n)
				for i := range bp {
					if bp[i] != bp2[i] {
						t.Fatalf("packRowMajor differs at %d", i)
					}
				}
			})
		}
	}
}
