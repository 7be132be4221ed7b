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

// TestGemmPacked_SameBitsOnEveryKernel: every micro-kernel this CPU has
// (the portable one, AVX2, AVX-512) gives the same bits, with and without
// accumulating into C, over full and partial panels.
func TestGemmPacked_SameBitsOnEveryKernel(t *testing.T) {
	isas := [][2]bool{{false, false}}
	switch kernelISA {
	case "avx512":
		isas = append(isas, [2]bool{false, true}, [2]bool{true, false})
	case "avx2":
		isas = append(isas, [2]bool{false, true})
	}
	if len(isas) == 1 {
		t.Logf("only the portable kernel on this CPU (%s)", kernelISA)
	}
	defer selectKernel(useKernelFlags())
	r := rand.New(rand.NewSource(2))
	for _, sh := range [][3]int{{1, 5, 3}, {13, 70, 33}, {25, 384, 96}, {30, 37, 1}, {12, 64, 384}, {97, 1536, 384}} {
		m, n, k := sh[0], sh[1], sh[2]
		x, w, c0 := randSlice(r, m*k), randSlice(r, n*k), randSlice(r, m*n)
		bp := make([]float32, packedLen(k, n))
		packTransposed(bp, w, k, k, n)
		for _, accum := range []bool{false, true} {
			var want []float32
			for _, isa := range isas {
				selectKernel(isa[0], isa[1])
				c := append([]float32(nil), c0...)
				gemmPackedRange(0, m, 0, panelsFor(n), n, k, x, k, bp, c, n, accum)
				if want == nil {
					want = c
					continue
				}
				for i := range c {
					if math.Float32bits(c[i]) != math.Float32bits(want[i]) {
						t.Fatalf("%dx%dx%d accum=%v: %s gives c[%d] = %v, the portable kernel %v", m, n, k, accum, kernelISA, i, c[i], want[i])
					}
				}
			}
		}
	}
}
