package compare

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"

	"kcalab/reports/page"
)

func TestRank(t *testing.T) {
	nan := math.NaN()
	const B, S, N = page.Best, page.Second, page.NoMark
	cases := []struct {
		name   string
		scores []float64
		digits int
		lower  bool
		want   []page.Mark
	}{
		{"distinct", []float64{0.5, 0.7, 0.6, 0.1}, 3, false, []page.Mark{N, B, S, N}},
		{"lower is better", []float64{0.5, 0.7, 0.6, 0.1}, 3, true, []page.Mark{S, N, N, B}},
		{"tie for best: both red, next value magenta", []float64{0.7, 0.6, 0.7, 0.5}, 3, false, []page.Mark{B, S, B, N}},
		{"tie for second", []float64{0.6, 0.9, 0.6, 0.1}, 3, false, []page.Mark{S, B, S, N}},
		{"equal as shown tie", []float64{0.7124, 0.7121, 0.7}, 3, false, []page.Mark{B, B, S}},
		{"differ as shown do not tie", []float64{0.7126, 0.7121}, 3, false, []page.Mark{B, S}},
		{"all equal: all best, no second", []float64{0.3, 0.3}, 2, false, []page.Mark{B, B}},
		{"missing scores never marked", []float64{nan, 0.2, math.Inf(1), 0.4}, 3, false, []page.Mark{N, S, N, B}},
		{"all missing", []float64{nan, nan}, 3, false, []page.Mark{N, N}},
		{"one score", []float64{0.1}, 3, false, []page.Mark{B}},
		{"none", nil, 3, false, []page.Mark{}},
		{"negative zero ties zero", []float64{-0.0001, 0.0001, -0.5}, 3, false, []page.Mark{B, B, S}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, Rank(c.scores, c.digits, c.lower))
		})
	}
}

// TestRankOrderFree: the marks follow the scores, not the row order.
func TestRankOrderFree(t *testing.T) {
	scores := []float64{0.31, 0.72, 0.72, 0.5, 0.69, math.NaN()}
	want := Rank(scores, 2, false)
	perm := []int{5, 3, 0, 2, 4, 1}
	shuffled := make([]float64, len(scores))
	for i, p := range perm {
		shuffled[i] = scores[p]
	}
	got := Rank(shuffled, 2, false)
	for i, p := range perm {
		assert.Equal(t, want[p], got[i], "score %v", scores[p])
	}
}

// TestRankSignificant: benchstat's rule. Replicates come from
// replicatesFor: a shared part per set (the resampled pairs) and an own
// part of sd tau per trial, so a paired difference has a 95% half-width
// near 2.77·tau.
func TestRankSignificant(t *testing.T) {
	nan := math.NaN()
	const B, S, U, N = page.Best, page.Second, page.Untested, page.NoMark
	rep := func(trial string, v, tau float64) []float64 { return replicatesFor(trial, "men", v, tau) }
	cases := []struct {
		name   string
		scores []float64
		reps   [][]float64
		lower  bool
		want   []page.Mark
	}{
		{"a significant gap", []float64{0.6, 0.5}, [][]float64{rep("a", 0.6, 0.01), rep("b", 0.5, 0.01)}, false, []page.Mark{B, S}},
		{"within the noise: a tie, both best", []float64{0.6, 0.59}, [][]float64{rep("a", 0.6, 0.02), rep("b", 0.59, 0.02)}, false, []page.Mark{B, B}},
		{"best is relative to the top; second the top of the rest",
			[]float64{0.60, 0.58, 0.53, 0.40}, [][]float64{rep("a", 0.60, 0.01), rep("b", 0.58, 0.01), rep("c", 0.53, 0.01), rep("d", 0.40, 0.01)}, false,
			[]page.Mark{B, B, S, N}},
		{"the same resamples moving both alike: a constant difference is significant",
			[]float64{0.60, 0.59}, [][]float64{rep("a", 0.60, 0.05), rep("a", 0.59, 0.05)}, false, []page.Mark{B, S}},
		{"equal as shown tie, whatever the replicates", []float64{0.7124, 0.7121}, [][]float64{rep("a", 0.7124, 0), rep("a", 0.7121, 0)}, false, []page.Mark{B, B}},
		{"without replicates: where it stands, never a win",
			[]float64{0.6, 0.5, 0.7, 0.4}, [][]float64{rep("a", 0.6, 0.01), rep("b", 0.5, 0.01), nil, nil}, false, []page.Mark{B, S, U, N}},
		{"nothing tested: the two highest as shown", []float64{0.6, 0.5, 0.4}, nil, false, []page.Mark{U, U, N}},
		{"nothing tested, all equal: nothing to show", []float64{0.0, 0.0, 0.0}, nil, false, []page.Mark{N, N, N}},
		{"replicates of another length are not paired", []float64{0.6, 0.5, 0.55}, [][]float64{rep("a", 0.6, 0.01), rep("b", 0.5, 0.01), rep("c", 0.55, 0.01)[:10]}, false, []page.Mark{B, S, U}},
		{"lower is better", []float64{0.6, 0.5}, [][]float64{rep("a", 0.6, 0.01), rep("b", 0.5, 0.01)}, true, []page.Mark{S, B}},
		{"missing scores never marked", []float64{nan, 0.6, 0.5}, [][]float64{nil, rep("a", 0.6, 0.01), rep("b", 0.5, 0.01)}, false, []page.Mark{N, B, S}},
		{"one score: nothing to rank it against", []float64{0.6, nan}, [][]float64{rep("a", 0.6, 0.01), nil}, false, []page.Mark{N, N}},
		{"none", nil, nil, false, []page.Mark{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, RankSignificant(c.scores, c.reps, 3, c.lower))
		})
	}
}

// The marks follow the scores, not the row order.
func TestRankSignificantOrderFree(t *testing.T) {
	scores := []float64{0.60, 0.58, 0.53, 0.40, 0.7}
	reps := [][]float64{replicatesFor("a", "s", 0.60, 0.01), replicatesFor("b", "s", 0.58, 0.01), replicatesFor("c", "s", 0.53, 0.01), replicatesFor("d", "s", 0.40, 0.01), nil}
	want := RankSignificant(scores, reps, 3, false)
	perm := []int{4, 2, 0, 3, 1}
	s2, r2 := make([]float64, len(perm)), make([][]float64, len(perm))
	for i, p := range perm {
		s2[i], r2[i] = scores[p], reps[p]
	}
	got := RankSignificant(s2, r2, 3, false)
	for i, p := range perm {
		assert.Equal(t, want[p], got[i], "score %v", scores[p])
	}
}

// TestRankTable: the marks are decided per group of rows and column, an
// unranked score is shown but never marked, reference rows take none, and
// a score with replicates carries its interval's half-width.
func TestRankTable(t *testing.T) {
	rep := func(trial string, v float64) []float64 { return replicatesFor(trial, "men", v, 0.01) }
	st := page.ScoreTable{Columns: []string{"MEN"}, Rows: []page.ScoreRow{
		{Name: "a", Group: "d = 300", Scores: []float64{0.6}},
		{Name: "b", Group: "d = 300", Scores: []float64{0.5}},
		{Name: "c", Group: "d = 1000", Scores: []float64{0.9}, Unranked: []bool{true}},
		{Name: "e", Group: "d = 1000", Scores: []float64{0.7}},
		{Name: "f", Group: "d = 1000", Scores: []float64{0.4}},
	}, Reference: []page.ScoreRow{{Name: "paper", Scores: []float64{0.99}}}}
	got := RankTable(st, [][][]float64{{rep("a", 0.6)}, {rep("b", 0.5)}, {rep("c", 0.9)}, {rep("e", 0.7)}, {rep("f", 0.4)}})
	var marks []page.Mark
	for _, r := range got.Rows {
		marks = append(marks, r.Marks...)
	}
	assert.Equal(t, []page.Mark{page.Best, page.Second, page.NoMark, page.Best, page.Second}, marks,
		"ranked within each group; the unranked 0.9 takes no mark and does not push 0.7 down")
	for _, r := range got.Rows {
		assert.InDelta(t, 0.071, r.HalfWidths[0], 0.02, "row %s: the 95%% interval of its replicates", r.Name)
	}
	assert.Nil(t, got.Reference[0].Marks, "reference rows are not ranked")
	assert.Nil(t, st.Rows[0].Marks, "the table given is not changed")

	none := RankTable(st, nil)
	assert.True(t, math.IsNaN(none.Rows[0].HalfWidths[0]), "no replicates, no interval")
	assert.Equal(t, page.Untested, none.Rows[3].Marks[0], "no replicates: where it stands, never a win")
}

// replicatesFor are bootstrap replicates of value: a part shared by every
// trial on the set (the resampled pairs) and an own part of sd tau.
func replicatesFor(trial, set string, value, tau float64) []float64 {
	shared, own := rand.New(rand.NewPCG(seedOf(set), 1)), rand.New(rand.NewPCG(seedOf(trial+"\x00"+set), 2))
	out := make([]float64, resamples)
	for b := range out {
		out[b] = value + 0.03*shared.NormFloat64() + tau*own.NormFloat64()
	}
	return out
}

const resamples = 200

func seedOf(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
