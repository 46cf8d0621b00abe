package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/schema"
)

// experiments/supervised.yaml keeps each retrofitted baseline beside its
// plain twin (the same settings but retrofit.* and the label, so the same
// seed): retrofitting is compared with the vectors it retrofits, trained
// once. A FINAL DESIGN edited in one variant of a pair and not the other
// fails here.
func TestSupervisedSpecTwins(t *testing.T) {
	spec, err := schema.LoadSpec(filepath.Join("experiments", "supervised.yaml"))
	require.NoError(t, err)
	plain := map[uint64]schema.Trial{}
	for _, tr := range spec.Trials() {
		if !tr.Retrofitted() {
			plain[tr.Seed] = tr
		}
	}
	n := 0
	for _, tr := range spec.Trials() {
		if !tr.Retrofitted() || tr.Method == "kca" {
			continue // CA's twin is labelled: krylov converges to its decomposition whatever the seed (to svd.tol)
		}
		n++
		twin, ok := plain[tr.Seed]
		if assert.True(t, ok, "%s has no plain twin of its settings (edit both variants alike)", tr.Title) {
			assert.Equal(t, tr.Method, twin.Method)
			assert.Equal(t, tr.Replicate, twin.Replicate)
		}
	}
	assert.Positive(t, n)
}
