//go:build !arm64

package minilm

// fma32Fast is fma64Try: amd64's Go compiler fuses nothing unless
// GOAMD64=v3, and the other architectures are not checked.
func fma32Fast(x, y, z float32) (float32, bool) { return fma64Try(x, y, z) }

// fmaRow sets acc[j] = fma32(v, b[j], acc[j]), in float64 with the rare
// cases fma64Try cannot tell done apart (v is converted once: a conversion
// per element writes part of a register and chained the iterations).
func fmaRow(acc *[panelW]float32, v float32, b *[panelW]float32) {
	vf := float64(v)
	for j, x := range b {
		if r, ok := fma64TryX(vf, x, acc[j]); ok {
			acc[j] = r
		} else {
			acc[j] = fma32Soft(v, x, acc[j])
		}
	}
}
