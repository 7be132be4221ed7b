package minilm

import (
	"fmt"
	"math/rand"
	"testing"
)

func BenchmarkGemmPacked(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	for _, sh := range [][3]int{{8, 1536, 384}, {256, 1536, 384}, {2048, 1536, 384}, {2048, 384, 1536}} {
		m, n, k := sh[0], sh[1], sh[2]
		x := randSlice(r, m*k)
		w := randSlice(r, n*k)
		bp := make([]float32, packedLen(k, n))
		packTransposed(bp, w, k, k, n)
		c := make([]float32, m*n)
		b.Run(fmt.Sprintf("%s/%dx%dx%d", kernelISA, m, n, k), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				gemmPackedRange(0, m, 0, panelsFor(n), n, k, x, k, bp, c, n, false)
			}
			b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
