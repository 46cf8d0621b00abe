package baselines

// updateGo is negUpdate's portable form: the two axpys of word2vec.c in turn.
func updateGo(g float32, u, h, e []float32) {
	n := len(u)
	blas.Saxpy(n, g, u, 1, e, 1)
	blas.Saxpy(n, g, h, 1, u, 1)
}
