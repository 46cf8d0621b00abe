package harness

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/methods/baselines"
	"kcalab/methods/svd"
)

// The settings' defaults are the trial ids' reference point, so they live
// in the tags; where a library documents the same default, they must agree
// (a spec that spells out the library's default then hashes to the same id).
func TestDefaultsAgreeWithLibraries(t *testing.T) {
	def := func(key string) any {
		s, ok := LookupSetting(key)
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
	} {
		assert.Equal(t, tc.want, def(tc.key), tc.key)
	}
}

func TestSettingTags(t *testing.T) {
	s, ok := LookupSetting("svd.rank")
	require.True(t, ok)
	assert.Equal(t, Int, s.Kind)
	assert.Equal(t, 0, s.Default)
	assert.Equal(t, "d=300", ShortLabel("svd.rank", "300"))
	assert.Equal(t, "W=24", ShortLabel("data.window", "24"))
	assert.Equal(t, "SGNS", ShortLabel("method", "sgns"))
	assert.Equal(t, "M.Turk", ShortLabel("sca.set", "mturk"))
	assert.Equal(t, "svd.oversample=10", ShortLabel("svd.oversample", "10"))
	assert.Equal(t, "SPPMI", ValueLabel("kca.kernel", "sppmi"))
	assert.Contains(t, s.Doc, "dimensions")
	assert.Equal(t, []string{"auto", "dense", "lapack", "randomized", "dssvd", "krylov"}, mustSetting(t, "svd.backend").Allowed())

	tr := typedSettings(map[string]any{"svd.rank": 7, "eval.sets": []string{"men"}, "data.table": "flat"})
	assert.Equal(t, 7, tr.SVD.Rank)
	assert.Equal(t, []string{"men"}, tr.Eval.Sets)
	assert.Equal(t, "flat", tr.Data.Table)
	assert.Equal(t, 24, tr.Data.Window, "a missing key takes its default")
	a, b := typedSettings(nil), typedSettings(nil)
	a.Eval.Sets[0] = "changed"
	assert.Equal(t, []string{"sim", "rel", "men", "mturk", "rare", "s999"}, b.Eval.Sets, "defaults are not aliased")

	keys := []string{"svd.backend", "zzz", "data.window", "method", "aaa"}
	LabelOrder(keys)
	assert.Equal(t, []string{"method", "data.window", "svd.backend", "aaa", "zzz"}, keys)
}

func mustSetting(t *testing.T, key string) Setting {
	s, ok := LookupSetting(key)
	require.True(t, ok, key)
	return s
}
