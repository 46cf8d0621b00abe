package builtin

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/methods/baselines"
	"kcalab/methods/svd"
	"kcalab/methods/vectors"
	"kcalab/schema"
)

// The settings' defaults are the trial ids' reference point, so they live
// in the tags; where a library documents the same default, they must agree
// (a spec that spells out the library's default then hashes to the same id).
func TestDefaultsAgreeWithLibraries(t *testing.T) {
	def := func(key string) any {
		s, ok := schema.LookupSetting(key)
		require.True(t, ok, key)
		return s.Default
	}
	opt := svd.DefaultOptions(1)
	sgns, ft, gl := baselines.DefaultSGNS(), baselines.DefaultFastText(), baselines.DefaultGloVe()
	for _, tc := range []struct {
		key  string
		want any
	}{
		{"svd.oversample", opt.Oversample},
		{"svd.power_iters", opt.PowerIters},
		{"svd.normalizer", opt.Normalizer},
		{"svd.tol", opt.Tol},
		{"train.negative", sgns.Negative},
		{"train.negative", ft.Negative},
		{"train.min_n", ft.MinN},
		{"train.max_n", ft.MaxN},
		{"train.buckets", ft.Bucket},
		{"train.x_max", gl.XMax},
		{"vectors.beta", vectors.CARows},
	} {
		assert.Equal(t, tc.want, def(tc.key), tc.key)
	}
	// svd.backend's enum is the backends package svd builds, and auto.
	s, _ := schema.LookupSetting("svd.backend")
	assert.Equal(t, append([]string{"auto"}, svd.Names...), s.Allowed())
}
