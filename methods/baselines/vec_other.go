//go:build !amd64

package baselines

var hasFMA = false

func dotF32(x, y []float32) float32 { return blas.Sdot(len(x), x, 1, y, 1) }

func negUpdate(g float32, u, h, e []float32) { updateGo(g, u, h, e) }

func addF32(x, y []float32) { addGo(x, y) }
