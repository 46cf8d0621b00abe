package builtin

import (
	"kcalab/harness"
	"kcalab/methods/ca"
	"kcalab/schema"
)

// gini is the Gini-index covariance Ξ = P − r·cᵀ (K = I), of a table or of
// a word table.
func init() {
	harness.RegisterMethod(caFamily{kernel: ca.KernelGini, info: schema.MethodInfo{Name: "gini", Label: "Gini", Rank: 12,
		Doc: "Gini-index covariance (K = I)"}})
}
