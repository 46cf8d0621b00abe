package reports

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"kcalab/records"
)

// A page of a few measured trials at one size opens with what they cost:
// time and memory against the first trial, and peak memory against the
// SVD's planned buffers when the record has them.
func TestMeasuredSection(t *testing.T) {
	rec := func(id, label string, wall, rss, plan float64) records.Record {
		r := records.Record{ID: id, Status: "ok", Settings: map[string]any{"label": label, "method": "lca", "measure.process": true},
			Run:     &records.RunInfo{ID: "run-1", Commit: "d6609949"},
			Metrics: map[string]float64{records.MetricWall: wall, records.MetricCPU: wall * 1.5, records.MetricRSS: rss},
			SVD:     &records.SVDAccuracy{S: []float64{0.5, 0.2}, RelResidual: 1e-9, Products: 100}}
		if plan > 0 {
			r.Metrics[records.MetricSVDPlan] = plan
		}
		return r
	}
	s := tb().measuredSection([]records.Record{rec("a", "in memory", 64.7, 626, 500), rec("b", "from disk", 77.6, 664, 0)})
	require.NotNil(t, s)
	var table Table
	var text string
	for _, b := range s.Blocks {
		switch b := b.(type) {
		case Table:
			table = b
		case Paragraph:
			text += string(b)
		case Headline:
			text += strings.Join(b, " ")
		}
	}
	assert.Contains(t, table.Header, "SVD's planned buffers")
	assert.Contains(t, table.Rows[0], "500 MiB (peak +25.2%)")
	assert.Contains(t, table.Rows[1], "— (not recorded)")
	assert.Contains(t, text, "against the SVD's 500 MiB of planned buffers")
	assert.Contains(t, text, "from disk: 77.6 s against 64.7 s for in memory (1.2× slower), peak memory 664 MiB against 626 MiB (+6.1%)")

	// Measured in two runs: the times stand side by side, with no ratio;
	// peak memory of one clean commit still compares.
	other := rec("b", "from disk", 77.6, 664, 0)
	other.Run = &records.RunInfo{ID: "run-2", Commit: "d6609949"}
	s2 := tb().measuredSection([]records.Record{rec("a", "in memory", 64.7, 626, 500), other})
	require.NotNil(t, s2)
	h := strings.Join(s2.Blocks[0].(Headline), " ")
	assert.Contains(t, h, "from disk: 77.6 s against 64.7 s for in memory ("+whyOtherRuns+"), peak memory 664 MiB against 626 MiB (+6.1%)")
	assert.Contains(t, text, "after 100 operator products.", "converged: nothing to flag")
	assert.NotContains(t, text, "not converged")

	// A sketch far from converged (paper-d8000's DSSVD: 0.023·σ_1) is
	// flagged against its svd.tol.
	sketch := rec("c", "DSSVD", 4732, 12828, 0)
	sketch.SVD.RelResidual = 0.023
	s = tb().measuredSection([]records.Record{sketch})
	require.NotNil(t, s)
	text = ""
	for _, b := range s.Blocks {
		if h, ok := b.(Headline); ok {
			text += strings.Join(h, " ")
		}
	}
	assert.Contains(t, text, "largest residual 0.023·σ_1 after 100 operator products: not converged (svd.tol is 1e-08·σ_1), so these σ are estimates")
}

// The spectra section opens with its answer: how far each spectrum is
// from the most exact one of the same settings.
func TestSpectraAnswer(t *testing.T) {
	rec := func(id, backend string, s []float64, resid float64) records.Record {
		return records.Record{ID: id, Status: "ok", Settings: map[string]any{"method": "kca", "svd.backend": backend, "svd.rank": 3},
			SVD: &records.SVDAccuracy{S: s, RelResidual: resid}}
	}
	s := tb().spectraSection([]records.Record{rec("a", "krylov", []float64{1, 0.5, 0.25}, 1e-9), rec("b", "dssvd", []float64{1, 0.49, 0.24}, 1e-3)})
	require.NotNil(t, s)
	require.IsType(t, Headline{}, s.Blocks[0])
	assert.Equal(t, "KCA · dssvd's σ_k against KCA · krylov's (the more exact): largest difference −4% (k = 3), −2% on average over the 3.", s.Blocks[0].(Headline)[0])
}
