package compare

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/records"
)

// Holm's step-down on the textbook example (Holm 1979 as Wikipedia's
// "Holm–Bonferroni method" works it): p = .01, .04, .03, .005 at α = .05
// reject the hypotheses of .005 and .01 only; adjusted .03, .06, .06, .02.
func TestHolmTextbook(t *testing.T) {
	adj := Holm([]float64{0.01, 0.04, 0.03, 0.005})
	want := []float64{0.03, 0.06, 0.06, 0.02}
	for i := range want {
		assert.InDelta(t, want[i], adj[i], 1e-15, "hypothesis %d", i+1)
	}
	tests := []struct {
		name string
		in   []float64
		want []float64
	}{
		{"one test is its own family", []float64{0.04}, []float64{0.04}},
		{"capped at 1", []float64{0.6, 0.7}, []float64{1, 1}},
		{"monotone in the sorted order", []float64{0.02, 0.011}, []float64{0.022, 0.022}},
		{"untested members stay out of the family", []float64{0.01, math.NaN(), 0.02}, []float64{0.02, math.NaN(), 0.02}},
		{"ties keep their order", []float64{0.01, 0.01}, []float64{0.02, 0.02}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Holm(tt.in)
			require.Len(t, got, len(tt.want))
			for i := range got {
				if math.IsNaN(tt.want[i]) {
					assert.True(t, math.IsNaN(got[i]))
					continue
				}
				assert.InDelta(t, tt.want[i], got[i], 1e-15)
			}
		})
	}
}

// The verdicts across sets against an independent numpy/scipy computation
// (testdata/pooled/make_reference.py): a trainer over three seeds against
// one trial on six test parts, each set's difference with its interval
// over the pairs and the seeds, its p-value and Holm's adjustment, and the
// pooled difference over the sets.
func TestPooledAgainstReference(t *testing.T) {
	var fx struct {
		Sets []string `json:"sets"`
		Key  string   `json:"key"`
		Rows map[string][]struct {
			Metrics   map[string]float64 `json:"metrics"`
			Bootstrap struct {
				B      int               `json:"B"`
				Scores map[string]string `json:"scores"`
			} `json:"bootstrap"`
		} `json:"rows"`
	}
	var want struct {
		PerSet []struct{ D, Lo, Hi, P, Holm float64 } `json:"per_set"`
		Pooled struct{ D, Lo, Hi, P float64 }         `json:"pooled"`
	}
	load := func(name string, v any) {
		b, err := os.ReadFile(filepath.Join("testdata", "pooled", name))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, v))
	}
	load("fixture.json", &fx)
	load("expected.json", &want)
	row := func(name string) Row {
		var members []records.Record
		for i, m := range fx.Rows[name] {
			members = append(members, records.Record{ID: name + string(rune('0'+i)), Status: "ok", Metrics: m.Metrics,
				Bootstrap: &records.Bootstrap{B: m.Bootstrap.B, Scores: m.Bootstrap.Scores}})
		}
		r := Row{Trial: Trial{Record: members[0]}, N: len(members)}
		if len(members) > 1 {
			r.Members = members
			mean := map[string]float64{}
			for _, m := range members {
				for k, v := range m.Metrics {
					mean[k] += v / float64(len(members))
				}
			}
			r.Record.Metrics = mean
		}
		return r
	}
	a, b := row("A"), row("B")
	keys := make([]string, len(fx.Sets))
	ea, eb := make([]Estimate, len(fx.Sets)), make([]Estimate, len(fx.Sets))
	for i, s := range fx.Sets {
		keys[i] = strings.ReplaceAll(fx.Key, "{}", s)
		ea[i], eb[i] = a.Estimate(keys[i]), b.Estimate(keys[i])
	}
	vs, p, adj := HolmVerdicts(ea, eb)
	for i, s := range fx.Sets {
		d, lo, hi, ok := Diff(ea[i], eb[i])
		require.True(t, ok, s)
		w := want.PerSet[i]
		assert.InDelta(t, w.D, d, 1e-12, s)
		assert.InDelta(t, w.Lo, lo, 1e-9, s)
		assert.InDelta(t, w.Hi, hi, 1e-9, s)
		assert.InDelta(t, w.P, p[i], 1e-6*math.Max(w.P, 1e-3), s)
		assert.InDelta(t, w.Holm, adj[i], 1e-6*math.Max(w.Holm, 1e-3), s)
		assert.Equal(t, w.Holm < 0.05, vs[i] != Tie, s)
	}
	// MEN and Rare are "significant" at 95% alone, and not once adjusted
	// for the six sets.
	assert.Equal(t, Above, Compare(ea[2], eb[2], 3))
	assert.Equal(t, Below, Compare(ea[4], eb[4], 3))
	assert.Equal(t, []Verdict{Tie, Tie, Tie, Tie, Tie, Tie}, vs)

	pa, pb := a.Pooled(keys), b.Pooled(keys)
	d, lo, hi, ok := Diff(pa, pb)
	require.True(t, ok)
	assert.InDelta(t, want.Pooled.D, d, 1e-12)
	assert.InDelta(t, want.Pooled.Lo, lo, 1e-9)
	assert.InDelta(t, want.Pooled.Hi, hi, 1e-9)
	assert.InDelta(t, want.Pooled.P, PValue(pa, pb), 1e-6)
}
