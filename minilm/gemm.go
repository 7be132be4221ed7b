package minilm

// Pure-Go SGEMM on packed panels.
//
// B (k×n) is stored as ceil(n/32) panels; panel p holds columns
// [32p, 32p+32) as k rows of 32 contiguous floats (zero-padded past n).
// A register-blocked micro-kernel (AVX-512 or AVX2+FMA assembly on amd64,
// plain Go elsewhere or with -tags purego) multiplies up to kernelRows rows
// of A by one panel at a time.

const panelW = 32

// panelsFor returns the number of panels for n columns.
func panelsFor(n int) int { return (n + panelW - 1) / panelW }

// packedLen is the length of the packed form of a k×n matrix.
func packedLen(k, n int) int { return panelsFor(n) * k * panelW }

// packTransposed packs B = Wᵀ where W is n×k row-major with stride ldw
// (PyTorch's Linear weight layout: out×in), so B[kk][j] = W[j][kk].
func packTransposed(dst []float32, w []float32, ldw, k, n int) {
	np := panelsFor(n)
	for p := 0; p < np; p++ {
		panel := dst[p*k*panelW : (p+1)*k*panelW]
		cols := n - p*panelW
		if cols < panelW {
			clear(panel)
		} else {
			cols = panelW
		}
		for j := 0; j < cols; j++ {
			col := p*panelW + j
			row := w[col*ldw : col*ldw+k]
			for kk, v := range row {
				panel[kk*panelW+j] = v
			}
		}
	}
}

// packRowMajor packs a k×n row-major B with stride ldb.
func packRowMajor(dst []float32, b []float32, ldb, k, n int) {
	np := panelsFor(n)
	for p := 0; p < np; p++ {
		panel := dst[p*k*panelW : (p+1)*k*panelW]
		c0 := p * panelW
		w := n - c0
		if w > panelW {
			w = panelW
		}
		for kk := 0; kk < k; kk++ {
			row := panel[kk*panelW : kk*panelW+panelW]
			copy(row[:w], b[kk*ldb+c0:kk*ldb+c0+w])
			for j := w; j < panelW; j++ {
				row[j] = 0
			}
		}
	}
}

// gemmPackedRange computes C[rows r0..r1, panels p0..p1] (+)= A · Bpacked for
// a k-deep product. C has n valid columns and stride ldc. Single-threaded.
func gemmPackedRange(r0, r1, p0, p1, n, k int, a []float32, lda int, bp []float32, c []float32, ldc int, accum bool) {
	const mc = 96 // rows per block: A block of mc×k stays in L2
	var tmp [maxKernelRows * panelW]float32
	for ic := r0; ic < r1; ic += mc {
		ie := ic + mc
		if ie > r1 {
			ie = r1
		}
		for p := p0; p < p1; p++ {
			panel := bp[p*k*panelW : (p+1)*k*panelW]
			c0 := p * panelW
			full := c0+panelW <= n
			for ir := ic; ir < ie; {
				r := ie - ir
				if r > kernelRows {
					r = kernelRows
				}
				arow := a[ir*lda:]
				if full {
					microKernel(r, k, arow, lda, panel, c[ir*ldc+c0:], ldc, accum)
				} else {
					// Partial last panel: compute into a scratch tile.
					w := n - c0
					microKernel(r, k, arow, lda, panel, tmp[:], panelW, false)
					for i := 0; i < r; i++ {
						dst := c[(ir+i)*ldc+c0 : (ir+i)*ldc+c0+w]
						src := tmp[i*panelW : i*panelW+w]
						if accum {
							for j := range dst {
								dst[j] += src[j]
							}
						} else {
							copy(dst, src)
						}
					}
				}
				ir += r
			}
		}
	}
}

// kernelGeneric is the portable micro-kernel: C[r×32] (+)= A[r×k]·P[k×32].
// It computes what the assembly kernels compute, bit for bit: each element
// of C sums its k products in order with fused multiply-adds (fma32) from
// 0, then adds the old C when accumulating.
func kernelGeneric(r, k int, a []float32, lda int, b []float32, c []float32, ldc int, accum bool) {
	for i0 := 0; i0 < r; i0 += 2 {
		if i0+1 < r {
			var acc0, acc1 [panelW]float32
			a0 := a[i0*lda : i0*lda+k]
			a1 := a[(i0+1)*lda : (i0+1)*lda+k]
			for kk := 0; kk < k; kk++ {
				v0, v1 := a0[kk], a1[kk]
				bp := (*[panelW]float32)(b[kk*panelW : kk*panelW+panelW])
				fmaRow(&acc0, v0, bp)
				fmaRow(&acc1, v1, bp)
			}
			storeRow(c[i0*ldc:i0*ldc+panelW], &acc0, accum)
			storeRow(c[(i0+1)*ldc:(i0+1)*ldc+panelW], &acc1, accum)
			continue
		}
		var acc0 [panelW]float32
		a0 := a[i0*lda : i0*lda+k]
		for kk := 0; kk < k; kk++ {
			v0 := a0[kk]
			bp := (*[panelW]float32)(b[kk*panelW : kk*panelW+panelW])
			fmaRow(&acc0, v0, bp)
		}
		storeRow(c[i0*ldc:i0*ldc+panelW], &acc0, accum)
	}
}

func storeRow(dst []float32, acc *[panelW]float32, accum bool) {
	d := (*[panelW]float32)(dst)
	if accum {
		for j := range d {
			d[j] += acc[j]
		}
	} else {
		*d = *acc
	}
}
