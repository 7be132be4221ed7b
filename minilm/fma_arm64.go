package minilm

// fma32Fast returns x*y + z rounded once: arm64's Go compiler always fuses
// this expression into one FMADDS instruction (TestFMA32 checks the result
// against fma32Soft).
func fma32Fast(x, y, z float32) (float32, bool) { return x*y + z, true }

// fmaRow sets acc[j] = fma32(v, b[j], acc[j]).
func fmaRow(acc *[panelW]float32, v float32, b *[panelW]float32) {
	for j, x := range b {
		acc[j] = v*x + acc[j]
	}
}
