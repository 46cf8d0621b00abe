package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "kcalab/harness/builtin"
	"kcalab/schema"
)

// Adding a setting to the project (with a default) must not invalidate
// earlier results, which lack the key; another method's settings do not
// matter.
func TestSameTrial(t *testing.T) {
	trial := func(body string) schema.Trial {
		s, err := schema.DecodeSpec([]byte("name: x\ndata: {source: corpus}\n"+body), "")
		require.NoError(t, err)
		return s.Trials()[0]
	}
	ca := trial("method: ca\nsvd: {rank: 3}\n")
	assert.True(t, schema.SameTrial(map[string]any{"method": "ca", "data.source": "corpus", "svd.rank": 3.0}, ca), "missing key at its default")
	assert.False(t, schema.SameTrial(map[string]any{"method": "sgns", "data.source": "corpus", "svd.rank": 3.0}, trial("method: sgns\nsvd: {rank: 3}\ntrain: {dim: 5}\n")))
	// A CA trial is reused whatever train.* or sca.* say; an SCA trial is not.
	assert.True(t, schema.SameTrial(map[string]any{"method": "ca", "data.source": "corpus", "svd.rank": 3.0, "sca.weight": 1.0}, trial("method: ca\nsvd: {rank: 3}\ntrain: {dim: 5}\nsca: {weight: 0.5}\n")))
	assert.False(t, schema.SameTrial(map[string]any{"method": "sca", "data.source": "corpus", "svd.rank": 3.0, "sca.weight": 1.0}, trial("method: sca\nsvd: {rank: 3}\nsca: {weight: 0.5}\n")))
	assert.False(t, schema.SameTrial(map[string]any{"method": "gini", "data.source": "corpus", "svd.rank": 3.0, "train.dim": 0}, ca))
	assert.False(t, schema.SameTrial(map[string]any{"method": "ca", "data.source": "corpus", "svd.rank": 3.0, "train.dim": 0, "gone": 1}, ca), "a key that is no setting any more")
}
