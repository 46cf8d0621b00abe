package harness

import "kcalab/methods/ca"

// gini is the Gini-index covariance Ξ = P − r·cᵀ (K = I), of a table or of
// a word table.
func init() {
	RegisterMethod(caFamily{kernel: ca.KernelGini, info: MethodInfo{Name: "gini", Label: "Gini", Rank: 12,
		Doc: "Gini-index covariance (K = I)"}})
}
