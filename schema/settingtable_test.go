package schema_test

import (
	"testing"

	_ "kcalab/harness/builtin"
	"kcalab/schema"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSettingTags(t *testing.T) {
	s, ok := schema.LookupSetting("svd.rank")
	require.True(t, ok)
	assert.Equal(t, schema.Int, s.Kind)
	assert.Equal(t, 0, s.Default)
	assert.Equal(t, "d=300", schema.ShortLabel("svd.rank", "300"))
	assert.Equal(t, "W=24", schema.ShortLabel("data.window", "24"))
	assert.Equal(t, "SGNS", schema.ShortLabel("method", "sgns"))
	assert.Equal(t, "M.Turk", schema.ShortLabel("sca.set", "mturk"))
	assert.Equal(t, "svd.oversample=10", schema.ShortLabel("svd.oversample", "10"))
	assert.Equal(t, "SPPMI", schema.ValueLabel("kca.kernel", "sppmi"))
	assert.Contains(t, s.Doc, "dimensions")
	assert.Equal(t, []string{"auto", "dense", "lapack", "randomized", "dssvd", "krylov"}, mustSetting(t, "svd.backend").Allowed())

	tr := schema.RecordSettings(map[string]any{"svd.rank": 7, "eval.sets": []string{"men"}, "data.table": "flat"})
	assert.Equal(t, 7, tr.SVD.Rank)
	assert.Equal(t, []string{"men"}, tr.Eval.Sets)
	assert.Equal(t, "flat", tr.Data.Table)
	assert.Equal(t, 24, tr.Data.Window, "a missing key takes its default")
	fromJSON := schema.RecordSettings(map[string]any{"svd.rank": 7.0, "eval.sets": []any{"men"}, "data.source": "csv", "svd.tol": 1e-6, "svd.oversample": "x"})
	assert.Equal(t, 7, fromJSON.SVD.Rank, "a results file's numbers are float64")
	assert.Equal(t, []string{"men"}, fromJSON.Eval.Sets)
	assert.Equal(t, schema.SourceCSV, fromJSON.Data.Source)
	assert.Equal(t, 1e-6, fromJSON.SVD.Tol)
	assert.Equal(t, 10, fromJSON.SVD.Oversample, "a value of the wrong type takes the default")
	a, b := schema.RecordSettings(nil), schema.RecordSettings(nil)
	a.Eval.Sets[0] = "changed"
	assert.Equal(t, []string{"sim", "rel", "men", "mturk", "rare", "s999"}, b.Eval.Sets, "defaults are not aliased")

	keys := []string{"svd.backend", "zzz", "data.window", "method", "aaa"}
	schema.LabelOrder(keys)
	assert.Equal(t, []string{"method", "data.window", "svd.backend", "aaa", "zzz"}, keys)
}

func mustSetting(t *testing.T, key string) schema.Setting {
	s, ok := schema.LookupSetting(key)
	require.True(t, ok, key)
	return s
}
