package reports

import (
	"math"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPowerLaw(t *testing.T) {
	for _, tt := range []struct {
		name    string
		xs, ys  []float64
		b, c    float64
		ok      bool
		exactR2 bool
	}{
		{name: "exact quadratic", xs: []float64{10, 100, 1000}, ys: []float64{300, 30000, 3e6}, b: 2, c: 3, ok: true, exactR2: true},
		{name: "linear with repeats", xs: []float64{1, 1, 2, 4}, ys: []float64{5, 5, 10, 20}, b: 1, c: 5, ok: true, exactR2: true},
		{name: "two sizes fit anything", xs: []float64{1, 1, 2}, ys: []float64{1, 2, 3}},
		{name: "a zero cannot be logged", xs: []float64{1, 2, 3}, ys: []float64{0, 2, 3}},
		{name: "no points", xs: nil, ys: nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, c, r2, ok := powerLaw(tt.xs, tt.ys)
			assert.Equal(t, tt.ok, ok)
			if !tt.ok {
				return
			}
			assert.InDelta(t, tt.b, b, 1e-12)
			assert.InEpsilon(t, tt.c, c, 1e-12)
			if tt.exactR2 {
				assert.InDelta(t, 1, r2, 1e-12)
			}
		})
	}
	// Noise lowers R².
	_, _, r2, ok := powerLaw([]float64{1, 2, 4, 8}, []float64{1, 3, 3, 9})
	assert.True(t, ok)
	assert.Less(t, r2, 0.99)
	assert.Equal(t, "3 · V^2 (R² 1.000, 3 points)", lawText("V", 2, 3, 1, 3))
}

func TestCalibrationSection(t *testing.T) {
	pts := func(scale float64) []records.CorpusPoint {
		var out []records.CorpusPoint
		for _, n := range []int64{1e5, 2e5, 4e5, 8e5} {
			f := float64(n)
			out = append(out, records.CorpusPoint{Tokens: n, Types: int(scale * 10 * math.Pow(f, 0.6)),
				Vocab: int(scale * math.Pow(f, 0.7)), NNZFlat: int(4 * f), NNZCut: int(3.9 * f)})
		}
		return out
	}
	recs := []records.Record{
		{ID: "a", Status: "ok", Settings: map[string]any{"label": "text", "method": "corpusstats"},
			Corpus: &records.CorpusStats{Window: 24, Points: pts(1), Sigma: []float64{0.6, 0.5, 0.4}, TotalInertia: 1}},
		{ID: "b", Status: "ok", Settings: map[string]any{"label": "model", "method": "corpusstats"},
			Corpus: &records.CorpusStats{Window: 24, Points: pts(1.1), Sigma: []float64{0.3, 0.3, 0.3}, TotalInertia: 0.5}},
		{ID: "c", Status: "ok", Settings: map[string]any{"method": "lca"}},
	}
	s := tb().calibrationSection(recs)
	require.NotNil(t, s)
	types := body(s)[1].(Row)[0].(LineChart)
	require.Len(t, types.Series, 2, "one line per corpus; the trial without statistics is not drawn")
	assert.Equal(t, "text", types.Series[0].Name)
	assert.Equal(t, XY{X: 1e5, Y: float64(int(10 * math.Pow(1e5, 0.6)))}, types.Series[0].Points[0])
	nnz := body(s)[2].(Row)[0].(LineChart)
	assert.Equal(t, []string{"text N^flat", "text N^cut", "model N^flat", "model N^cut"},
		[]string{nnz.Series[0].Name, nnz.Series[1].Name, nnz.Series[2].Name, nnz.Series[3].Name})
	fits := body(s)[3].(Table)
	require.Len(t, fits.Rows, 2)
	assert.Equal(t, "text", fits.Rows[0][0])
	assert.Contains(t, fits.Rows[0][3], "0.600 (R² 1.000)", "Heaps exponent of types")
	assert.Contains(t, fits.Rows[0][5], "1.000", "nnz linear in tokens")
	assert.Equal(t, []string{"0.6", "—", "0.4 (3)", "77.0%"}, fits.Rows[0][7:])
	assert.Equal(t, "54.0%", fits.Rows[1][10], "0.27 of 0.5")
	require.Len(t, fits.CSV, 3)
	assert.Regexp(t, `^0\.600\d*$`, fits.CSV[1][3], "the CSV's exponent is a plain number")
	assert.Equal(t, "0.77", fits.CSV[1][15])
	require.IsType(t, Headline{}, s.Blocks[0], "the section opens with its answer")
	assert.Regexp(t, `^model against text: Heaps b 0\.6\d* against 0\.6, .*σ₁ 0\.3 against 0\.6, Σσ²/inertia 54\.0% against 77\.0%\.$`, s.Blocks[0].(Headline)[0])
	assert.Nil(t, tb().calibrationSection(recs[2:]), "no statistics, no section")
}

// Growth is told by the local slopes; a power law is stated only where
// every slope agrees with it, never for a flat quantity (LAPACK's time
// against k: 226 s to 228 s over k = 300 … 6000 is no law k^0.01).
func TestGrowth(t *testing.T) {
	ks := []float64{300, 1000, 3000, 8000}
	for _, tt := range []struct {
		name   string
		ys     []float64
		flat   bool
		holds  bool
		slopes string
		law    string
		answer string
	}{
		{name: "krylov's wall time: slopes rise, no one law", ys: []float64{7.12, 19.3, 81.1, 406},
			slopes: "0.83 → 1.31 → 1.64", law: "— (not one power law: the local slopes run from 0.83 to 1.64)",
			answer: "krylov's wall time: local slopes 0.83 → 1.31 → 1.64 over k = 300 … 8,000"},
		{name: "a quadratic: the law holds", ys: []float64{0.09, 1, 9, 64},
			holds: true, slopes: "2.00 → 2.00 → 2.00", law: "1e-06 · k^2 (R² 1.000, 4 points)",
			answer: "krylov's wall time grows as k^2 (R² 1.000, 4 points) over k = 300 … 8,000"},
		{name: "LAPACK: flat, no law", ys: []float64{226, 218, 235, 228},
			flat: true, slopes: "−0.03 → 0.07 → −0.03", law: "— (flat: no law)",
			answer: "krylov's wall time is flat over k = 300 … 8,000"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, ok := growthOf(ks, tt.ys)
			require.True(t, ok)
			assert.Equal(t, tt.flat, g.flat)
			assert.Equal(t, tt.holds, g.lawHolds())
			assert.Equal(t, tt.slopes, g.slopesText())
			assert.Equal(t, tt.law, g.lawCell("k"))
			ax := scalingAxis{rank: true}
			assert.Equal(t, []string{tt.answer}, growthAnswer([]growthRow{{line: "krylov", what: "wall time", size: g}}, "k", ax.text))
		})
	}
	_, ok := growthOf([]float64{300, 1000}, []float64{1, 2})
	assert.False(t, ok, "two sizes tell no growth")
}
