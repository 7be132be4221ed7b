//go:build openblas && cgo

// Package cblas is a minimal cgo binding to OpenBLAS's cblas_sgemm, used by
// package minilm when built with -tags openblas. It lives in its own package
// because Go does not allow cgo and Go assembly in one package.
//
// Build requirement (Debian/Ubuntu): apt-get install -y libopenblas-dev
//
// The prototypes are declared here rather than taken from cblas.h, whose
// location differs between distributions; CBLAS enums are passed as ints and
// Debian's libopenblas uses 32-bit integers (LP64).
package cblas

/*
#cgo LDFLAGS: -lopenblas
void cblas_sgemm(int order, int transA, int transB, int m, int n, int k,
	float alpha, const float *a, int lda, const float *b, int ldb,
	float beta, float *c, int ldc);
void openblas_set_num_threads(int n);
*/
import "C"

import "unsafe"

const (
	rowMajor = 101
	noTrans  = 111
	trans    = 112
)

// SetNumThreads sets OpenBLAS's own thread count.
func SetNumThreads(n int) { C.openblas_set_num_threads(C.int(n)) }

// Sgemm computes C = alpha·A·op(B) + beta·C for row-major matrices, with
// op(B) = Bᵀ when transB. A is m×k, op(B) is k×n, C is m×n.
func Sgemm(transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	tb := C.int(noTrans)
	if transB {
		tb = trans
	}
	// Bounds checks: the C side does none.
	_ = a[(m-1)*lda+k-1]
	if transB {
		_ = b[(n-1)*ldb+k-1]
	} else {
		_ = b[(k-1)*ldb+n-1]
	}
	_ = c[(m-1)*ldc+n-1]
	C.cblas_sgemm(rowMajor, noTrans, tb, C.int(m), C.int(n), C.int(k),
		C.float(alpha), (*C.float)(unsafe.Pointer(&a[0])), C.int(lda),
		(*C.float)(unsafe.Pointer(&b[0])), C.int(ldb),
		C.float(beta), (*C.float)(unsafe.Pointer(&c[0])), C.int(ldc))
}
