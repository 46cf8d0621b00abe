package baselines

// updateGo is negUpdate's portable form: the two axpys of word2vec.c in turn.
func updateGo(g float32, u, h, e []float32) {
	n := len(u)
	blas.Saxpy(n, g, u, 1, e, 1)
	blas.Saxpy(n, g, h, 1, u, 1)
}

// addGo is gonum's Saxpy with α = 1: each element one float32 add (1·x is
// exact), as addF32's kernel computes it, so the two agree bit for bit.
func addGo(x, y []float32) { blas.Saxpy(len(x), 1, x, 1, y, 1) }
