//go:build !openblas || !cgo

package minilm

// defaultEngine is the pure-Go engine (build with -tags openblas for cgo
// OpenBLAS).
func defaultEngine() engine { return goEngine{} }
