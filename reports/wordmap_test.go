package reports

import (
	"fmt"
	"testing"

	"kcalab/records"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWordViews(t *testing.T) {
	sec := tb().wordViewsSection(wordViewRecords())
	require.NotNil(t, sec)
	wm := sec.Blocks[1].(ScatterMap)
	assert.Len(t, wm.Series[0].Points, 40)
	assert.Contains(t, string(sec.Blocks[0].(Paragraph)), "1 word(s) lie more than 8 times the median distance from the origin and are left off so that the rest can be read (agave).")
	assert.True(t, wm.HideOverlap)
	assert.Contains(t, string(sec.Blocks[3].(Paragraph)), "Why the CA family's dot-product neighbours are rare words")
	assert.Contains(t, string(sec.Blocks[3].(Paragraph)), "Cosine, beside it, ranks by direction alone")
	nb := sec.Blocks[4].(Table)
	assert.Equal(t, "Nearest neighbours: tail-cut (trial #1), by the dot product, its method's own similarity", nb.Caption)
	assert.Equal(t, []string{"Word", "Nearest 10 by dot, most similar first", "Nearest 10 by cosine"}, nb.Header)
	assert.Equal(t, []string{"king", "queen 0.812, prince 0.773, throne 0.7", "queen 0.9, kings 0.8"}, nb.Rows[0])
	assert.Equal(t, []string{"zyzzyva", "not in the vocabulary", "not in the vocabulary"}, nb.Rows[1])
	require.IsType(t, Details{}, sec.Blocks[5], "the other trials' neighbours are collapsed")
	sgns := sec.Blocks[5].(Details).Blocks[0].(Table)
	assert.Equal(t, "Nearest neighbours: SGNS (trial #2), by the dot product: the record holds no cosine neighbours (recorded before both similarities were; rerun the spec with -fresh for them)", sgns.Caption,
		"SGNS ranks by cosine; a record without cosine neighbours shows its dot ones and says so")
	assert.Len(t, sgns.Header, 2)

	recs := wordViewRecords()
	recs[1].NeighboursOther = []records.Neighbours{{Word: "king", Words: []string{"kings"}, Sims: []float64{0.5}}}
	sec = tb().wordViewsSection(recs)
	sgns = sec.Blocks[5].(Details).Blocks[0].(Table)
	assert.Equal(t, "Nearest neighbours: SGNS (trial #2), by cosine, its method's own similarity", sgns.Caption)
	assert.Equal(t, []string{"king", "kings 0.5", "queen 0.812, prince 0.773, throne 0.7"}, sgns.Rows[0], "SGNS's own cosine first, the dot product beside")
	assert.Nil(t, tb().wordViewsSection(methodRecords()))
}

// TestMapTrial: the word map comes from the trial on the most data, the
// most exact decomposition, then the largest dimension and window; a
// degenerate map (words on a few points) is passed over, and when every
// map is degenerate the page says so.
func TestMapTrial(t *testing.T) {
	spread := func(n int) *records.WordMap {
		wm := &records.WordMap{}
		for i := range n {
			wm.Words = append(wm.Words, fmt.Sprint("w", i))
			wm.X, wm.Y = append(wm.X, float64(i%10)), append(wm.Y, float64(i/10))
		}
		return wm
	}
	dot := func(n int) *records.WordMap {
		wm := spread(n)
		for i := range wm.X {
			wm.X[i], wm.Y[i] = 1e-9*float64(i%2), 0
		}
		wm.X[0] = 1
		return wm
	}
	rec := func(id string, wm *records.WordMap, settings map[string]any, resid float64) records.Record {
		return records.Record{ID: id, Status: "ok", Settings: settings, WordsMap: wm, SVD: &records.SVDAccuracy{RelResidual: resid}}
	}
	cases := []struct {
		name       string
		recs       []records.Record
		want       string
		degenerate bool
	}{
		{"largest corpus", []records.Record{
			rec("prefix", spread(50), map[string]any{"data.fraction": 1.0 / 64, "svd.rank": 1000.0}, 1e-9),
			rec("whole", spread(50), map[string]any{"data.fraction": 1.0, "svd.rank": 100.0}, 1e-9)}, "whole", false},
		{"exact before sketch", []records.Record{
			rec("sketch", spread(50), map[string]any{"svd.rank": 300.0}, 0.01),
			rec("exact", spread(50), map[string]any{"svd.rank": 300.0}, 1e-8)}, "exact", false},
		{"not W = 1", []records.Record{
			rec("w1", spread(50), map[string]any{"data.window": 1.0}, 1e-8),
			rec("w10", spread(50), map[string]any{"data.window": 10.0}, 1e-8)}, "w10", false},
		{"degenerate passed over", []records.Record{
			rec("dot", dot(50), map[string]any{"data.window": 30.0}, 1e-8),
			rec("spread", spread(50), map[string]any{"data.window": 10.0}, 1e-8)}, "spread", false},
		{"all degenerate", []records.Record{rec("dot", dot(50), nil, 1e-8)}, "dot", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, degenerate := mapTrial(tb().project(c.recs))
			assert.Equal(t, c.want, got.ID)
			assert.Equal(t, c.degenerate, degenerate)
		})
	}
	blocks := tb().wordMapBlocks(tb().project([]records.Record{rec("dot", dot(50), nil, 1e-8)}))
	require.Len(t, blocks, 1, "a warning, no map")
	assert.Contains(t, string(blocks[0].(Paragraph)), "No word map")
}
