package schema_test

import (
	_ "kcalab/harness/builtin"
	"kcalab/schema"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Small refusals of #12: a bounded power_iters, distinct variant labels.
func TestSpecSmallRefusals(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"power_iters too large", "name: x\nsvd: {power_iters: 1000000000}\n", "spec.yaml:2: svd.power_iters: 1e+09 is out of range (allowed: -1 to 100)"},
		{"power_iters at the bound", "name: x\nsvd: {power_iters: 100}\n", ""},
		{"duplicate variant labels", "name: x\nvariants:\n  - {label: a, method: ca}\n  - {label: b, method: gini}\n  - {label: a, method: lca}\n",
			`spec.yaml:5: variants: label "a" repeats the label of the variant at line 3`},
		{"distinct variant labels", "name: x\nvariants:\n  - {label: a, method: ca}\n  - {label: b, method: gini}\n", ""},
		{"an identical variant repeated", "name: x\nvariants:\n  - {label: a, method: ca}\n  - {label: a, method: ca}\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := schema.DecodeSpec([]byte(tt.body), "spec.yaml")
			if tt.want == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
