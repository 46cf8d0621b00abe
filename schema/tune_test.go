package schema_test

import (
	"testing"

	"kcalab/schema"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const tuneBase = "name: x\ndata: {source: corpus, window: [5, 10]}\nmethod: kca\nvectors: {alpha: [0.5, 1]}\neval: {sets: [men, rare], parts: true}\n"

func TestTuneErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"no dev parts", "name: x\ndata: {source: corpus, window: [5, 10]}\neval: {sets: [men]}\ntune: {axes: [data.window]}\n", "set eval.parts: true"},
		{"not an axis", tuneBase + "tune: {axes: [svd.rank]}\n", "tune.axes: svd.rank is no grid axis of this trial (its axes: data.window, vectors.alpha)"},
		{"no axis at all", "name: x\ndata: {source: corpus}\neval: {parts: true}\ntune: {axes: [data.window]}\n", "its axes: none: give a setting as a list"},
		{"named twice", tuneBase + "tune: {axes: [data.window, data.window]}\n", "data.window is named twice"},
		{"a label", tuneBase + "tune: {axes: [label]}\n", "label names the trial or the choice"},
		{"unscored set", tuneBase + "tune: {axes: [data.window], on: [s999]}\n", `tune.on: "s999" is no set of eval.sets`},
		{"on without axes", tuneBase + "tune: {on: [men]}\n", "give tune.axes too"},
		{"bad rule", tuneBase + "tune: {axes: [data.window], rule: max}\n", `tune.rule: "max" is not allowed (allowed: mean)`},
		{"halving off the axes", tuneBase + "tune: {axes: [vectors.alpha], halving: data.window}\n", "tune.halving: data.window is not one of tune.axes (vectors.alpha)"},
		{"halving over no number", "name: x\ndata: {source: corpus, table: [flat, skip], window: [5, 10]}\nmethod: kca\neval: {sets: [men], parts: true}\ntune: {axes: [data.table, data.window], halving: data.table}\n", "tune.halving: data.table is no numeric setting"},
		{"eta past 100", tuneBase + "tune: {axes: [data.window, vectors.alpha], halving: data.window, eta: 101}\n", "tune.eta"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.DecodeSpec([]byte(tc.in), "s.yaml")
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// Successive halving is a tuning setting: it enters no trial id.
func TestTuneHalvingKeepsIDs(t *testing.T) {
	plain, err := schema.DecodeSpec([]byte(tuneBase+"tune: {axes: [data.window, vectors.alpha]}\n"), "s.yaml")
	require.NoError(t, err)
	halved, err := schema.DecodeSpec([]byte(tuneBase+"tune: {axes: [data.window, vectors.alpha], halving: data.window, eta: 2}\n"), "s.yaml")
	require.NoError(t, err)
	require.Len(t, halved.Trials(), len(plain.Trials()))
	for i, tr := range halved.Trials() {
		assert.Equal(t, plain.Trials()[i].ID, tr.ID)
		assert.Equal(t, "data.window", tr.RecordSettings()["tune.halving"])
	}
}

// A tuned trial's dev parts are in-sample for it (tuned_on), its tune.on
// names the sets by their metric keys, and tuning changes no trial id.
func TestTuneMarksDevPartsInSample(t *testing.T) {
	plain, err := schema.DecodeSpec([]byte(tuneBase), "s.yaml")
	require.NoError(t, err)
	tuned, err := schema.DecodeSpec([]byte(tuneBase+"tune: {axes: [data.window], on: [men]}\ntuned_on: [rare]\n"), "s.yaml")
	require.NoError(t, err)
	pt, tt := plain.Trials(), tuned.Trials()
	require.Len(t, tt, 4)
	for i := range tt {
		assert.Equal(t, pt[i].ID, tt[i].ID, "tuning is no part of a trial's id")
		assert.Equal(t, []string{"rare", "men@dev"}, tt[i].TunedOn)
		assert.Equal(t, []string{"men"}, tt[i].Tune.On)
		assert.Equal(t, []string{"data.window"}, tt[i].RecordSettings()["tune.axes"])
	}
	every, err := schema.DecodeSpec([]byte(tuneBase+"tune: {axes: [data.window, vectors.alpha]}\n"), "s.yaml")
	require.NoError(t, err)
	assert.Equal(t, []string{"men@dev", "rare@dev"}, every.Trials()[0].TunedOn, "tune.on defaults to eval.sets")
}

// Settings added after results were committed (omitdefault) are left out
// of a record at their default, so committed records stay byte for byte;
// given otherwise, they are recorded.
func TestOmitDefaultSettings(t *testing.T) {
	plain, err := schema.DecodeSpec([]byte("name: x\ndata: {source: corpus}\nmethod: kca\n"), "s.yaml")
	require.NoError(t, err)
	rs := plain.Trials()[0].RecordSettings()
	for _, k := range []string{"kca.cds", "vectors.beta", "vectors.add_contexts", "data.subsample", "svd.shared_rank", "tune.axes", "tune.on", "tune.rule"} {
		assert.NotContains(t, rs, k)
	}
	assert.Contains(t, rs, "vectors.alpha", "settings older than the committed records stay")
	set, err := schema.DecodeSpec([]byte("name: x\ndata: {source: corpus}\nmethod: kca\nkca: {cds: 0.75}\nvectors: {beta: 0}\n"), "s.yaml")
	require.NoError(t, err)
	rs = set.Trials()[0].RecordSettings()
	assert.Equal(t, 0.75, rs["kca.cds"])
	assert.Equal(t, 0.0, rs["vectors.beta"])
}
